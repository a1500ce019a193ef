/** Pure: what the control commands print for people, one aligned line a record, coloured only through `paint`, every record made printable first. */
import { journalSummary, type JournalSummary, type SummarySource } from '../journal/journal-entry.js';
import { printableDeep } from '../http/messages.js';

export interface Paint {
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  cyan(text: string): string;
  bold(text: string): string;
}

export const NO_PAINT: Paint = { dim: (t) => t, red: (t) => t, yellow: (t) => t, green: (t) => t, cyan: (t) => t, bold: (t) => t };

/** Rows of cells as aligned columns (two spaces apart); the widths ignore colour codes. */
export function columns(rows: string[][]): string[] {
  // eslint-disable-next-line no-control-regex
  const visible = (cell: string) => cell.replace(/\u001b\[[0-9;]*m/g, '').length;
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visible(cell))));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - visible(cell)))).join('  ').trimEnd());
}

export interface OrderRow {
  OrderId: string;
  LocationId: string;
  Template?: string;
  Status: string;
  ExternalId?: string;
  Reason?: string;
  CreatedAt?: string;
}

const statusPaint = (paint: Paint, status: string) =>
  /^(ACCEPTED|PROCESSED|REFUNDED)$/.test(status) ? paint.green(status) : /^(REJECTED|DELIVERY_FAILED|FAILED)$/.test(status) ? paint.red(status) : paint.yellow(status);

export function orderLines(given: OrderRow[], paint: Paint = NO_PAINT): string[] {
  const orders = printableDeep(given);
  if (orders.length === 0) return ['no orders'];
  return columns([
    ['ORDER', 'LOCATION', 'TEMPLATE', 'STATUS', 'EXTERNAL ID', 'REASON'].map(paint.dim),
    ...orders.map((order) => [order.OrderId, order.LocationId, order.Template ?? '-', statusPaint(paint, order.Status), order.ExternalId ?? '-', order.Reason ?? '']),
  ]);
}

export interface RefundRow {
  id: string;
  externalId: string;
  locationId: string;
  status: string;
  reason?: string;
  detail?: string;
  acceptedAt?: string;
}

export function refundLines(given: RefundRow[], paint: Paint = NO_PAINT): string[] {
  const refunds = printableDeep(given);
  if (refunds.length === 0) return ['no refunds'];
  return columns([
    ['REFUND', 'EXTERNAL ID', 'LOCATION', 'STATUS', 'ACCEPTED', 'OUTCOME'].map(paint.dim),
    ...refunds.map((refund) => [refund.id, refund.externalId, refund.locationId, statusPaint(paint, refund.status), refund.acceptedAt ?? '-', [refund.reason, refund.detail].filter(Boolean).join(': ')]),
  ]);
}

export interface FaultRow {
  id: string;
  /** Absent when the rule was added without one: it matches every request. */
  match?: Record<string, unknown>;
  action: { kind: string } & Record<string, unknown>;
  times?: number;
  seen: number;
  fired: number;
  left?: number | null;
}

const describeMatch = (match: Record<string, unknown> = {}) =>
  Object.keys(match).length === 0 ? 'every request' : Object.entries(match).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`).join(' ');
const describeAction = ({ kind, ...rest }: FaultRow['action']) => [kind, ...Object.entries(rest).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)].join(' ');

export function faultLines(given: FaultRow[], paint: Paint = NO_PAINT): string[] {
  const faults = printableDeep(given);
  if (faults.length === 0) return ['no fault rules in force'];
  return columns([
    ['RULE', 'MATCH', 'ACTION', 'FIRED', 'LEFT'].map(paint.dim),
    ...faults.map((fault) => [fault.id, describeMatch(fault.match), describeAction(fault.action), `${fault.fired} of ${fault.seen} seen`, fault.left === undefined || fault.left === null ? 'no limit' : String(fault.left)]),
  ]);
}

/** A journal entry as listed (GET /_sandbox/journal) or as a `journal` event's summary: what one line shows. */
export type ExchangeRow = JournalSummary & { latencyMs?: number };

/** The row of a full journal entry: the summary the event stream carries (the journal's own), and its duration. */
export function exchangeRow(entry: SummarySource): ExchangeRow {
  return journalSummary(entry);
}

export interface ExchangeFilter {
  path?: string;
  status?: string;
  location?: string;
  findings?: boolean;
}

/** The journal's own filters (GET /_sandbox/journal), applied to the events a --follow receives. */
export function exchangeMatches(row: ExchangeRow, filter: ExchangeFilter): boolean {
  const status = filter.status;
  return (
    (filter.path === undefined || row.path.includes(filter.path)) &&
    (status === undefined || (/^\dxx$/i.test(status) ? String(row.status)[0] === status[0] : String(row.status) === status)) &&
    (filter.location === undefined || row.locationId === filter.location) &&
    (filter.findings === undefined || row.findings.length > 0 === filter.findings)
  );
}

/** One line per exchange: time, direction, method and path, status, location, duration, findings, fault and journal id. */
export function exchangeLine(given: ExchangeRow, paint: Paint = NO_PAINT): string {
  const row = printableDeep(given);
  const status = row.status >= 500 || row.status === 0 ? paint.red : row.status >= 400 ? paint.yellow : paint.green;
  const arrow = row.direction === 'inbound' ? 'POS → sandbox' : 'sandbox → POS';
  const parts = [
    paint.dim(row.time.slice(11, 23)),
    paint.dim(arrow),
    `${paint.bold(row.method)} ${row.path}`,
    status(row.status === 0 ? 'no answer' : String(row.status)),
    row.locationId ?? '-',
    ...(row.latencyMs === undefined ? [] : [`${row.latencyMs} ms`]),
    ...(row.findings.length > 0 ? [paint.yellow(`findings: ${row.findings.join(', ')}`)] : []),
    ...(row.fault === undefined ? [] : [paint.cyan(`fault: ${row.fault}`)]),
    ...(row.error === undefined ? [] : [paint.red(row.error)]),
    paint.dim(row.id),
  ];
  return parts.join('  ');
}
