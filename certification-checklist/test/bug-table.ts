/**
 * Every checklist item with the reference POS --bug that makes it fail (or warn), and the items each bug must
 * leave as knock-ons of that failure ("blocked by AUTH-06"), never as failures with an invented cause.
 */
import type { Bug } from '../../reference-pos/bugs.js';

/** What an item must say under the bug: its own failure or warning, or a knock-on of the item named. */
export type Expected = 'fail' | 'warn' | `blocked by ${string}`;

export interface BugCase {
  bug: Bug;
  /** Other bugs switched on with it. */
  with?: Bug[];
  /** The items the bug must break, and what they must say. */
  breaks: Record<string, Expected>;
  /** Items run first so the bug has something to act on (wrong-location pins the first location the POS sees). */
  before?: string[];
}

export const BUG_CASES: BugCase[] = [
  { bug: 'wrong-key', breaks: { 'AUTH-01': 'fail' } },
  // Every call refused 401: the root cause fails, and what needed the calls says so.
  { bug: 'wrong-token-audience', breaks: { 'AUTH-02': 'fail', 'ORDER-02': 'blocked by AUTH-02', 'MENU-08': 'blocked by AUTH-02', 'REFUND-01': 'blocked by AUTH-02' } },
  { bug: 'wrong-issuer', breaks: { 'AUTH-03': 'fail' } },
  { bug: 'sub-not-location', breaks: { 'AUTH-04': 'fail' } },
  // Two tokens minted in one second for one location are the same token: calls for two locations make two.
  { bug: 'reuse-jti', breaks: { 'AUTH-05': 'fail' }, before: ['MENU-08'] },
  { bug: 'long-lived-tokens', breaks: { 'AUTH-06': 'warn' } },
  { bug: 'exp-in-ms', breaks: { 'AUTH-06': 'fail', 'ORDER-02': 'blocked by AUTH-06', 'ORDER-03': 'blocked by AUTH-06', 'MENU-01': 'blocked by AUTH-06', 'REFUND-01': 'blocked by AUTH-06' } },
  // Every call refused 401 (nbf in the future), and AUTH-06 counts the calls a fault rule answered too.
  { bug: 'clock-fast', breaks: { 'AUTH-06': 'fail', 'ORDER-02': 'blocked by AUTH-06', 'MENU-01': 'blocked by AUTH-06', 'REFUND-01': 'blocked by AUTH-06' } },
  { bug: 'key-in-query', breaks: { 'AUTH-07': 'fail' } },
  { bug: 'no-migration-headers', breaks: { 'AUTH-08': 'warn', 'AUTH-09': 'warn' } },
  { bug: 'accept-bad-signature', breaks: { 'AUTH-10': 'fail' } },
  { bug: 'accept-expired-token', breaks: { 'AUTH-11': 'fail' } },
  { bug: 'accept-wrong-audience', breaks: { 'AUTH-12': 'fail' } },
  { bug: 'no-external-id', breaks: { 'ORDER-01': 'fail' } },
  // One cause, one root: the rejected, Hub and Kiosk orders fail for the very reason ORDER-02 does.
  { bug: 'no-status-call', breaks: { 'ORDER-02': 'fail', 'ORDER-03': 'blocked by ORDER-02', 'ORDER-04': 'blocked by ORDER-03', 'ORDER-07': 'blocked by ORDER-02', 'ORDER-08': 'blocked by ORDER-02', 'REFUND-01': 'blocked by ORDER-02' } },
  { bug: 'refuse-resend', breaks: { 'ORDER-04': 'fail' } },
  { bug: 'new-external-id-on-resend', breaks: { 'ORDER-04': 'fail' } },
  { bug: 'no-idempotency', breaks: { 'ORDER-05': 'fail' } },
  { bug: 'slow-ack', breaks: { 'ORDER-06': 'warn' } },
  { bug: 'wrong-location', breaks: { 'ORDER-07': 'fail', 'ORDER-08': 'fail', 'MENU-08': 'fail', 'MENU-09': 'blocked by MENU-08', 'REFUND-04': 'fail', 'REFUND-05': 'fail' }, before: ['ORDER-02'] },
  // Only the Hub's second brand is wrong, in status calls, menus and refunds alike: no other brand's order may stand in.
  { bug: 'hub-first-brand', breaks: { 'ORDER-07': 'fail', 'MENU-08': 'fail', 'REFUND-04': 'fail' } },
  // Every dispatch must be taken: ORDER-01 shows the same refusal, and follows the item that met it first.
  { bug: 'refuse-kiosk', breaks: { 'ORDER-08': 'fail', 'ORDER-01': 'blocked by ORDER-08' } },
  { bug: 'float-prices', breaks: { 'MENU-03': 'fail', 'MENU-01': 'blocked by MENU-03', 'MENU-02': 'blocked by MENU-03' } },
  // Prices in major units that happen to be whole (10 for 10.00) are accepted: the item that sees the wrong price names the unit.
  { bug: 'retry-storm', with: ['float-prices'], breaks: { 'MENU-03': 'fail', 'MENU-08': 'blocked by MENU-03' } },
  { bug: 'menu-extra-fields', breaks: { 'MENU-04': 'fail' }, before: ['MENU-01'] },
  { bug: 'no-reference-check', breaks: { 'MENU-05': 'fail' } },
  { bug: 'retry-storm', breaks: { 'MENU-06': 'fail', 'REFUND-02': 'fail', 'REFUND-03': 'fail' } },
  // The refund that met the outage is never sent again: REFUND-03 sees no loop, REFUND-06 sees the refund lost.
  { bug: 'no-retry-after-5xx', breaks: { 'REFUND-06': 'warn' } },
  // One cause, one root: every update refused for form B's field in form A is MENU-01's, and MENU-07 names it.
  { bug: 'service-in-form-a', breaks: { 'MENU-01': 'fail', 'MENU-02': 'blocked by MENU-01', 'MENU-07': 'blocked by MENU-01', 'MENU-08': 'blocked by MENU-01', 'MENU-09': 'blocked by MENU-01' } },
  { bug: 'full-menu-updates', breaks: { 'MENU-07': 'warn' } },
  // The standard menu's updates are partial; the Hub brands' and the Kiosk's are whole: MENU-07 reads them all.
  { bug: 'whole-small-menus', breaks: { 'MENU-07': 'warn' }, before: ['MENU-08', 'MENU-09'] },
  // One cause, one root: the Hub's and the Kiosk's refunds name the OrderId too, and no Hub hint is given.
  { bug: 'refund-by-order-id', breaks: { 'REFUND-01': 'fail', 'REFUND-04': 'blocked by REFUND-01', 'REFUND-05': 'blocked by REFUND-01' } },
  { bug: 'refund-no-location', breaks: { 'REFUND-01': 'fail', 'REFUND-04': 'blocked by REFUND-01', 'REFUND-05': 'blocked by REFUND-01' } },
  // v1's habits (§9). v1's location header in place of v2's: every call refused, each kind of call its own root.
  { bug: 'company-profile-header', breaks: { 'ORDER-02': 'fail', 'MENU-01': 'fail', 'REFUND-01': 'fail' } },
  // v1's field in every body: menu updates refused for it (MENU-04's rule), status calls and refunds taken with a finding.
  { bug: 'company-profile-field', breaks: { 'MENU-04': 'fail', 'MENU-01': 'blocked by MENU-04', 'MIGRATION-01': 'warn' }, before: ['ORDER-02'] },
  // The retired endpoint is refused before any fault rule: MENU-06 cannot be judged, and follows MENU-01's refusal.
  { bug: 'v1-menu-endpoint', breaks: { 'MENU-01': 'fail', 'MENU-02': 'blocked by MENU-01', 'MENU-06': 'blocked by MENU-01' } },
  // The decision sent to v1's UpdateOrderState (410) is quoted as the status call it meant.
  { bug: 'update-order-state', breaks: { 'ORDER-02': 'fail', 'ORDER-03': 'blocked by ORDER-02' } },
  { bug: 'update-order-state-action', breaks: { 'MIGRATION-01': 'warn' }, before: ['ORDER-02'] },
  { bug: 'waits-for-refund-result', breaks: { 'MIGRATION-01': 'warn' }, before: ['REFUND-01'] },
];

/** `exp-in-ms`, or `retry-storm+float-prices` for a case with more than one bug. */
export const caseName = (bugCase: BugCase): string => [bugCase.bug, ...(bugCase.with ?? [])].join('+');
