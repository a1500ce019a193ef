/** The paging parts of openapi.json: `limit` and the cursor of a list, and the Link header that names the next page. */
import { json } from './openapi-parts.js';
import { RECORD_PAGE, type PageSize } from '../control/control-query.js';

const LINK_HEADER = {
  Link: {
    description:
      'RFC 8288: `</_sandbox/...>; rel="next"` when more records follow: the same request (filters and limit kept) with the cursor set to the last record of this page. Absent on the last page.',
    schema: { type: 'string' },
  },
};

/** `limit` and the cursor: `after` for refunds, orders and fault rules; `before` for the journal, whose `after` is a filter. */
export function pageParameters(cursor: 'after' | 'before' = 'after', size: PageSize = RECORD_PAGE) {
  const cursorText =
    cursor === 'after'
      ? 'The page starts after the record with this id; take it from the Link rel="next" header. An id that is not on the list (a reset empties it) answers 400.'
      : 'The page starts after this entry (with the entries that ended before it); take it from the Link rel="next" header. An entry the journal no longer keeps gives an empty page: the older ones were dropped before it.';
  return [
    {
      name: 'limit',
      in: 'query',
      schema: { type: 'integer', minimum: 1, maximum: size.maxLimit, default: size.defaultLimit },
      description: `Records per page: ${size.defaultLimit} unless given, at most ${size.maxLimit} (more answers 400).`,
    },
    { name: cursor, in: 'query', schema: { type: 'string' }, description: cursorText },
  ];
}

/** A 200 with one page of a list: the records as a JSON array, and the Link header when a next page follows. */
export const pagedOk = (description: string, schema: object) => ({ description, headers: LINK_HEADER, content: json(schema) });
