/** One delivery try on the wire: the order POSTed to the POS, and its reply judged (only a 2xx with an ExternalId delivers). */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { brotliDecompressSync, constants, gunzipSync, inflateSync } from 'node:zlib';
import { failureMessage, guardTarget, OPEN_EGRESS, timeoutMessage, type EgressPolicy } from '../hosted/egress.js';
import { describeValue as describe } from '../http/messages.js';
import { POS_DECISIONS, type PosDecision } from './order-rules.js';

export interface PostOrderInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** For the whole try: connect, send, answer. */
  timeoutMs: number;
  /** A drop fault: send this many bytes of the body, then cut the connection. */
  cutAfterBytes?: number;
  egress?: EgressPolicy;
}

export interface PostOrderResult extends AttemptResult {
  responseHeaders?: Record<string, string>;
}

/** An order reply is a few hundred bytes. */
const MAX_REPLY_BYTES = 64 * 1024;

const WHAT = "the POS's order endpoint";

/** One try: the POS's answer, or why there was none. */
export function postOrder({ url, headers, body, timeoutMs, cutAfterBytes, egress = OPEN_EGRESS }: PostOrderInput): Promise<PostOrderResult> {
  // Judged at every try, not only when the order was made: the partners file may have changed since.
  const guarded = guardTarget(egress, url, WHAT);
  if (!guarded.ok) return Promise.resolve({ error: `not sent: ${guarded.problem}` });
  return new Promise((resolve) => {
    const target = guarded.url;
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (result: PostOrderResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    // Each try its own connection, so a hung POS cannot hold the next; a 3xx is an answer like any other.
    const req = send(target, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false, ...(guarded.lookup ? { lookup: guarded.lookup } : {}) });
    const timer = setTimeout(() => {
      finish({ error: timeoutMessage(egress, target, WHAT, timeoutMs) });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ error: failureMessage(egress, error, target, WHAT) }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_REPLY_BYTES) chunks.push(chunk);
      });
      res.on('error', (error: NodeJS.ErrnoException) => finish({ status: res.statusCode, error: failureMessage(egress, error, target, WHAT) }));
      res.on('end', () => {
        const responseHeaders = flatHeaders(res.headers);
        const reply = replyText(Buffer.concat(chunks), responseHeaders['content-encoding']);
        finish({ status: res.statusCode, responseHeaders, ...('text' in reply ? { bodyText: reply.text } : { error: reply.problem }) });
      });
    });
    if (cutAfterBytes === undefined) return req.end(body);
    // Headers promise the whole body; the connection is cut once part of it has gone, as a failing network does.
    req.write(Buffer.from(body).subarray(0, cutAfterBytes), () => {
      finish({ error: `connection cut after ${cutAfterBytes} bytes of the body` });
      req.destroy();
    });
  });
}

/** The sandbox asks for no coding, so a POS may send any (RFC 9110 §12.5.3): gzip, deflate and br are read, up to the reply's limit. */
export function replyText(raw: Buffer, contentEncoding: string | undefined): { text: string } | { problem: string } {
  const coding = (contentEncoding ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return { text: raw.toString('utf8') };
  const decode = { gzip: gunzipSync, 'x-gzip': gunzipSync, deflate: inflateSync, br: brotliDecompressSync }[coding];
  if (decode === undefined) return { problem: `the POS answered with Content-Encoding: ${coding.slice(0, 40)}, which the sandbox does not read; send the reply plain, or as gzip, deflate or br` };
  try {
    // A cut stream (past the reply's limit) is read as far as it goes.
    const options = { maxOutputLength: MAX_REPLY_BYTES, finishFlush: coding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH };
    return { text: decode(raw, options).toString('utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: code === 'ERR_BUFFER_TOO_LARGE' ? `the POS's ${coding} reply inflates past ${MAX_REPLY_BYTES / 1024} KiB, more than an order reply takes` : `the POS answered with Content-Encoding: ${coding} but the body is not ${coding} data` };
  }
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

export interface AttemptResult {
  /** Absent when the POS never answered. */
  status?: number;
  bodyText?: string;
  /** Why there is no answer: a timeout, a refused or reset connection. */
  error?: string;
}

export type ReplyVerdict =
  | { delivered: true; externalId: string; status?: PosDecision; reason?: string; unknownFields: string[] }
  | { delivered: false; problem: string };

const ORDER_REPLY_FIELDS = ['ExternalId', 'Status', 'Reason'] as const;
const EXPECTED = 'a 2xx with {"ExternalId":"...","Status"?:"ACCEPTED"|"REJECTED","Reason"?}';

/** Only a 2xx whose body carries a non-empty ExternalId delivers, with an optional Status (ACCEPTED | REJECTED) and Reason. */
export function judgeOrderReply(result: AttemptResult): ReplyVerdict {
  if (result.error !== undefined || result.status === undefined) return { delivered: false, problem: result.error ?? 'no answer' };
  if (result.status < 200 || result.status > 299) {
    return { delivered: false, problem: `the POS answered ${result.status}; an order is delivered only by ${EXPECTED}` };
  }
  let body: unknown;
  try {
    body = JSON.parse(result.bodyText ?? '');
  } catch {
    const shown = (result.bodyText ?? '') === '' ? 'an empty body' : 'a body that is not JSON';
    return { delivered: false, problem: `the POS answered ${result.status} with ${shown}; expected ${EXPECTED}` };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { delivered: false, problem: `the POS's reply must be a JSON object, got ${describe(body)}; expected ${EXPECTED}` };
  }
  const reply = body as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof reply.ExternalId !== 'string' || reply.ExternalId.trim() === '') {
    problems.push(`ExternalId must be a non-empty string, got ${describe(reply.ExternalId)}`);
  }
  if (reply.Status !== undefined && !(POS_DECISIONS as readonly unknown[]).includes(reply.Status)) {
    problems.push(`Status must be ACCEPTED or REJECTED, or left out to send POST /order/status later; got ${describe(reply.Status)}`);
  }
  if (reply.Reason !== undefined && typeof reply.Reason !== 'string') problems.push(`Reason must be a string, got ${describe(reply.Reason)}`);
  if (problems.length > 0) return { delivered: false, problem: `the POS's ${result.status} reply does not deliver the order: ${problems.join('; ')}` };
  return {
    delivered: true,
    externalId: reply.ExternalId as string,
    ...(reply.Status === undefined ? {} : { status: reply.Status as PosDecision }),
    ...(reply.Reason === undefined ? {} : { reason: reply.Reason as string }),
    unknownFields: Object.keys(reply).filter((field) => !(ORDER_REPLY_FIELDS as readonly string[]).includes(field)),
  };
}
