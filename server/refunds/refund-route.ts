/** POST /order/refund (§4.1): validates what rule 1 names, records the refund PENDING, answers 200. */
import type { RequestHandler } from 'express';
import { finding, unknownFieldFindings } from '../http/findings.js';
import { checkRefundBody } from './refund-request.js';
import type { RefundProcessor } from './refund-processor.js';
import type { OrderDesk } from '../orders/order-desk.js';
import { requireOrderCall } from '../http/order-call.js';
import { addFindings, enforceStrict, setFindingsHeader } from '../http/findings-header.js';

export function refundHandler(options: { strict: boolean; refunds: RefundProcessor; orders: OrderDesk; posName: string }): RequestHandler {
  return async (_req, res) => {
    const { locationId, request, unknownFields } = requireOrderCall(res, checkRefundBody);

    const externalId = request.ExternalId;
    const earlier = options.refunds.latestRefund(externalId, locationId);
    if (earlier) {
      const message = `a refund of ExternalId '${externalId}' at '${locationId}' was already requested (${earlier.id}, ${earlier.status}); send one refund per order`;
      addFindings(res, [finding('DUPLICATE_REFUND', message)]);
    }
    addFindings(res, options.orders.brandFindings(externalId, locationId, 'POST /order/refund'));
    addFindings(res, unknownFieldFindings(unknownFields, 'a refund request (§2.1)', res.locals.body?.ok ? res.locals.body.value : undefined));
    enforceStrict(res, options.strict);

    const refund = await options.refunds.accept({
      externalId,
      locationId,
      partner: options.posName,
      requestId: res.locals.requestId,
      journalId: res.locals.journalId ?? '',
    });
    setFindingsHeader(res);
    res.set('x-sandbox-refund-id', refund.id);
    // §4.1: the refund is accepted for processing; success is 200 with no body.
    res.status(200).end();
  };
}
