/** Pure: the query strings of the control API, checked so a typo answers 400 instead of being ignored. */
import { ApiError } from '../errors.js';
import type { JournalFilter } from '../journal/journal.js';
import { parsePageLimit, type PageSize } from './paging.js';

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

/** `limit` of a paged list: the default when absent, 400 past the largest page. */
export function pageLimit(value: string | undefined, size: PageSize): number {
  const parsed = parsePageLimit(value, size);
  if (!parsed.ok) throw new ApiError('INVALID_REQUEST', parsed.problem);
  return parsed.limit;
}

/** The 400 for an `after` cursor that names no record of the list. */
export function unknownCursor(list: string, after: string): ApiError {
  return new ApiError(
    'INVALID_REQUEST',
    `after must be the id of one of the ${list}, as the Link rel="next" header names it; there is none '${after}' (a reset empties the list); start again without after`,
  );
}

/**
 * The journal filters: path, status, location, since, direction, order, fault, findings, after (a journal id), and the page:
 * limit and before (a journal id). With `page`, limit gets its default and maximum; without (the HAR export), any limit.
 */
export function journalFilter(query: Query, page?: PageSize): JournalFilter {
  const { path, status, location, since, after, before, limit, direction, order, fault, findings } = checkQuery(query, ['path', 'status', 'location', 'since', 'after', 'before', 'limit', 'direction', 'order', 'fault', 'findings']);
  const problems: string[] = [];
  if (direction !== undefined && direction !== 'inbound' && direction !== 'outbound') problems.push(`direction must be inbound or outbound, got '${direction}'`);
  if (findings !== undefined && findings !== 'true' && findings !== 'false') problems.push(`findings must be true (entries with a finding) or false (entries with none), got '${findings}'`);
  if (status !== undefined && !/^(\d{3}|\dxx)$/i.test(status)) problems.push(`status must be a status code (401) or a class (4xx), got '${status}'`);
  const sinceMs = since === undefined ? undefined : /^\d+$/.test(since) ? Number(since) : Date.parse(since);
  if (sinceMs !== undefined && Number.isNaN(sinceMs)) problems.push(`since must be an ISO time or milliseconds since the epoch, got '${since}'`);
  for (const [name, value] of [['after', after], ['before', before]] as const) {
    if (value !== undefined && !/^j-\d+$/.test(value)) problems.push(`${name} must be a journal id such as j-000042, got '${value}'`);
  }
  let limitN = limit === undefined ? undefined : Number(limit);
  if (page !== undefined) {
    const parsed = parsePageLimit(limit, page);
    if (parsed.ok) limitN = parsed.limit;
    else problems.push(parsed.problem);
  } else if (limitN !== undefined && (!Number.isInteger(limitN) || limitN < 1)) problems.push(`limit must be a whole number from 1, got '${limit}'`);
  if (problems.length > 0) throw new ApiError('INVALID_REQUEST', problems);
  return {
    path,
    status,
    location,
    since: sinceMs,
    ...(after === undefined ? {} : { after }),
    ...(before === undefined ? {} : { before }),
    limit: limitN,
    direction: direction as JournalFilter['direction'],
    orderId: order,
    fault,
    findings: findings === undefined ? undefined : findings === 'true',
  };
}
