/** POST /order/refund (§4.1), the refunds the POS asked for, and their OpenAPI parts. */
import { finding, unknownFieldFindings, addFindings, enforceStrict, setFindingsHeader } from '../http/findings.js';
import { requireOrderCall } from '../http/pos-call.js';
import type { ControlRoute, PosRoute } from '../http/route.js';
import { checkQuery, pageAfter, pageLimit, RECORD_PAGE, sendPage, unknownCursor } from '../control/control-query.js';
import { controlResponses, ref, pagedOk, pageParameters } from '../openapi/openapi-parts.js';
import type { OrderDesk } from '../orders/order-desk.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import type { RefundProcessor } from './refund-processor.js';
import { checkRefundBody, REFUND_STATUSES, type RefundView } from './refund-rules.js';

interface RefundDeps {
  strict: boolean;
  refunds: RefundProcessor;
  orders: OrderDesk;
  partner: { name: string };
}

export const refundRoute: PosRoute<RefundDeps> = {
  method: 'POST',
  path: '/order/refund',
  api: 'pos',
  family: 'order',
  handle: ({ strict, refunds, orders, partner }) =>
    async (_req, res) => {
      const { locationId, request, unknownFields } = requireOrderCall(res, checkRefundBody);
      const externalId = request.ExternalId;
      const earlier = refunds.latestRefund(externalId, locationId);
      if (earlier) {
        const message = `a refund of ExternalId '${externalId}' at '${locationId}' was already requested (${earlier.id}, ${earlier.status}); send one refund per order`;
        addFindings(res, [finding('DUPLICATE_REFUND', message)]);
      }
      addFindings(res, orders.brandFindings(externalId, locationId, 'POST /order/refund'));
      addFindings(res, unknownFieldFindings(unknownFields, 'a refund request (§2.1)', res.locals.body?.ok ? res.locals.body.value : undefined));
      enforceStrict(res, strict);
      const refund = await refunds.accept({ externalId, locationId, partner: partner.name, requestId: res.locals.requestId, journalId: res.locals.journalId ?? '' });
      setFindingsHeader(res);
      res.set('x-sandbox-refund-id', refund.id);
      // §4.1: the refund is accepted for processing; success is 200 with no body.
      res.status(200).end();
    },
  doc: {
    name: 'refund',
    summary: 'Request a refund (§4.1)',
    description:
      'The POS asks the service to refund an order it created (§4.1). The sandbox checks only what §4.1 rule 1 names: the token (§5), the location header and a non-blank ExternalId; ' +
      'it then accepts the refund for processing and decides it later (PROCESSED or FAILED, shown by GET /_sandbox/refunds), never telling the POS (§1: v2 is asynchronous).',
    body: ref('RefundRequest'),
    ok: 'Accepted for processing; no body. The refund is decided later (GET /_sandbox/refunds).',
    okHeader: ['x-sandbox-refund-id', { schema: { type: 'string' } }],
    invalid: 'INVALID_PAYLOAD: the location header, the body or ExternalId (§4.1, §7), every problem listed',
    envelope: 'OrderErrorEnvelope',
  },
};

export const refundsRoute: ControlRoute<{ store: SandboxStore }> = {
  method: 'GET',
  path: '/_sandbox/refunds',
  api: 'control',
  // Newest first, a page at a time: a whole list of 100,000 refunds held every POS call back while it was written.
  handle: ({ store }) =>
    (req, res) => {
      const { location, status, externalId, limit, after } = checkQuery(req.query, ['location', 'status', 'externalId', 'limit', 'after']);
      const keep = (r: RefundView) =>
        (location === undefined || r.locationId === location) && (status === undefined || r.status === status) && (externalId === undefined || r.externalId === externalId);
      // Filtered on the views, and only the page's refunds read whole: a refund read at start is kept as its line.
      const page = pageAfter(store.refunds.views().reverse(), (r) => r.id, keep, pageLimit(limit, RECORD_PAGE), after);
      if (!page) throw unknownCursor('refunds', after!);
      sendPage(req, res, { ...page, items: page.items.map((view) => store.refunds.get(view.id)!) }, 'after');
    },
  doc: {
    operationId: 'refunds',
    summary: 'Refunds, newest first, a page at a time',
    description: 'The refunds the POS requested (§4.1), each PENDING, then PROCESSED or FAILED with a reason: what the POS is never told (§1).',
    parameters: [...['location', 'status', 'externalId'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })), ...pageParameters()],
    responses: controlResponses(
      { '200': pagedOk('Refunds', { type: 'array', items: ref('Refund') }) },
      { invalid: 'an unknown query parameter, a bad limit, or an after that names no refund' },
    ),
    examples: { status: 'PROCESSED', after: 'rf-791c1aa6-9a27-495d-a82e-3b4fea8fbfc0' },
  },
};

export const refundSchemas = {
  RefundRequest: {
    type: 'object',
    required: ['ExternalId'],
    // pattern: the sandbox refuses an ExternalId of white space only, and the document says so.
    properties: { ExternalId: { type: 'string', minLength: 1, maxLength: 256, pattern: '\\S', description: 'The ID the POS returned for the order (§2.1); not blank.' } },
  },
  Refund: {
    type: 'object',
    required: ['id', 'externalId', 'locationId', 'status', 'acceptedAt', 'dueAt'],
    properties: {
      id: { type: 'string' },
      externalId: { type: 'string' },
      locationId: { type: 'string' },
      status: { enum: [...REFUND_STATUSES] },
      reason: { enum: ['UNKNOWN_LOCATION', 'ORDER_NOT_FOUND', 'ORDER_NOT_ACCEPTED', 'ALREADY_REFUNDED'] },
      detail: { type: 'string' },
      requestId: { type: 'string' },
      journalId: { type: 'string' },
      acceptedAt: { type: 'string', format: 'date-time' },
      dueAt: { type: 'string', format: 'date-time' },
      processedAt: { type: 'string', format: 'date-time' },
    },
  },
};
