/* Generated from server/faults/fault-rule.schema.json by `npm run generate:types`; do not edit by hand. */

/**
 * One scripted fault (docs/faults.md): which requests it matches, what it does to them, and how often. The same shape for POST /_sandbox/faults and for the --faults file (a list of these).
 */
export interface FaultRule {
  /**
   * A name for the rule; default fault-<n>. The journal names the rule that fired by it.
   */
  id?: string;
  /**
   * What the rule is for, shown by GET /_sandbox/faults.
   */
  description?: string;
  match?: FaultMatch;
  action: FaultAction;
  /**
   * Fire this many times, then expire. Default: no limit.
   */
  times?: number;
  /**
   * Let this many matching requests through first. Default 0.
   */
  after?: number;
  /**
   * Fire on every n-th matching request (after the `after` ones): every 10 → the 10th, 20th, 30th …
   */
  every?: number;
  /**
   * Fire on a matching request with this chance (0 < p ≤ 1). Default 1.
   */
  probability?: number;
}
/**
 * Every field given must fit; an empty match fits every request of its direction.
 */
export interface FaultMatch {
  /**
   * inbound: the POS calls the sandbox; outbound: the sandbox delivers an order to the POS. Default inbound.
   */
  direction?: 'inbound' | 'outbound';
  method?: string;
  /**
   * /order/refund also matches /v2/order/refund and /v1/pos/openapi/order/refund; * matches any characters.
   */
  path?: string;
  /**
   * The x-service-locationid of the call, or the LocationId of the order.
   */
  locationId?: string;
  /**
   * The POS name: the iss of the call's token (read before it is checked).
   */
  partner?: string;
  /**
   * Outbound: the OrderId of the order delivered, so that a rule spoils the tries of one order and no other.
   */
  orderId?: string;
}
export interface FaultAction {
  kind:
    | 'status'
    | 'delay'
    | 'drop'
    | 'hang'
    | 'malformed'
    | 'rate-limit'
    | 'bad-signature'
    | 'expired-token'
    | 'wrong-audience'
    | 'duplicate';
  /**
   * status: the status to answer (400–599); malformed: the status of the broken body (default 500).
   */
  status?: number;
  /**
   * status: the body to answer instead of the endpoint's error envelope; a string is sent as it is (as text/plain unless contentType says otherwise), any other JSON value as application/json.
   */
  body?: unknown;
  /**
   * status, with a body: the Content-Type it is sent with (text/html; charset=utf-8, say). Every injected answer also carries X-Content-Type-Options: nosniff and a Content-Security-Policy that runs nothing.
   */
  contentType?: string;
  /**
   * delay: how long to hold the request, in milliseconds.
   */
  ms?: number;
  /**
   * rate-limit: the Retry-After seconds (default 1).
   */
  retryAfter?: number;
}
