/** POST /order/refund (§4.1): validates what rule 1 names, and nothing more. */
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import { unknownFieldFindings } from '../domain/findings.js';
import { checkRefundBody } from '../domain/refund-request.js';
import { addFindings, enforceStrict, setFindingsHeader } from '../pipeline/findings.js';
import { LOCATION_REQUIRED } from '../pipeline/location.js';

export function refundHandler(options: { strict: boolean }): RequestHandler {
  return (_req, res) => {
    const problems: string[] = res.locals.locationId === undefined ? [LOCATION_REQUIRED] : [];
    const body = res.locals.body;
    const check = body?.ok ? checkRefundBody(body.value) : { ok: false as const, problems: [body?.problem ?? 'body is missing'] };
    if (!check.ok) problems.push(...check.problems);
    if (problems.length > 0 || !check.ok) throw new ApiError('INVALID_PAYLOAD', problems);

    addFindings(res, unknownFieldFindings(check.unknownFields, 'a refund request (§2.1)'));
    enforceStrict(res, options.strict);
    setFindingsHeader(res);
    // §4.1: the refund is accepted for processing; success is 200 with no body.
    res.status(200).end();
  };
}
