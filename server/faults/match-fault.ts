/** Pure: does a fault rule's `match` fit a request? Paths match whatever the mount (SANDBOX-SPEC §7). */
import { routePathOf } from '../api/pos-routes.js';
import type { FaultMatch } from './fault-rule-types.js';

/** What a rule is matched against: an inbound call before its token is checked, or one outbound delivery try. */
export interface FaultRequest {
  direction: 'inbound' | 'outbound';
  method: string;
  path: string;
  locationId?: string;
  /** Inbound: the iss of the token, read without checking it. */
  partner?: string;
}

export function matchFault(match: FaultMatch | undefined, request: FaultRequest): boolean {
  const rule = match ?? {};
  if ((rule.direction ?? 'inbound') !== request.direction) return false;
  if (rule.method !== undefined && rule.method.toUpperCase() !== request.method.toUpperCase()) return false;
  if (rule.locationId !== undefined && rule.locationId !== request.locationId) return false;
  if (rule.partner !== undefined && rule.partner !== request.partner) return false;
  if (rule.path !== undefined && !pathPattern(rule.path, request.direction).test(comparablePath(request.path, request.direction))) return false;
  return true;
}

/** Inbound paths lose their mount (`/v2/order/refund` → `/order/refund`); both lose case and a trailing slash, as Express routes do. */
function comparablePath(path: string, direction: FaultRequest['direction']): string {
  return direction === 'inbound' ? routePathOf(path) : path.replace(/\/+$/, '').toLowerCase() || '/';
}

function pathPattern(path: string, direction: FaultRequest['direction']): RegExp {
  const parts = comparablePath(path, direction).split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`);
}
