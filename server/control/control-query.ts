/** Pure: the query strings of the control API, checked so a typo answers 400 instead of being ignored. */
import { ApiError } from '../errors.js';
import type { Request, Response } from 'express';

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

/** Pure: the pages of the control API's lists, the next one named by a Link header (RFC 8288) with its cursor, `after` or, for the journal, `before`. */

export interface PageSize {
  defaultLimit: number;
  maxLimit: number;
}

/** Refunds, orders and fault rules: a record is a few hundred bytes, so 5000 is a couple of MB to serialize. */
export const RECORD_PAGE: PageSize = { defaultLimit: 1000, maxLimit: 5000 };
/** The journal: an entry carries request and response bodies, so its pages are smaller; 100 was its default already. */
export const JOURNAL_PAGE: PageSize = { defaultLimit: 100, maxLimit: 1000 };
/** And about this much of bodies and headers a page, so one page never holds the event loop long; a page of one entry may be larger. */
export const JOURNAL_PAGE_BYTES = 1024 * 1024;

export interface Page<T> {
  items: T[];
  /** The id of the last record shown, when more follow. */
  next?: string;
}

/** `limit` as sent (or the default), or the problem with it. */
export function parsePageLimit(value: string | undefined, size: PageSize): { ok: true; limit: number } | { ok: false; problem: string } {
  if (value === undefined) return { ok: true, limit: size.defaultLimit };
  const limit = /^\d+$/.test(value) ? Number(value) : NaN;
  if (Number.isInteger(limit) && limit >= 1 && limit <= size.maxLimit) return { ok: true, limit };
  return { ok: false, problem: `limit must be a whole number from 1 to ${size.maxLimit} (the largest page), got '${value}'; follow the Link rel="next" header for the rest` };
}

/** The cursor is found in the whole list, not the filtered one: a refund that left ?status=PENDING between two pages is still a place to go on from. */
export function pageAfter<T>(ordered: readonly T[], idOf: (item: T) => string, keep: (item: T) => boolean, limit: number, after?: string): Page<T> | undefined {
  let start = 0;
  if (after !== undefined) {
    start = ordered.findIndex((item) => idOf(item) === after) + 1;
    if (start === 0) return undefined;
  }
  const items: T[] = [];
  for (let i = start; i < ordered.length; i++) {
    const item = ordered[i]!;
    if (!keep(item)) continue;
    if (items.length === limit) return { items, next: idOf(items[limit - 1]!) };
    items.push(item);
  }
  return { items };
}

/** The path and query of the next page: the request's own (filters and limit kept), with the cursor set. */
export function nextPagePath(originalUrl: string, cursorName: 'after' | 'before', cursor: string): string {
  const url = new URL(originalUrl, 'http://sandbox.invalid');
  url.searchParams.set(cursorName, cursor);
  return `${url.pathname}${url.search}`;
}

/** For clients: the target of rel="next" in a Link header, or undefined when there is no next page. */
export function nextPageLink(link: string | null | undefined): string | undefined {
  for (const [, target, parameters] of (link ?? '').matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(parameters ?? '');
    const relations = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (relations.includes('next')) return target;
  }
  return undefined;
}

/** Sends one page of a control list: the records as a JSON array (as before paging), and a Link to the next page when there is one. */

export function sendPage<T>(req: Request, res: Response, page: Page<T>, cursorName: 'after' | 'before'): void {
  if (page.next !== undefined) res.links({ next: nextPagePath(req.originalUrl, cursorName, page.next) });
  res.json(page.items);
}

/** The JSON body readJsonBody read, or 400 INVALID_REQUEST saying why there is none. */
export function jsonBody(res: Response, missing = 'body is missing'): unknown {
  const body = res.locals.body;
  if (!body?.ok) throw new ApiError('INVALID_REQUEST', body?.problem ?? missing);
  return body.value;
}
