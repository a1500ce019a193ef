/** Pure: does a fault rule's `match` fit a request? Paths match whatever the mount. */
import { routePathOf, withoutTrailingSlashes } from '../http/route.js';
import type { FaultMatch } from './fault-rule-types.js';

/** What a rule is matched against: an inbound call before its token is checked, or one outbound delivery try. */
export interface FaultRequest {
  direction: 'inbound' | 'outbound';
  method: string;
  path: string;
  locationId?: string;
  /** Inbound: the iss of the token, read without checking it. */
  partner?: string;
  /** Outbound: the OrderId of the order delivered. */
  orderId?: string;
}

export function matchFault(match: FaultMatch | undefined, request: FaultRequest): boolean {
  const rule = match ?? {};
  if ((rule.direction ?? 'inbound') !== request.direction) return false;
  if (rule.method !== undefined && rule.method.toUpperCase() !== request.method.toUpperCase()) return false;
  if (rule.locationId !== undefined && rule.locationId !== request.locationId) return false;
  if (rule.partner !== undefined && rule.partner !== request.partner) return false;
  if (rule.orderId !== undefined && rule.orderId !== request.orderId) return false;
  if (rule.path !== undefined && !wildcardMatch(comparablePath(rule.path, request.direction), comparablePath(request.path, request.direction))) return false;
  return true;
}

/** Inbound paths lose their mount (`/v2/order/refund` → `/order/refund`); both lose case and a trailing slash, as Express routes do. */
function comparablePath(path: string, direction: FaultRequest['direction']): string {
  return direction === 'inbound' ? routePathOf(path) : withoutTrailingSlashes(path).toLowerCase() || '/';
}

/** A greedy match that goes back only to the last `*`, linear in practice: a regular expression of `.*` pieces backtracks exponentially on the client's path. */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}
