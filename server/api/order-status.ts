/** POST /order/status (§4.3, SANDBOX-SPEC §5): the POS accepts or rejects an order AWAITING_STATUS. Lowercase envelope. */
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import { unknownFieldFindings } from '../domain/findings.js';
import { LOCATION_REQUIRED } from '../domain/location-header.js';
import { checkOrderStatusBody } from '../domain/order-status-request.js';
import type { OrderDesk } from '../processing/order-desk.js';
import { addFindings, enforceStrict, setFindingsHeader } from '../pipeline/findings.js';

export function orderStatusHandler(options: { strict: boolean; orders: OrderDesk }): RequestHandler {
  return async (_req, res) => {
    const locationId = res.locals.locationId;
    const problems: string[] = locationId === undefined ? [LOCATION_REQUIRED] : [];
    const body = res.locals.body;
    const check = body?.ok ? checkOrderStatusBody(body.value) : { ok: false as const, problems: [body?.problem ?? 'body is missing'] };
    if (!check.ok) problems.push(...check.problems);
    if (locationId === undefined || !check.ok) throw new ApiError('INVALID_PAYLOAD', problems);

    const externalId = check.request.ExternalId;
    const { order, elsewhere } = await options.orders.lookupForCall(externalId, locationId);
    if (!order) {
      // SANDBOX-SPEC §5: every call about an order uses its own location; for a Hub the finding names the brand mix-up.
      addFindings(res, options.orders.brandFindings(externalId, locationId, 'POST /order/status'));
      res.locals.orderId = elsewhere?.OrderId;
      throw new ApiError(
        'INVALID_PAYLOAD',
        elsewhere
          ? `ExternalId '${externalId}' is order ${elsewhere.OrderId} of location '${elsewhere.LocationId}', not of '${locationId}'; send the status with x-service-locationid: ${elsewhere.LocationId}`
          : `no order with ExternalId '${externalId}' at location '${locationId}'; ExternalId is the id the POS returned when the order was delivered`,
      );
    }
    res.locals.orderId = order.OrderId;
    addFindings(res, unknownFieldFindings(check.unknownFields, 'an order status request (SANDBOX-SPEC §5)'));
    enforceStrict(res, options.strict);

    const moved = await options.orders.applyPosStatus(order, check.request, res.locals.journalId ?? '');
    setFindingsHeader(res);
    res.set('x-sandbox-order-id', moved.OrderId);
    res.set('x-sandbox-order-status', moved.Status);
    res.status(200).end();
  };
}
