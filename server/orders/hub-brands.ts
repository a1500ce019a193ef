/** Pure: Hub brand locations: one POS serves several brands, and each order keeps its own brand's location. */
import type { Location } from '../fixtures/fixture-schemas.js';
import { finding, type Finding } from '../http/findings.js';

/** True when both ids are brand locations of one Hub (and not the same location). */
export function sameHubBrands(locations: readonly Location[], a: string, b: string): boolean {
  if (a === b) return false;
  const hubOf = (id: string) => locations.find((location) => location.id === id)?.hub?.id;
  const hub = hubOf(a);
  return hub !== undefined && hub === hubOf(b);
}

/** The finding for a call about a Hub order made with another brand's location. */
export function wrongBrandFinding(order: { OrderId: string; LocationId: string }, usedLocation: string, call: string): Finding {
  return finding(
    'WRONG_BRAND_LOCATION',
    `${call} for order ${order.OrderId} used location '${usedLocation}', but the order is for the Hub brand location '${order.LocationId}'; use the order's own LocationId in every call about it`,
  );
}
