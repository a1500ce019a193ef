/**
 * Pure: the pages of the control API's lists. A page is at most `limit` records; when more follow, the answer names
 * the next page in a Link header (RFC 8288) whose URL is the request's own with the cursor set: `after=<id>` (the last
 * record shown) for refunds, orders and fault rules, `before=<id>` for the journal, whose `after` was already a filter.
 */

export interface PageSize {
  defaultLimit: number;
  maxLimit: number;
}

/** Refunds, orders and fault rules: a record is a few hundred bytes, so 5000 is a couple of MB to serialize. */
export const RECORD_PAGE: PageSize = { defaultLimit: 1000, maxLimit: 5000 };
/** The journal: an entry carries request and response bodies, so its pages are smaller; 100 was its default already. */
export const JOURNAL_PAGE: PageSize = { defaultLimit: 100, maxLimit: 1000 };
/**
 * And at most about this much of bodies and headers a page: 1000 entries of 16 KiB bodies were 16 MB serialized in
 * one turn of the event loop, which every other partner's request waited for. A page of one entry may be larger.
 */
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

/**
 * The records `keep` takes, after the one named `after`, at most `limit` of them; undefined when no record is named
 * `after`. The cursor is found in the whole list, not the filtered one: a refund that left ?status=PENDING between two
 * pages is still a place to go on from.
 */
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
