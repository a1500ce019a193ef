import { ORDER_SHAPE_BUGS } from './order-shape-bugs.js';

/** Each --bug makes at least one checklist item fail or warn, proving the item tells a broken POS from a correct one. */
export const BUGS = {
  'wrong-key': 'tokens it sends to the sandbox are signed with another key, not the partner’s non-prod key',
  'wrong-token-audience': 'tokens it sends carry aud "io.service.pos.brokers" instead of io.service.pos.brokers.openapi',
  'wrong-issuer': 'tokens it sends carry iss "reference-pos" instead of the POS name',
  'sub-not-location': 'tokens it sends carry the POS name in sub instead of the location',
  'reuse-jti': 'every token it sends to the sandbox carries the same jti',
  'long-lived-tokens': 'tokens it sends are valid for 24 hours',
  'exp-in-ms': 'tokens it sends carry exp in milliseconds since the epoch, not seconds',
  'clock-fast': 'its clock is 150 s ahead: tokens it sends carry nbf and exp 150 s in the future, past the 60 s the sandbox allows',
  'key-in-query': 'calls to the sandbox also pass the key in the query string (?apiKey=…), a v1 habit',
  'no-migration-headers': 'calls to the sandbox carry neither x-api-key nor a version header',
  'company-profile-header': 'calls name their location in v1’s CompanyProfileId header instead of x-service-locationid (§9)',
  'company-profile-field': 'every body it sends also carries v1’s CompanyProfileId field with the location (§9)',
  'v1-menu-endpoint': 'menu updates go to v1’s PUT /v1/pos/integration/menu instead of /v2/menu (§4.3, §9)',
  'update-order-state': 'orders are decided with v1’s POST /v2/order/UpdateOrderState instead of /v2/order/status (§9)',
  'update-order-state-action': 'status calls also carry v1’s "Action": "UpdateOrderState" (§9)',
  'waits-for-refund-result': 'after each refund it asks GET /v2/order/refund/{ExternalId} for the result, as v1’s synchronous flow gave one (§9)',
  'accept-bad-signature': 'orders are accepted without checking the token signature',
  'accept-expired-token': 'orders are accepted with an expired token',
  'accept-wrong-audience': 'orders are accepted with a token addressed to another POS',
  'refund-by-order-id': 'refunds name the service’s OrderId instead of the ExternalId the POS gave the order',
  'refund-no-location': 'refunds are sent without the x-service-locationid header',
  'retry-storm': 'a refund or menu update the sandbox refuses is sent again at once, up to 10 times, whatever the error',
  'no-retry-after-5xx': 'a refund or menu update that meets a 5xx is never sent again: after an outage the refund is lost',
  'float-prices': 'menu updates carry prices in major units with decimals (12.5) instead of whole minor units',
  'menu-extra-fields': 'menu updates also send each item’s Description, a field other than price and name',
  'no-reference-check': 'menu updates are sent for item Ids the POS does not know, instead of being refused before sending',
  'full-menu-updates': 'every menu update lists the whole menu, even when one item changed',
  'service-in-form-a': 'form A menu updates name the service with form B’s field (Service: Pickup) instead of ServiceType',
  'whole-small-menus': 'a menu of 3 items or fewer (the Hub brands, the Kiosk) is sent whole in every update; larger menus partially',
  'no-idempotency': 'a second delivery of the same OrderId gets a new ExternalId',
  'refuse-resend': 'a resent order (same OrderId, new RequestId) is refused with 409 as a duplicate',
  'new-external-id-on-resend': 'a resent order (same OrderId, new RequestId) is taken as a new order with a new ExternalId; duplicates of one delivery keep theirs',
  'no-status-call': 'orders are answered with an ExternalId but the POS never sends their status',
  'wrong-location': 'every call to the sandbox uses the first location it ever saw, not the order’s own',
  'hub-first-brand': 'every call for a Hub brand location uses the Hub’s first brand location instead (its other locations are right)',
  'no-external-id': 'order replies carry no ExternalId',
  'slow-ack': 'order replies come after --slow-ack-ms (default 12 s, past the sandbox’s 10 s timeout)',
  'refuse-kiosk': 'kiosk orders are refused with 400 (the POS does not know the kiosk channel)',
  // Only some orders trigger these: the checklist's orders never do, `pos-sandbox stress` finds them.
  ...ORDER_SHAPE_BUGS,
} as const;

export type Bug = keyof typeof BUGS;

/** Parses `a,b` into known bugs; an unknown name throws with the list. */
export function parseBugs(list: string | undefined): Set<Bug> {
  const names = (list ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.filter((name) => !(name in BUGS));
  if (unknown.length > 0) {
    throw new Error(`unknown --bug ${unknown.map((name) => `'${name}'`).join(', ')}; the switches are ${Object.keys(BUGS).join(', ')}`);
  }
  return new Set(names as Bug[]);
}
