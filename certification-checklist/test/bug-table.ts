/** Every checklist item with the reference POS --bug that makes it fail (or warn), and the items run with it. */
import type { Bug } from '../../reference-pos/bugs.js';

export interface BugCase {
  bug: Bug;
  /** The items the bug must break, and what they must say. */
  breaks: Record<string, 'fail' | 'warn'>;
  /** Items run first so the bug has something to act on (wrong-location pins the first location the POS sees). */
  before?: string[];
}

export const BUG_CASES: BugCase[] = [
  { bug: 'wrong-key', breaks: { 'AUTH-01': 'fail' } },
  { bug: 'wrong-token-audience', breaks: { 'AUTH-02': 'fail' } },
  { bug: 'wrong-issuer', breaks: { 'AUTH-03': 'fail' } },
  { bug: 'sub-not-location', breaks: { 'AUTH-04': 'fail' } },
  // Two tokens minted in one second for one location are the same token: calls for two locations make two.
  { bug: 'reuse-jti', breaks: { 'AUTH-05': 'fail' }, before: ['MENU-08'] },
  { bug: 'long-lived-tokens', breaks: { 'AUTH-06': 'warn' } },
  { bug: 'key-in-query', breaks: { 'AUTH-07': 'fail' } },
  { bug: 'no-migration-headers', breaks: { 'AUTH-08': 'warn', 'AUTH-09': 'warn' } },
  { bug: 'accept-bad-signature', breaks: { 'AUTH-10': 'fail' } },
  { bug: 'accept-expired-token', breaks: { 'AUTH-11': 'fail' } },
  { bug: 'accept-wrong-audience', breaks: { 'AUTH-12': 'fail' } },
  { bug: 'no-external-id', breaks: { 'ORDER-01': 'fail' } },
  { bug: 'no-status-call', breaks: { 'ORDER-02': 'fail', 'ORDER-03': 'fail' } },
  { bug: 'refuse-resend', breaks: { 'ORDER-04': 'fail' } },
  { bug: 'no-idempotency', breaks: { 'ORDER-05': 'fail' } },
  { bug: 'slow-ack', breaks: { 'ORDER-06': 'warn' } },
  { bug: 'wrong-location', breaks: { 'ORDER-07': 'fail', 'ORDER-08': 'fail', 'MENU-08': 'fail', 'MENU-09': 'fail', 'REFUND-04': 'fail', 'REFUND-05': 'fail' }, before: ['ORDER-02'] },
  { bug: 'refuse-kiosk', breaks: { 'ORDER-08': 'fail' } },
  { bug: 'float-prices', breaks: { 'MENU-01': 'fail', 'MENU-02': 'fail', 'MENU-03': 'fail' } },
  { bug: 'menu-extra-fields', breaks: { 'MENU-04': 'fail' }, before: ['MENU-01'] },
  { bug: 'no-reference-check', breaks: { 'MENU-05': 'fail' } },
  { bug: 'retry-storm', breaks: { 'MENU-06': 'fail', 'REFUND-02': 'fail', 'REFUND-03': 'fail' } },
  { bug: 'full-menu-updates', breaks: { 'MENU-07': 'warn' } },
  { bug: 'refund-by-order-id', breaks: { 'REFUND-01': 'fail' } },
];
