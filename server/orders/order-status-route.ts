/** POST /order/status (§4.3): the POS accepts or rejects an order AWAITING_STATUS. Lowercase envelope. */
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import { unknownFieldFindings } from '../http/findings.js';
import { checkOrderStatusBody } from './order-status-request.js';
import type { OrderDesk } from './order-desk.js';
import { requireOrderCall } from '../http/order-call.js';
import { addFindings, enforceStrict, setFindingsHeader } from '../http/findings-header.js';

export function orderStatusHandler(options: { strict: boolean; orders: OrderDesk }): RequestHandler {
  return async (_req, res) => {
    const { locationId, request, unknownFields } = requireOrderCall(res, checkOrderStatusBody);
    // Before the order is looked up: a status call refused for its ExternalId still shows its v1 habits.
    addFindings(res, unknownFieldFindings(unknownFields, 'an order status request', res.locals.body?.ok ? res.locals.body.value : undefined));

    const externalId = request.ExternalId;
    const { order, elsewhere, delivering, ambiguous } = await options.orders.lookupForCall(externalId, locationId);
    if (ambiguous) {
      throw new ApiError(
        'INVALID_STATE',
        `ExternalId '${externalId}' names ${ambiguous.length} orders at location '${locationId}' (${ambiguous.map((o) => `${o.OrderId}, ${o.Status}`).join('; ')}), and ${ambiguous.some((o) => o.Status === 'AWAITING_STATUS') ? 'more than one awaits a status' : 'none awaits a status'}: the call cannot name one. Give each order an ExternalId of its own (one given again after a POS restart matches an earlier order), or start the sandbox afresh (pos-sandbox reset)`,
      );
    }
    if (!order) {
      // Every call about an order uses its own location; for a Hub the finding names the brand mix-up.
      addFindings(res, options.orders.brandFindings(externalId, locationId, 'POST /order/status'));
      res.locals.orderId = elsewhere?.OrderId;
      throw new ApiError(
        'INVALID_PAYLOAD',
        elsewhere
          ? `ExternalId '${externalId}' is order ${elsewhere.OrderId} of location '${elsewhere.LocationId}', not of '${locationId}'; send the status with x-service-locationid: ${elsewhere.LocationId}`
          : `no order with ExternalId '${externalId}' at location '${locationId}'; ExternalId is the id the POS returned when the order was delivered` +
              (delivering
                ? `. The sandbox has not read the reply to ${delivering.map((id) => `order ${id}`).join(', ')} yet (still being delivered), so it cannot know that ExternalId: send the status again once the delivery settles`
                : ''),
      );
    }
    res.locals.orderId = order.OrderId;
    enforceStrict(res, options.strict);

    const moved = await options.orders.applyPosStatus(order, request, res.locals.journalId ?? '');
    setFindingsHeader(res);
    res.set('x-sandbox-order-id', moved.OrderId);
    res.set('x-sandbox-order-status', moved.Status);
    res.status(200).end();
  };
}
