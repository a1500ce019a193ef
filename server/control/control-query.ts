/** Pure: the query strings of the control API, checked so a typo answers 400 instead of being ignored. */
import { ApiError } from '../errors.js';
import type { JournalFilter } from '../journal/journal.js';

type Query = Record<string, unknown>;

/** Refuses query parameters other than `allowed`, and values given twice. */
export function checkQuery(query: Query, allowed: string[]): Record<string, string | undefined> {
  const problems: string[] = [];
  const values: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!allowed.includes(name)) problems.push(`unknown query parameter '${name}'; this endpoint takes ${allowed.join(', ') || 'none'}`);
    else if (typeof value !== 'string') problems.push(`query parameter '${name}' must be given once`);
    else values[name] = value;
  }
  if (problems.length > 0) throw new ApiError('INVALID_REQUEST', problems);
  return values;
}

/** The journal filters: path, status, location, since, limit, direction, order, fault, and after (a journal id). */
export function journalFilter(query: Query): JournalFilter {
  const { path, status, location, since, after, limit, direction, order, fault } = checkQuery(query, ['path', 'status', 'location', 'since', 'after', 'limit', 'direction', 'order', 'fault']);
  const problems: string[] = [];
  if (direction !== undefined && direction !== 'inbound' && direction !== 'outbound') problems.push(`direction must be inbound or outbound, got '${direction}'`);
  if (status !== undefined && !/^(\d{3}|\dxx)$/i.test(status)) problems.push(`status must be a status code (401) or a class (4xx), got '${status}'`);
  const sinceMs = since === undefined ? undefined : /^\d+$/.test(since) ? Number(since) : Date.parse(since);
  if (sinceMs !== undefined && Number.isNaN(sinceMs)) problems.push(`since must be an ISO time or milliseconds since the epoch, got '${since}'`);
  if (after !== undefined && !/^j-\d+$/.test(after)) problems.push(`after must be a journal id such as j-000042, got '${after}'`);
  const limitN = limit === undefined ? undefined : Number(limit);
  if (limitN !== undefined && (!Number.isInteger(limitN) || limitN < 1)) problems.push(`limit must be a whole number from 1, got '${limit}'`);
  if (problems.length > 0) throw new ApiError('INVALID_REQUEST', problems);
  return { path, status, location, since: sinceMs, ...(after === undefined ? {} : { after }), limit: limitN, direction: direction as JournalFilter['direction'], orderId: order, fault };
}
