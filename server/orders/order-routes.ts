/**
 * /_sandbox/orders: list (paged) and read orders, create one from a template and deliver it to the POS,
 * resend a REJECTED or DELIVERY_FAILED one. `?wait=true` answers once the delivery has settled.
 */
import { Router, type Request } from 'express';
import { ApiError } from '../errors.js';
import { checkNewOrderBody } from './new-order-request.js';
import { orderSchema } from './order-schema.js';
import { ORDER_STATUSES } from './order-states.js';
import { readJsonBody } from '../http/json-body.js';
import { egressProblem } from '../hosted/egress-fetch.js';
import { allowedOrigins } from '../hosted/egress-policy.js';
import type { ControlDeps } from '../control/control-router.js';
import type { OrderRecord } from './order-record.js';
import { checkQuery, pageLimit, unknownCursor } from '../control/control-query.js';
import { pageAfter, RECORD_PAGE } from '../control/paging.js';
import { sendPage } from '../control/page-response.js';

export function orderRoutes(deps: ControlDeps): Router {
  const router = Router();
  const { store, orders, fixtures } = deps;

  // Oldest first, a page at a time, like the refunds.
  router.get('/orders', (req, res) => {
    const { location, status, template, limit, after } = checkQuery(req.query, ['location', 'status', 'template', 'limit', 'after']);
    if (status !== undefined && !(ORDER_STATUSES as readonly string[]).includes(status)) {
      throw new ApiError('INVALID_REQUEST', `status must be one of ${ORDER_STATUSES.join(', ')}, got '${status}'`);
    }
    const keep = (o: OrderRecord) =>
      (location === undefined || o.LocationId === location) && (status === undefined || o.Status === status) && (template === undefined || o.Template === template);
    const page = pageAfter(store.orders.all(), (o) => o.OrderId, keep, pageLimit(limit, RECORD_PAGE), after);
    if (!page) throw unknownCursor('orders', after!);
    sendPage(req, res, page, 'after');
  });

  router.get('/orders/:id', (req, res) => {
    const order = orders.get(req.params.id);
    if (!order) throw new ApiError('NOT_FOUND', `no order '${req.params.id}'; GET /_sandbox/orders lists them`);
    res.json(order);
  });

  router.post('/orders', readJsonBody, async (req, res) => {
    const wait = waitFlag(req);
    const body = res.locals.body;
    if (!body?.ok) throw new ApiError('INVALID_REQUEST', body?.problem ?? 'body is missing');
    const check = checkNewOrderBody(body.value, fixtures, orderSchema().validate);
    if (!check.ok) throw new ApiError('INVALID_REQUEST', check.problems);
    // Refused before the order exists: nothing is stored, nothing is sent.
    const refused = check.request.posOrderUrl === undefined ? undefined : await egressProblem(deps.egress, check.request.posOrderUrl, 'posOrderUrl');
    if (refused !== undefined) throw new ApiError('INVALID_REQUEST', refused);
    // A partner of a hosted sandbox can neither start the sandbox with a URL nor name one the operator did not allow.
    if (check.request.posOrderUrl === undefined && orders.defaultPosOrderUrl === undefined && deps.egress.kind !== 'open') {
      throw new ApiError('INVALID_REQUEST', `no POS order URL for partner '${deps.egress.partner}': give posOrderUrl in this body, at an origin the operator allowed for you (${allowedOrigins(deps.egress)}), or ask the operator to set your posOrderUrl in the partners file`);
    }
    const created = await orders.create(check.request);
    const { dispatched, delivered } = await orders.dispatch(created.OrderId, 'dispatch');
    res.location(`/_sandbox/orders/${created.OrderId}`);
    if (wait) res.status(201).json(await delivered);
    else res.status(202).json(dispatched);
  });

  router.post('/orders/:id/resend', async (req, res) => {
    const wait = waitFlag(req);
    const { dispatched, delivered } = await orders.dispatch(req.params.id, 'resend');
    if (wait) res.json(await delivered);
    else res.status(202).json(dispatched);
  });

  return router;
}

function waitFlag(req: Request): boolean {
  const { wait } = checkQuery(req.query, ['wait']);
  if (wait !== undefined && wait !== 'true' && wait !== 'false') throw new ApiError('INVALID_REQUEST', `wait must be true or false, got '${wait}'`);
  return wait === 'true';
}
