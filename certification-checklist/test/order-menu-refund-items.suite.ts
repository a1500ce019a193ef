/** ORDER, MENU and REFUND items against the reference POS over real HTTP: each breaks under its --bug, with the hint in the report. */
import { afterEach, describe, it } from '@jest/globals';
import { closeServers } from '../../server/test/live.js';
import { BUG_CASES, caseName } from './bug-table.js';
import { expectBroken } from './expect-broken.js';

afterEach(closeServers);

describe('the ORDER, MENU and REFUND items against a reference POS broken on purpose', () => {
  it.each(BUG_CASES.filter((c) => !Object.keys(c.breaks)[0]!.startsWith('AUTH')).map((c) => [caseName(c), Object.keys(c.breaks).join(', '), c] as const))(
    '--bug %s breaks %s',
    async (_bug, _items, bugCase) => {
      await expectBroken(bugCase);
    },
    30_000,
  );
});
