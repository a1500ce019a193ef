/** The service's side of the order conversation (§1, §3): create, deliver, take the POS's status, resend; each change stored before it is told. */
import { EventEmitter } from 'node:events';
import { ApiError } from '../errors.js';
import type { Location, OrderTemplate } from '../fixtures/fixture-schemas.js';
import { buildOrder } from './new-order.js';
import { finding, type Finding } from '../http/findings.js';
import { sameHubBrands, wrongBrandFinding, canMove, posStatusProblem, resendProblem, type OrderStatus } from './order-rules.js';
import type { NewOrderRequest } from './new-order.js';
import type { DeliveryAttempt, OrderRecord, StatusChange, OrderStatusRequest } from './order-rules.js';
import type { SandboxOrder } from './sandbox-order-types.js';
import type { SandboxStore } from '../store/sandbox-store.js';

/** How long a POS call that races its own reply waits for the delivery under way, unless told otherwise. */
export const DEFAULT_RACE_WAIT_MS = 2_000;

export interface OrderDeskDeps {
  store: SandboxStore;
  locations: readonly Location[];
  /** The order templates, keyed by name: an order of the fixtures is built from its template when first sent. */
  templates: Readonly<Record<string, OrderTemplate>>;
  clock: () => number;
  newId: () => string;
  /** --pos-order-url / SANDBOX_POS_ORDER_URL; an order may name its own. */
  posOrderUrl: string | undefined;
  /** Default DEFAULT_RACE_WAIT_MS; tests of a POS whose reply stays unread shorten it, so they do not wait 2 s each. */
  raceWaitMs?: number;
}

/** Delivers one dispatch of an order (up to its retries) and returns the order as it ended. */
export type Deliver = (orderId: string) => Promise<OrderRecord>;

export class OrderDesk extends EventEmitter<{ changed: [OrderRecord]; deliveryError: [string, Error] }> {
  private deliver: Deliver | undefined;
  /** Deliveries under way: a status call that races the POS's own reply waits for them. */
  private readonly inFlight = new Map<string, Promise<OrderRecord>>();

  constructor(private readonly deps: OrderDeskDeps) {
    super();
  }

  /** How many deliveries are under way. */
  get delivering(): number {
    return this.inFlight.size;
  }

  /** Resolves when no delivery is under way any more (shutdown, tests). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Set once by the dispatcher (it needs the desk to record what it does). */
  useDelivery(deliver: Deliver): void {
    this.deliver = deliver;
  }

  /** An order a stopped sandbox left NEW or DISPATCHED would wait for ever: it becomes DELIVERY_FAILED, to be resent. */
  async recoverInterrupted(): Promise<OrderRecord[]> {
    const stuck = this.deps.store.orders.all().filter((order) => order.Status === 'NEW' || order.Status === 'DISPATCHED');
    const recovered: OrderRecord[] = [];
    for (const order of stuck) {
      recovered.push(await this.move(order.OrderId, 'DELIVERY_FAILED', { by: 'delivery', reason: `the sandbox stopped while the order was ${order.Status}; resend it` }));
    }
    return recovered;
  }

  /** Removes orders for good (a checklist run's, past retention), but not one still on its way to the POS. */
  async forget(orderIds: readonly string[]): Promise<string[]> {
    const gone = orderIds.filter((id) => {
      const status = this.get(id)?.Status;
      return status !== undefined && status !== 'NEW' && status !== 'DISPATCHED' && !this.inFlight.has(id) && this.deps.store.orders.remove(id);
    });
    if (gone.length > 0) await this.deps.store.commit();
    return gone;
  }

  /** --pos-order-url / SANDBOX_POS_ORDER_URL: where an order that names no URL of its own goes. */
  get defaultPosOrderUrl(): string | undefined {
    return this.deps.posOrderUrl;
  }

  get(orderId: string): OrderRecord | undefined {
    return this.deps.store.orders.get(orderId);
  }

  /** Stores a NEW order built from its template; throws 409 when the chosen OrderId exists, 400 when there is nowhere to send it. */
  async create(request: NewOrderRequest): Promise<OrderRecord> {
    const url = request.posOrderUrl ?? this.deps.posOrderUrl;
    if (url === undefined) {
      throw new ApiError(
        'INVALID_REQUEST',
        'no POS order URL: start the sandbox with --pos-order-url URL (or SANDBOX_POS_ORDER_URL), or give posOrderUrl in this body',
      );
    }
    const orderId = request.orderId ?? `ord-${this.deps.newId()}`;
    if (this.get(orderId)) throw new ApiError('ALREADY_EXISTS', `order ${orderId} already exists; GET /_sandbox/orders/${orderId} shows it`);
    const at = this.now();
    const order: SandboxOrder =
      request.given === undefined
        ? buildOrder({ template: request.template, location: request.location, orderId, requestId: '', createdAt: at, options: request.options })
        : ({ OrderId: orderId, RequestId: '', CreatedAt: at, ...request.given } as SandboxOrder);
    const record: OrderRecord = {
      OrderId: orderId,
      LocationId: request.location.id,
      Template: request.template.Template,
      Status: 'NEW',
      CreatedAt: at,
      UpdatedAt: at,
      PosOrderUrl: url,
      ...(request.tries === undefined ? {} : { Tries: request.tries }),
      Order: order,
      Deliveries: [],
      History: [{ status: 'NEW', at, by: 'dispatch' }],
    };
    return this.save(record);
  }

  /** Starts a dispatch (the first, or a resend) and returns its promise; the order is DISPATCHED on disk when it resolves its first step. */
  async dispatch(orderId: string, by: 'dispatch' | 'resend'): Promise<{ dispatched: OrderRecord; delivered: Promise<OrderRecord> }> {
    const order = this.get(orderId);
    if (!order) throw new ApiError('NOT_FOUND', `no order '${orderId}'; GET /_sandbox/orders lists them`);
    // Its state is judged first (409 for one that cannot be resent), then where it would go.
    const stateProblem = by === 'resend' ? resendProblem(order) : undefined;
    if (stateProblem === undefined && order.PosOrderUrl === undefined && this.defaultPosOrderUrl === undefined) {
      throw new ApiError('INVALID_REQUEST', `order ${orderId} has no POS order URL to go to: start the sandbox with --pos-order-url URL (or SANDBOX_POS_ORDER_URL)`);
    }
    if (!this.deliver) throw new Error('OrderDesk has no delivery');
    // The dispatch's RequestId is chosen here, so the DISPATCHED record (what a 202 answers) already carries it.
    const requestId = `req-${this.deps.newId()}`;
    const fields = { Order: { ...(order.Order ?? this.payloadOfFixtureOrder(order)), RequestId: requestId } };
    const dispatched = await this.move(orderId, 'DISPATCHED', { by }, { problem: by === 'resend' ? resendProblem : undefined, fields });
    const delivered = this.deliver(orderId).finally(() => this.inFlight.delete(orderId));
    // Nobody may await a delivery started with 202: a failure (the store cannot write) is reported, never unhandled.
    delivered.catch((error: Error) => this.emit('deliveryError', orderId, error));
    this.inFlight.set(orderId, delivered);
    return { dispatched, delivered };
  }

  /** A fixture order holds no payload: it is built as POST /_sandbox/orders would have built it, or a resend would send {"RequestId"} alone. */
  private payloadOfFixtureOrder(order: OrderRecord): SandboxOrder {
    const template = Object.hasOwn(this.deps.templates, order.Template) ? this.deps.templates[order.Template] : undefined;
    const location = this.deps.locations.find((candidate) => candidate.id === order.LocationId);
    if (template === undefined || location === undefined) {
      const missing = template === undefined ? `template '${order.Template}'` : `location '${order.LocationId}'`;
      throw new ApiError('INVALID_STATE', `order ${order.OrderId} has no payload and its ${missing} is not in the fixtures, so there is nothing to send`);
    }
    return buildOrder({ template, location, orderId: order.OrderId, requestId: '', createdAt: order.CreatedAt });
  }

  /** The state is read again: a call that waited for a delivery may find the order decided since. */
  async applyPosStatus(order: OrderRecord, request: OrderStatusRequest, journalId: string): Promise<OrderRecord> {
    return this.move(order.OrderId, request.Status, { by: 'pos-status', reason: request.Reason, journalId }, { problem: (current) => posStatusProblem(current, request.Status) });
  }

  /** A call about a Hub order made from another brand's location draws a finding (the refund is judged later, as usual). */
  brandFindings(externalId: string, locationId: string, call: string): Finding[] {
    const orders = this.deps.store.orders.lookup(externalId);
    if (orders.some((o) => o.LocationId === locationId)) return [];
    const sibling = orders.find((o) => sameHubBrands(this.deps.locations, o.LocationId, locationId));
    return sibling ? [wrongBrandFinding(sibling, locationId, call)] : [];
  }

  /** The POS may call before its reply to the delivery is read, so an unknown ExternalId waits (2 s) for the deliveries under way. */
  async lookupForCall(externalId: string, locationId: string): Promise<{ order?: OrderRecord; elsewhere?: OrderRecord; delivering?: string[]; ambiguous?: OrderRecord[] }> {
    let candidates = this.deps.store.orders.lookup(externalId);
    // Unknown yet, being resent, or known only from orders that await no status here: the reply under way decides.
    const awaitsHere = candidates.some((o) => o.LocationId === locationId && o.Status === 'AWAITING_STATUS');
    const pending = awaitsHere ? candidates.flatMap((o) => this.inFlight.get(o.OrderId) ?? []) : [...this.inFlight.values()];
    if (pending.length > 0) {
      await Promise.race([Promise.allSettled(pending), new Promise((resolve) => setTimeout(resolve, this.deps.raceWaitMs ?? DEFAULT_RACE_WAIT_MS).unref())]);
      candidates = this.deps.store.orders.lookup(externalId);
    }
    const here = candidates.filter((o) => o.LocationId === locationId);
    // One ExternalId on several orders here (a POS restarted its numbering): the call is about the one that awaits a status.
    if (here.length > 1) {
      const awaiting = here.filter((o) => o.Status === 'AWAITING_STATUS');
      return awaiting.length === 1 ? { order: awaiting[0]! } : { ambiguous: here };
    }
    if (here[0]) return { order: here[0] };
    // Orders of this location whose reply is still unread (a slow POS, or a hang fault withholding it): the likely owners.
    const delivering = [...this.inFlight.keys()].filter((orderId) => this.get(orderId)?.LocationId === locationId);
    return { elsewhere: candidates[0], ...(delivering.length > 0 ? { delivering } : {}) };
  }

  /** What the sandbox notices about the ExternalId the POS answered this order with. */
  replyFindings(orderId: string, externalId: string): Finding[] {
    const order = this.get(orderId)!;
    const findings: Finding[] = [];
    if (order.ExternalId !== undefined && order.ExternalId !== externalId) {
      findings.push(
        finding(
          'EXTERNAL_ID_CHANGED',
          `order ${orderId} was answered with ExternalId '${externalId}' but with '${order.ExternalId}' before; the same OrderId must keep its ExternalId (idempotent delivery), or refunds name the wrong order`,
        ),
      );
    }
    const other = this.deps.store.orders.lookup(externalId).find((o) => o.OrderId !== orderId && o.LocationId === order.LocationId);
    if (other) {
      findings.push(finding('EXTERNAL_ID_REUSED', `ExternalId '${externalId}' was already given to order ${other.OrderId}; each order needs its own, or a refund cannot tell them apart`));
    }
    return findings;
  }

  /** Records a delivery's outcome: the ExternalId, the POS's decision if it gave one, or DELIVERY_FAILED. */
  async settleDelivery(
    orderId: string,
    outcome: { externalId?: string; status: OrderStatus; reason?: string; journalId?: string },
    findings: Finding[] = [],
  ): Promise<OrderRecord> {
    const by = outcome.status === 'DELIVERY_FAILED' ? 'delivery' : 'pos-reply';
    return this.move(orderId, outcome.status, { by, reason: outcome.reason, journalId: outcome.journalId }, {
      findings,
      ...(outcome.externalId === undefined ? {} : { fields: { ExternalId: outcome.externalId } }),
    });
  }

  /** Adds a delivery attempt, and the body it carried, to the order; on disk before it resolves. */
  async noteAttempt(orderId: string, attempt: DeliveryAttempt, sent: SandboxOrder): Promise<OrderRecord> {
    const current = this.get(orderId)!;
    return this.save({ ...current, Order: sent, Deliveries: [...(current.Deliveries ?? []), attempt] });
  }

  /** The one way an order changes state: read, check and put with no await between, so of two racing changes the second gets 409. */
  private async move(
    orderId: string,
    status: OrderStatus,
    change: Omit<StatusChange, 'status' | 'at'>,
    options: { problem?: (current: OrderRecord) => string | undefined; findings?: Finding[]; fields?: Partial<OrderRecord> } = {},
  ): Promise<OrderRecord> {
    const current = this.get(orderId);
    if (!current) throw new ApiError('NOT_FOUND', `no order '${orderId}'; GET /_sandbox/orders lists them`);
    const problem = options.problem ? options.problem(current) : canMove(current.Status, status) ? undefined : `order ${orderId} cannot move from ${current.Status} to ${status}`;
    if (problem) throw new ApiError('INVALID_STATE', problem);
    const at = this.now();
    const step: StatusChange = { status, at, ...change };
    if (step.reason === undefined) delete step.reason;
    const findings = options.findings ?? [];
    const moved: OrderRecord = {
      ...current,
      ...options.fields,
      Status: status,
      UpdatedAt: at,
      ...(status === 'REJECTED' || status === 'DELIVERY_FAILED' ? { Reason: change.reason ?? current.Reason } : {}),
      History: [...(current.History ?? []), step],
      ...(findings.length > 0 ? { Findings: [...(current.Findings ?? []), ...findings] } : {}),
    };
    if (status !== 'REJECTED' && status !== 'DELIVERY_FAILED') delete moved.Reason;
    return this.save(moved);
  }

  private async save(order: OrderRecord): Promise<OrderRecord> {
    this.deps.store.orders.put(order);
    await this.deps.store.commit();
    this.emit('changed', order);
    return order;
  }

  private now(): string {
    return new Date(this.deps.clock()).toISOString();
  }
}
