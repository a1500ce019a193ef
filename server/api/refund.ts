/** POST /order/refund (§4.1): validates what rule 1 names, records the refund PENDING, answers 200. */
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import { finding, unknownFieldFindings } from '../domain/findings.js';
import { checkRefundBody } from '../domain/refund-request.js';
import type { RefundProcessor } from '../processing/refund-processor.js';
import type { OrderDesk } from '../processing/order-desk.js';
import { addFindings, enforceStrict, setFindingsHeader } from '../pipeline/findings.js';
import { LOCATION_REQUIRED } from '../domain/location-header.js';

export function refundHandler(options: { strict: boolean; refunds: RefundProcessor; orders: OrderDesk; posName: string }): RequestHandler {
  return async (_req, res) => {
    const locationId = res.locals.locationId;
    const problems: string[] = locationId === undefined ? [LOCATION_REQUIRED] : [];
    const body = res.locals.body;
    const check = body?.ok ? checkRefundBody(body.value) : { ok: false as const, problems: [body?.problem ?? 'body is missing'] };
    if (!check.ok) problems.push(...check.problems);
    if (locationId === undefined || !check.ok) throw new ApiError('INVALID_PAYLOAD', problems);

    const externalId = check.request.ExternalId;
    const earlier = options.refunds.latestRefund(externalId, locationId);
    if (earlier) {
      const message = `a refund of ExternalId '${externalId}' at '${locationId}' was already requested (${earlier.id}, ${earlier.status}); send one refund per order`;
      addFindings(res, [finding('DUPLICATE_REFUND', message)]);
    }
    addFindings(res, options.orders.brandFindings(externalId, locationId, 'POST /order/refund'));
    addFindings(res, unknownFieldFindings(check.unknownFields, 'a refund request (§2.1)'));
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
