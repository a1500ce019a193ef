import { describe, expect, it } from '@jest/globals';
import { CAPABILITIES } from './checklist-types.js';
import { CHECKLIST } from './items/all-items.js';
import { outOfScope, parseList } from './scope.js';

const byId = (id: string) => CHECKLIST.find((item) => item.id === id)!;

describe('the checklist scope', () => {
  it('makes an item that needs an undeclared capability not_applicable, naming it', () => {
    const scope = { capabilities: new Set(['refund'] as const), mode: 'driver' as const };
    expect(outOfScope(byId('REFUND-04'), scope)).toEqual({ status: 'not_applicable', message: 'needs the capability hub, which was not declared (--capabilities)' });
    expect(outOfScope(byId('REFUND-01'), scope)).toBeUndefined();
    expect(outOfScope(byId('REFUND-05'), { ...scope, capabilities: new Set() })?.message).toBe('needs the capabilities refund and kiosk, which were not declared (--capabilities)');
  });

  it('skips items left out by --only, and in passive mode those the POS must be made to act for', () => {
    expect(outOfScope(byId('AUTH-01'), { capabilities: new Set(), only: new Set(['AUTH-02']), mode: 'driver' })?.status).toBe('skipped');
    expect(outOfScope(byId('ORDER-02'), { capabilities: new Set(), mode: 'passive' })?.status).toBe('skipped');
    expect(outOfScope(byId('AUTH-01'), { capabilities: new Set(), mode: 'passive' })).toBeUndefined();
  });

  it('leaves an item out of a --only run as not selected, not as not applicable, whatever capability it needs', () => {
    expect(outOfScope(byId('REFUND-04'), { capabilities: new Set(), only: new Set(['ORDER-02']), mode: 'driver' })).toEqual({ status: 'skipped', message: 'not selected (--only)' });
    expect(outOfScope(byId('REFUND-04'), { capabilities: new Set(), only: new Set(['REFUND-04']), mode: 'driver' })?.status).toBe('not_applicable');
  });

  it('refuses an unknown capability with the list of known ones', () => {
    expect(parseList('refund, hubb', CAPABILITIES, 'capability', 'capabilities')).toEqual({ ok: false, problem: "unknown capability 'hubb'; the capabilities are refund, hub, kiosk, menu-form-b" });
  });

  it('gives every item an id, a title, a § reference, a step and a remediation hint; ids are unique', () => {
    expect(new Set(CHECKLIST.map((item) => item.id)).size).toBe(CHECKLIST.length);
    for (const item of CHECKLIST) {
      expect(item).toMatchObject({ id: expect.stringMatching(/^(AUTH|REFUND|MENU|ORDER|MIGRATION)-\d\d$/), title: expect.any(String), section: expect.stringMatching(/§/), remediation: expect.any(String) });
      expect(item.id.startsWith(item.category)).toBe(true);
      // Refund items are optional (§1); everything else is required.
      expect(item.required).toBe(item.category !== 'REFUND');
    }
  });
});
