/** Pure: a record log's bytes (one record version a line) → its records in order, or what is wrong; a last line without its newline was never acknowledged and is left out, any other broken line makes the file unusable. */
import { isAscii } from 'node:buffer';
import { scanMalformedUtf8 } from './decode-json-file.js';
import type { RefundStatus, RefundView } from '../refunds/refund-rules.js';
import { KeptRecord } from './log-file-tally.js';
import { refundRecordSchema } from './stored-state-schemas.js';

export type DecodedLog =
  | {
      ok: true;
      records: unknown[];
      unfinishedBytes: number;
      /** The lines (by index) read by JSON.parse: those `readLine` did not know, which the schema check must see. */
      parsed: number[];
    }
  | { ok: false; problem: string };

const NEWLINE = 0x0a;
const FATAL_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `readLine` reads a line in the writer's own form, or gives undefined and JSON.parse reads it. */
export function decodeLogFile(bytes: Uint8Array, readLine?: (line: string) => unknown): DecodedLog {
  const end = bytes.lastIndexOf(NEWLINE) + 1;
  const whole = bytes.subarray(0, end);
  let text: string;
  try {
    // A file of ASCII bytes alone, the usual one, is copied as Latin-1 after one vectorized check, not decoded.
    text = isAscii(whole) ? Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength).toString('latin1') : FATAL_UTF8.decode(whole);
  } catch {
    const malformed = scanMalformedUtf8(whole)!;
    const what = malformed.count === 1 ? 'byte that is' : 'bytes that are';
    return { ok: false, problem: `holds ${malformed.count} ${what} not UTF-8 text (the first at byte offset ${malformed.first}), so it is not a record log` };
  }
  const records: unknown[] = [];
  const parsed: number[] = [];
  let start = 0;
  let line = 1;
  while (start < text.length) {
    const stop = text.indexOf('\n', start);
    const known = readLine?.(text.slice(start, stop));
    if (known !== undefined) {
      records.push(known);
      start = stop + 1;
      line++;
      continue;
    }
    try {
      records.push(JSON.parse(text.slice(start, stop)));
      parsed.push(line - 1);
    } catch {
      // JSON.parse's message would quote the line.
      return { ok: false, problem: `line ${line} is not a JSON record (byte offset ${Buffer.byteLength(text.slice(0, start), 'utf8')})` };
    }
    start = stop + 1;
    line++;
  }
  return { ok: true, records, unfinishedBytes: bytes.length - end, parsed };
}

/** Pure: a refund log line in the writer's exact form → its view and text by one pattern, not JSON.parse and the schema (docs/performance.md); the pattern is narrower than the schema, so whatever it takes is valid and reads as JSON.parse would. */

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

/** Each location held once, bounded, since a file may name any number. */
const LOCATIONS = new Map<string, string>();
const MOST_LOCATIONS = 1000;
/** The location of the line before: lines come in runs of one location, and comparing costs less than a lookup. */
let lastLocation = '';

function sharedLocation(read: string): string {
  if (read === lastLocation) return lastLocation;
  const known = LOCATIONS.get(read);
  if (known !== undefined) return (lastLocation = known);
  if (LOCATIONS.size >= MOST_LOCATIONS) return read;
  // A string of its own, not a slice that would keep the whole file's text alive.
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
