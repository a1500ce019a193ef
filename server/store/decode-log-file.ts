/**
 * Pure: the bytes of a record log (`refunds-log-000001.jsonl`: one JSON record a line, each line a newer version
 * of its record) → its records in order, or what is wrong with it, in words that never quote the file.
 *
 * A last line without its newline is left out and counted: the sandbox answers a change only once the whole line,
 * newline included, is written, so such a line belongs to a change that was never acknowledged (the machine stopped
 * while the line was being written). Any other line that is not JSON is damage and makes the file unusable.
 */
import { isAscii } from 'node:buffer';
import { scanMalformedUtf8 } from './decode-json-file.js';

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

/**
 * `readLine`, when given, reads a line in the form the sandbox writes (a valid record by construction) or gives
 * undefined, and JSON.parse reads the line instead.
 */
export function decodeLogFile(bytes: Uint8Array, readLine?: (line: string) => unknown): DecodedLog {
  const end = bytes.lastIndexOf(NEWLINE) + 1;
  const whole = bytes.subarray(0, end);
  let text: string;
  try {
    // A file of ASCII bytes alone (the usual one: ids, times, plain ExternalIds) is its own text, copied as Latin-1
    // after one vectorized check; any other is checked and decoded as UTF-8 in one pass. The UTF-8 decoder was 5% of
    // a start with 100,000 refunds kept (45 MB of lines).
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
