import { describe, expect, it } from '@jest/globals';
import { CHECKLIST } from '../../certification-checklist/items/all-items.js';
import { checkChecklistRunRequest as check } from './checklist-run-request.js';

const checkChecklistRunRequest = (body: unknown) => check(body, CHECKLIST.map((item) => item.id));

describe('checkChecklistRunRequest', () => {
  it('takes the bundled reference POS with bugs, or a driver URL with its order URL', () => {
    expect(checkChecklistRunRequest({ referencePos: true, bugs: ['reuse-jti', 'reuse-jti'], capabilities: ['refund', 'hub'], windowMs: 300 })).toEqual({
      ok: true,
      request: { driver: { referencePos: true, bugs: ['reuse-jti'] }, capabilities: ['refund', 'hub'], windowMs: 300 },
    });
    expect(checkChecklistRunRequest({ driverUrl: 'http://127.0.0.1:4200', posOrderUrl: 'http://127.0.0.1:4200/order', only: ['AUTH-01'], posName: 'acme', posVersion: '4.2.0' })).toEqual({
      ok: true,
      request: { driver: { url: 'http://127.0.0.1:4200', posOrderUrl: 'http://127.0.0.1:4200/order' }, capabilities: [], only: ['AUTH-01'], pos: { name: 'acme', version: '4.2.0' } },
    });
  });

  it.each([
    [[], ['body must be a JSON object such as {"referencePos":true,"capabilities":["refund"]}, got array []']],
    [{}, ['give exactly one of driverUrl (a POS test build that implements the driver contract) and referencePos: true (the bundled reference POS)']],
    [
      { referencePos: true, driverUrl: 'http://x' },
      ['give exactly one of driverUrl (a POS test build that implements the driver contract) and referencePos: true (the bundled reference POS)'],
    ],
    [
      { driverUrl: 'file:///etc/passwd', bugs: ['reuse-jti'], capabilities: ['teleport'], only: [], windowMs: 1.5, posName: ' x', sandbox: 'y' },
      [
        'sandbox is not a field of a checklist run (driverUrl, posOrderUrl, referencePos, bugs, capabilities, only, windowMs, posName, posVersion, posBuild)',
        'driverUrl must be an http(s) URL, got string "file:///etc/passwd"',
        'bugs break the bundled reference POS on purpose: they go with referencePos: true',
        "capabilities: unknown 'teleport'; known are refund, hub, kiosk, menu-form-b",
        'only must name at least one item, or be left out for the whole checklist',
        'windowMs must be a whole number of milliseconds from 0 to 60000, got number 1.5',
        'posName must be 1 to 100 printable characters (no control, bidirectional or invisible one), starting with a non-space, got string " x"',
      ],
    ],
    [{ referencePos: 'yes', bugs: 'all' }, ['referencePos must be true, got string "yes"', 'bugs must be a list of strings, got string "all"']],
    // A right-to-left override turned the rest of a report's title around; a zero-width space makes one build read as another.
    [
      { referencePos: true, posBuild: '\u202eSOP ecnerefer', posVersion: '4.2\u200b.0' },
      [
        'posBuild must be 1 to 100 printable characters (no control, bidirectional or invisible one), starting with a non-space, got string "\u202eSOP ecnerefer"',
        'posVersion must be 1 to 100 printable characters (no control, bidirectional or invisible one), starting with a non-space, got string "4.2\u200b.0"',
      ],
    ],
    [{ referencePos: true, posOrderUrl: 'http://x/order' }, ["posOrderUrl goes with driverUrl: the reference POS's order endpoint is its own"]],
  ])('refuses %j, naming every problem', (body, problems) => {
    const check = checkChecklistRunRequest(body);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.problems.sort()).toEqual([...problems].sort());
  });
});
