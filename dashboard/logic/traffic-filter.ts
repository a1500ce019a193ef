/** Pure: Traffic's filters, as the journal's own (GET /_sandbox/journal): a live row is listed only if they take it. */
import type { TrafficRow } from './types.js';

export interface TrafficFilter {
  /** Text the path contains. */
  path: string;
  /** `401`, `4xx`, or empty. */
  status: string;
  location: string;
  direction: '' | 'inbound' | 'outbound';
  findings: '' | 'true' | 'false';
}

export const NO_FILTER: TrafficFilter = { path: '', status: '', location: '', direction: '', findings: '' };

/** A status filter the journal takes: `401` or `4xx`. */
export const STATUS_FILTER = /^(\d{3}|\dxx)$/i;

export function rowMatches(row: TrafficRow, filter: TrafficFilter): boolean {
  if (filter.path !== '' && !row.path.includes(filter.path)) return false;
  const status = filter.status.trim();
  if (STATUS_FILTER.test(status)) {
    const shown = String(row.status);
    if (/xx$/i.test(status) ? shown[0] !== status[0] || shown.length !== 3 : shown !== status) return false;
  }
  if (filter.location !== '' && row.locationId !== filter.location) return false;
  if (filter.direction !== '' && row.direction !== filter.direction) return false;
  if (filter.findings !== '' && row.findings.length > 0 !== (filter.findings === 'true')) return false;
  return true;
}

/** The query string of GET /_sandbox/journal for these filters (a status it would refuse is left out, as above). */
export function journalQuery(filter: TrafficFilter, limit: number): string {
  const query = new URLSearchParams();
  if (filter.path !== '') query.set('path', filter.path);
  if (STATUS_FILTER.test(filter.status.trim())) query.set('status', filter.status.trim());
  if (filter.location !== '') query.set('location', filter.location);
  if (filter.direction !== '') query.set('direction', filter.direction);
  if (filter.findings !== '') query.set('findings', filter.findings);
  query.set('limit', String(limit));
  return query.toString();
}
