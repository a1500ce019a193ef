/** Malformed HTTP over a bare socket, each to be answered with a 4xx in the §2.3 envelope, not Node's empty 400. */
import { connect } from 'node:net';
import fc from 'fast-check';
import type { Answer } from '../../server/test/fuzz/answer-check.js';

export interface RawCase {
  kind: string;
  bytes: Buffer;
  /** refusal: must be a 4xx with the envelope; answer: any answer judged as usual; success: a well-formed request that must get a 2xx. */
  expect: 'refusal' | 'answer' | 'success';
}

export type RawSent = { ok: true; answer: Answer } | { ok: false; error: string };

interface RawContext {
  host: string;
  /** A clean POS call's headers (token, location, content type) to put around the broken part. */
  posHeaders: fc.Arbitrary<Array<[string, string]>>;
}

const CRLF = '\r\n';
const lines = (...parts: string[]) => Buffer.from(parts.join(CRLF) + CRLF + CRLF, 'latin1');
const refusal = (kind: string, bytes: Buffer): RawCase => ({ kind, bytes, expect: 'refusal' });
const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);

const CONTROL_CHARS = ['\x00', '\x01', '\x07', '\x08', '\x0b', '\x0c', '\x1b', '\x7f'];
const PATHS = ['/v2/order/refund', '/v2/menu', '/v2/order/status', '/_sandbox/health'];

/** Every kind of raw case, with random parts where the kind has them. */
export function rawCases(ctx: RawContext): fc.Arbitrary<RawCase> {
  const host = `Host: ${ctx.host}`;
  const pos = ctx.posHeaders.map((headers) => headers.map(([name, value]) => `${name}: ${value}`));
  return fc.oneof(
    pick(['GARBAGE', 'GET', 'GET /', 'GET / HTTP/1.1 extra', ' GET / HTTP/1.1', 'GET  / HTTP/1.1', 'G\x00T / HTTP/1.1', 'POST /v2/order/refund HTTP/1.1\n']).map((line) =>
      refusal('raw: bad request line', lines(line, host)),
    ),
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => refusal('raw: random bytes', Buffer.concat([Buffer.from(bytes), Buffer.from(CRLF + CRLF)]))),
    pick(['HTTP/9.9', 'HTTP/1.x', 'FTP/1.1', 'HTTP/1', 'HTTP/11', 'http/1.1']).map((version) => refusal('raw: bad HTTP version', lines(`GET /_sandbox/health ${version}`, host))),
    fc.tuple(pick(PATHS), pick(CONTROL_CHARS), fc.boolean(), pos).map(([path, char, inName, clean]) =>
      refusal(`raw: control character in a header ${inName ? 'name' : 'value'}`, lines(`POST ${path} HTTP/1.1`, host, ...clean, inName ? `X-B${char}ad: 1` : `X-Bad: a${char}b`)),
    ),
    pick(['X Bad: 1', ': no name', 'NoColon', 'X-Bad : 1', '\tX-Bad: 1']).map((line) => refusal('raw: malformed header line', lines('GET /_sandbox/health HTTP/1.1', host, line))),
    fc.tuple(pick(PATHS), fc.integer({ min: 17 * 1024, max: 64 * 1024 }), pos).map(([path, size, clean]) =>
      refusal('raw: one header over 16 KiB', lines(`POST ${path} HTTP/1.1`, host, ...clean, `X-Big: ${'a'.repeat(size)}`)),
    ),
    fc.integer({ min: 200, max: 400 }).map((count) =>
      refusal('raw: headers over 16 KiB in all', lines('GET /_sandbox/health HTTP/1.1', host, ...Array.from({ length: count }, (_, i) => `X-H${i}: ${'v'.repeat(80)}`))),
    ),
    fc.integer({ min: 17 * 1024, max: 40 * 1024 }).map((size) => refusal('raw: request target over 16 KiB', lines(`GET /_sandbox/${'a'.repeat(size)} HTTP/1.1`, host))),
    fc.tuple(pick(PATHS), pos).map(([path, clean]) => refusal('raw: obsolete line folding', lines(`POST ${path} HTTP/1.1`, host, ...clean, 'X-Folded: a', '  b'))),
    fc.tuple(pick(PATHS), pick(['abc', '-1', '1, 2', '0x10', '1e3', ' ']), pos).map(([path, length, clean]) =>
      refusal('raw: bad Content-Length', lines(`POST ${path} HTTP/1.1`, host, ...clean, `Content-Length: ${length}`)),
    ),
    fc.tuple(pick(PATHS), pos).map(([path, clean]) => refusal('raw: two different Content-Lengths', lines(`POST ${path} HTTP/1.1`, host, ...clean, 'Content-Length: 2', 'Content-Length: 3'))),
    fc.tuple(pick(PATHS), pos).map(([path, clean]) =>
      refusal('raw: Content-Length with Transfer-Encoding', lines(`POST ${path} HTTP/1.1`, host, ...clean, 'Content-Length: 5', 'Transfer-Encoding: chunked')),
    ),
    fc.tuple(pick(PATHS), pick(['ZZ', '-1', '1;' + 'x'.repeat(20_000), 'ffffffffffffffffffff']), pos).map(([path, size, clean]) =>
      refusal('raw: bad chunk', Buffer.concat([lines(`POST ${path} HTTP/1.1`, host, ...clean, 'Transfer-Encoding: chunked'), Buffer.from(`${size}${CRLF}{}${CRLF}0${CRLF}${CRLF}`)])),
    ),
    fc.tuple(pick(['gzip', 'chunked, gzip', 'bogus']), pos).map(([coding, clean]) =>
      refusal('raw: Transfer-Encoding not ending in chunked', lines('POST /v2/order/refund HTTP/1.1', host, ...clean, `Transfer-Encoding: ${coding}`)),
    ),
    pick(PATHS).map((path) => refusal('raw: HTTP/1.1 without Host', lines(`GET ${path} HTTP/1.1`, 'Connection: close'))),
    pick(['G@T', 'GET\x00', 'GE T', '\x16\x03\x01']).map((method) => refusal('raw: bad method', lines(`${method} /_sandbox/health HTTP/1.1`, host))),
    pick(['/a b', '/\x7f', '/%', '*', 'http://', '/\x00']).map((target) => refusal('raw: bad request target', lines(`GET ${target} HTTP/1.1`, host))),
    pick(PATHS).map((path) => refusal('raw: bare CR line endings', Buffer.from(`GET ${path} HTTP/1.1\r${host}\r\r`, 'latin1'))),
    fc.constantFrom<RawCase>(
      { kind: 'raw: well-formed health check', bytes: lines('GET /_sandbox/health HTTP/1.1', host, 'Connection: close'), expect: 'success' },
      { kind: 'raw: well-formed HTTP/1.0 health check', bytes: lines('GET /_sandbox/health HTTP/1.0'), expect: 'success' },
    ),
  );
}

/** Writes the bytes on a new connection and reads the first answer (or says why there was none). */
export function sendRaw(port: number, bytes: Buffer, timeoutMs = 5000): Promise<RawSent> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (result: RawSent) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish(answerOrEmpty(received, `no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const answer = parseAnswer(received);
      if (answer?.complete) finish({ ok: true, answer: answer.answer });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => finish(answerOrEmpty(received, `${error.code ?? error.name}: ${error.message}`)));
    socket.on('close', () => finish(answerOrEmpty(received, 'connection closed without an answer')));
    socket.write(bytes);
  });
}

function answerOrEmpty(received: Buffer, error: string): RawSent {
  const parsed = parseAnswer(received);
  return parsed ? { ok: true, answer: parsed.answer } : { ok: false, error };
}

/** The first HTTP response in `bytes`: status, headers and as much body as arrived; complete once all of it did. */
export function parseAnswer(bytes: Buffer): { answer: Answer; complete: boolean } | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...headerLines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let rest = bytes.subarray(end + 4);
  let complete = false;
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    const decoded = decodeChunked(rest);
    complete = decoded.complete;
    rest = decoded.body;
  } else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    complete = rest.length >= length;
    rest = rest.subarray(0, length);
  }
  return { answer: { status, headers, body: rest.toString('utf8') }, complete };
}

function decodeChunked(bytes: Buffer): { body: Buffer; complete: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) return { body: Buffer.concat(parts), complete: false };
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return { body: Buffer.concat(parts), complete: true };
    if (size === 0) return { body: Buffer.concat(parts), complete: true };
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
    if (at > bytes.length) return { body: Buffer.concat(parts), complete: false };
  }
}
