/**
 * Pure: a refund log line in the exact form the sandbox writes it (JSON.stringify of a refund record, keys in the
 * order the refund processor builds them) → its view (the fields the indexes read) and its text, recognized by one
 * pattern instead of JSON.parse and the schema check; the record log parses the text when the record is asked for.
 * A start with 100,000 refunds kept spent ~0.6 s in JSON.parse and ~0.1 s in the check.
 *
 * The pattern is narrower than the schema, so whatever it takes is a valid record, and the fields it reads are what
 * JSON.parse would give: every string is taken only when it holds no backslash, quote or control character (then its
 * characters are its value, with no escape to undo), the keys come in one order with no other key between, and a
 * time is what `Date.prototype.toISOString` writes. Any other line (a hand edit, keys in another order, an escaped
 * character) gives undefined and is read by JSON.parse and checked against the schema as before.
 */
import type { RefundStatus, RefundView } from '../refunds/refund-rules.js';
import { KeptRecord } from './kept-record.js';
import { refundRecordSchema } from './stored-state-schemas.js';

/** A string with no escape; `+` where the schema asks for at least one character. Read: captured; the others are only matched. */
const ANY = '"[^"\\\\\\u0000-\\u001f]*"';
const KEY = '"[^"\\\\\\u0000-\\u001f]+"';
const READ_KEY = '"([^"\\\\\\u0000-\\u001f]+)"';
const TIME = '"\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z"';
const READ_TIME = '"(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z)"';
/** The schema's own lists, so the two cannot disagree on a status or a reason. */
const STATUS = `"(${refundRecordSchema.properties.status.enum.join('|')})"`;
const REASON = `"(?:${refundRecordSchema.properties.reason.enum.join('|')})"`;

const LINE = new RegExp(
  `^\\{"id":${READ_KEY},"externalId":${READ_KEY},"locationId":${READ_KEY},"partner":${ANY},"requestId":${ANY},"journalId":${ANY},` +
    `"status":${STATUS},"acceptedAt":${READ_TIME},"dueAt":${TIME}` +
    `(?:,"reason":${REASON})?(?:,"detail":${ANY})?(?:,"orderId":${KEY})?(?:,"processedAt":${TIME})?\\}$`,
);

/** The schema's statuses themselves, so a hundred thousand views share three strings instead of holding one each. */
const STATUSES = new Map<string, RefundStatus>(refundRecordSchema.properties.status.enum.map((status) => [status, status]));

/**
 * The locations met, each held once: a sandbox has a few, and 100,000 views held a copy each of the same few strings
 * (0.6 MB a 20,000). Bounded, since a file may name any number: past the bound a location is held as read.
 */
const LOCATIONS = new Map<string, string>();
const MOST_LOCATIONS = 1000;
/** The location of the line before: lines come in runs of one location, and comparing costs less than a lookup. */
let lastLocation = '';

function sharedLocation(read: string): string {
  if (read === lastLocation) return lastLocation;
  const known = LOCATIONS.get(read);
  if (known !== undefined) return (lastLocation = known);
  if (LOCATIONS.size >= MOST_LOCATIONS) return read;
  // A string of its own: what the pattern reads out of a line may be a slice of the whole file's text, and the map
  // outlives every record read (a reset, the retention), so a slice would keep that file's text for good.
  const own = JSON.parse(JSON.stringify(read)) as string;
  LOCATIONS.set(own, own);
  return (lastLocation = own);
}

/** A line written by the sandbox, as its view and text; undefined for a line in any other form (not necessarily a wrong one). */
export function readRefundLine(line: string): KeptRecord<RefundView> | undefined {
  const m = LINE.exec(line);
  if (m === null) return undefined;
  return new KeptRecord<RefundView>({ id: m[1]!, externalId: m[2]!, locationId: sharedLocation(m[3]!), status: STATUSES.get(m[4]!)!, acceptedAt: m[5]! }, line);
}
