/** Where the POS → service API lives: the three mounts (POS_MOUNTS below) and the routes under each. */
import type { EnvelopeFamily } from './errors.js';

/** `/` for the base URL, `/v2` for the §9 example form, `/v1/pos/openapi` for the §4.3 migration paths. */
export const POS_MOUNTS = ['/', '/v2', '/v1/pos/openapi'] as const;

/** The retired v1 family (§4.3), answered with 410 and the v2 path to use. */
export const LEGACY_MOUNT = '/v1/pos/integration';

export interface PosRoute {
  method: 'POST' | 'PUT';
  path: string;
  family: EnvelopeFamily;
}

export const POS_ROUTES: PosRoute[] = [
  { method: 'POST', path: '/order/refund', family: 'order' },
  { method: 'PUT', path: '/menu', family: 'menu' },
  { method: 'POST', path: '/order/status', family: 'order' },
];

export { withoutTrailingSlashes } from './http/trailing-slashes.js';
import { withoutTrailingSlashes } from './http/trailing-slashes.js';

/** Strips a mount prefix: `/v2/order/refund` → `/order/refund`; trailing slashes and case ignored as Express does. */
export function routePathOf(path: string): string {
  const normalized = withoutTrailingSlashes(path).toLowerCase() || '/';
  for (const mount of POS_MOUNTS) {
    if (mount !== '/' && normalized.startsWith(`${mount.toLowerCase()}/`)) return normalized.slice(mount.length);
  }
  return normalized;
}

/** The methods a known path answers to; empty when the path is unknown. */
export function allowedMethods(path: string): string[] {
  const routePath = routePathOf(path);
  return POS_ROUTES.filter((route) => route.path === routePath).map((route) => route.method);
}
