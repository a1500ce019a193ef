import { describe, expect, it } from '@jest/globals';
import { reportTitle, runKind } from './run-kind.js';

const acme = { name: 'acme-pos', version: '4.2.0', build: '1187' };

describe('runKind', () => {
  it.each([
    ['a full driver run of a named, versioned POS', { mode: 'driver', pos: acme }, 'certification', 'every required item of the declared capabilities, run in driver mode against acme-pos 4.2.0 (build 1187)'],
    ['a full interactive run', { mode: 'interactive', pos: acme }, 'certification', 'every required item of the declared capabilities, run in interactive mode against acme-pos 4.2.0 (build 1187)'],
    ['the bundled reference POS, even fully run and versioned', { mode: 'driver', pos: { ...acme, referencePos: true } }, 'demo', 'the POS under test is the bundled reference POS'],
    ['a passive run', { mode: 'passive', pos: acme }, 'passive', 'it judges only what the journal held; the POS was not made to act'],
    ['--only', { mode: 'driver', only: ['ORDER-02'], pos: acme }, 'partial', 'only ORDER-02 was run (--only)'],
    ['no --pos-version', { mode: 'driver', pos: { name: 'acme-pos' } }, 'practice', 'the POS version was not given (--pos-version), so the report cannot say which build it is about'],
  ] as const)('%s is %s', (_case, input, kind, reason) => {
    expect(runKind(input)).toEqual({ kind, reason });
  });

  it('titles a certification by the POS, and anything else as not a certification first', () => {
    expect(reportTitle('certification', acme)).toBe('POS certification report: acme-pos 4.2.0 (build 1187)');
    expect(reportTitle('demo', { name: 'demo-pos', referencePos: true })).toBe('Demo run, not a certification: demo-pos (the bundled reference POS)');
    expect(reportTitle('partial', { name: 'acme-pos', version: '4.2.0' })).toBe('Partial run, not a certification: acme-pos 4.2.0');
  });
});
