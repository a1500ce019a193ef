/** Records every POS API call in the journal as the response leaves: captured now, built and redacted when first read. */
import type { RequestHandler } from 'express';
import type { Journal } from './journal.js';
import type { Logger } from '../logger.js';
import { faultLabel } from '../faults/fault-registry.js';
import type { Finding } from '../http/findings.js';
import type { MenuUpdateOutcome } from '../menus/apply-menu-update.js';
import type { TokenDefect } from '../tokens/pos-token-rules.js';
import { isCredentialParameter } from '../tokens/authenticate.js';
import { isoTime } from '../http/iso-time.js';
import { bodyForJournal, JOURNAL_BODY_LIMIT, redactHeaders, viewToken, type JournalEntry, type JournalFault, journalSummary, type JournalSummary } from './journal-entry.js';

export const JOURNAL_ID_HEADER = 'x-sandbox-journal-id';

export function recordJournal(deps: { journal: Journal; clock: () => number; partnerKey: string; logger: Logger }): RequestHandler {
  return (req, res, next) => {
    const id = deps.journal.nextId();
    const authorization = req.get('authorization');
    // Its signature is redacted wherever it turns up later, even alone (`?s=<signature>`).
    deps.journal.redactor.remember(authorization);
    deps.journal.redactor.rememberSplit(req.headers, req.originalUrl);
    const started = deps.clock();
    res.locals.journalId = id;
    res.set(JOURNAL_ID_HEADER, id);
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    let recorded = false;
    let clientLeftAfterMs: number | undefined;
    // The entry is added before the response leaves, so a client that reads the journal next finds it.
    res.end = ((...args: unknown[]) => {
      const chunk = typeof args[0] === 'function' ? undefined : (args[0] as string | Buffer | undefined);
      recorded = true;
      keep(clientLeftAfterMs === undefined ? undefined : { error: `the client closed the connection after ${clientLeftAfterMs} ms, before this answer` }, chunk);
      return end(...args);
    }) as typeof res.end;
    // A request a drop or hang fault never answers is still an entry, status 0; a client that left early is noted on the answer.
    res.on('close', () => {
      if (recorded) return;
      const afterMs = deps.clock() - started;
      const kind = res.locals.fault?.kind;
      if (kind !== 'drop' && kind !== 'hang') {
        clientLeftAfterMs = afterMs;
        return;
      }
      recorded = true;
      keep({
        unanswered: true,
        error:
          kind === 'drop'
            ? `connection dropped without an answer by ${faultLabel(res.locals.fault!)}`
            : res.locals.hangEnded !== undefined
              ? `no answer, held by ${faultLabel(res.locals.fault!)} (hang) for ${afterMs} ms, the longest a hang holds; the sandbox then closed the connection`
              : `no answer, held by ${faultLabel(res.locals.fault!)} (hang) until the client closed the connection after ${afterMs} ms`,
      });
    });

    /** The journal never fails the answer: the state may have changed already, and a 500 would make the POS retry it; a failure is logged and kept as a bare entry. */
    function keep(ending?: { unanswered?: true; error: string }, chunk?: string | Buffer): void {
      try {
        const captured = capture(ending, chunk);
        deps.journal.redactor.rememberTokensIn(captured.bodyText);
        deps.journal.addCaptured(summaryOf(captured), buildLater(captured, deps.partnerKey, deps.logger), capturedBytes(captured));
      } catch (error) {
        deps.logger.error({ err: error, requestId: res.locals.requestId, journalId: id }, 'the journal could not keep this request');
        try {
          const latencyMs = deps.clock() - started;
          deps.journal.add(bareEntryOf({ id, requestId: res.locals.requestId, started, latencyMs, method: req.method, status: res.statusCode, path: req.path }, error));
        } catch {
          // Nothing more to do: the answer goes out regardless.
        }
      }
    }

    /** What the entry needs, as plain values taken now (none of it changes later, and no request object is kept). */
    function capture(ending: { unanswered?: true; error: string } | undefined, chunk: string | Buffer | undefined): InboundCapture {
      const { locals } = res;
      const iss = locals.token?.claims.iss;
      return {
        id,
        requestId: locals.requestId,
        started,
        latencyMs: deps.clock() - started,
        method: req.method,
        target: req.originalUrl,
        requestHeaders: req.headers,
        bodyText: typeof req.body === 'string' ? req.body : undefined,
        bodyBytes: locals.body?.bytes ?? Number(req.get('content-length') ?? 0),
        locationId: locals.locationId ?? req.get('x-service-locationid')?.trim() ?? undefined,
        partner: typeof iss === 'string' ? iss : undefined,
        tokenDefects: locals.tokenDefects,
        status: ending?.unanswered ? 0 : res.statusCode,
        responseHeaders: ending?.unanswered ? {} : res.getHeaders(),
        responseChunk: chunk,
        error: ending?.error,
        findings: locals.findings ?? [],
        menuUpdate: locals.menuUpdate,
        orderId: locals.orderId,
        fault: locals.fault,
      };
    }
    next();
  };
}

/** Built when first read, from a capture kept as one string: objects kept for every entry weighed on each full collection (docs/performance.md). */
function buildLater(captured: InboundCapture, partnerKey: string, logger: Logger): () => JournalEntry {
  const packed = packCapture(captured);
  return () => {
    const captured = unpackCapture(packed);
    try {
      return entryOf(captured, partnerKey);
    } catch (error) {
      logger.error({ err: error, requestId: captured.requestId, journalId: captured.id }, 'the journal could not keep this request');
      return bareEntryOf({ ...captured, path: pathOfTarget(captured.target) }, error);
    }
  };
}

/** Pure: what the journal takes of an inbound call as its answer leaves (plain values, no request or socket), its summary, and the entry built from it. */

export interface InboundCapture {
  id: string;
  requestId: string;
  /** When the call started, ms since the epoch. */
  started: number;
  latencyMs: number;
  method: string;
  /** The request target as sent (path and query): parsed only when the entry is built, since most never are. */
  target: string;
  requestHeaders: Record<string, string | string[] | undefined>;
  bodyText?: string;
  bodyBytes: number;
  locationId?: string;
  partner?: string;
  tokenDefects?: TokenDefect[];
  /** 0 when the call was never answered. */
  status: number;
  responseHeaders: Record<string, unknown>;
  responseChunk?: string | Buffer;
  /** Why the call has no answer, or what happened to the client. */
  error?: string;
  findings: Finding[];
  menuUpdate?: MenuUpdateOutcome;
  orderId?: string;
  fault?: JournalFault;
}

const PLACEHOLDER_ORIGIN = 'http://sandbox.invalid';
/** A target the URL parser leaves as it is: a slash, then letters, digits, `-`, `_` and single slashes' runs (no `//` first). */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9_\-/]*$/;

/** As the URL parser reads it, without parsing the plain targets almost every call has. */
export function pathOfTarget(target: string): string {
  return PLAIN_PATH.test(target) ? target : new URL(target, PLACEHOLDER_ORIGIN).pathname;
}

/** Written out, not spread from a shared head, so every summary shares one hidden class. */
export function summaryOf(capture: InboundCapture): JournalSummary {
  return journalSummary({
    id: capture.id,
    requestId: capture.requestId,
    time: isoTime(capture.started),
    direction: 'inbound',
    method: capture.method,
    path: pathOfTarget(capture.target),
    latencyMs: capture.latencyMs,
    locationId: capture.locationId,
    orderId: capture.orderId || undefined,
    response: { status: capture.status, error: capture.error },
    findings: capture.findings,
    fault: capture.fault,
  });
}

/** About the memory the entry will hold, counted from lengths alone as the call is captured. */
export function capturedBytes(capture: InboundCapture): number {
  let bytes = 1024 + capture.target.length + Math.min(capture.bodyText?.length ?? 0, JOURNAL_BODY_LIMIT);
  if (capture.responseChunk !== undefined) bytes += Math.min(capture.responseChunk.length, JOURNAL_BODY_LIMIT);
  // for…in, not Object.entries: no pair array made for each header of each call.
  for (const name in capture.requestHeaders) {
    const value = capture.requestHeaders[name];
    bytes += name.length + (typeof value === 'string' ? value.length : Array.isArray(value) ? value.join().length : 0);
  }
  return bytes;
}

/** The whole entry, not yet redacted (the journal redacts it): token view, hashed headers, parsed bodies. */
export function entryOf(capture: InboundCapture, partnerKey: string): JournalEntry {
  const url = new URL(capture.target, PLACEHOLDER_ORIGIN);
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = isCredentialParameter(name, value, partnerKey) ? '[redacted]' : value;
  const responseText = capture.responseChunk === undefined ? undefined : capture.responseChunk.toString();
  return {
    id: capture.id,
    requestId: capture.requestId,
    time: isoTime(capture.started),
    direction: 'inbound',
    method: capture.method,
    path: url.pathname,
    locationId: capture.locationId,
    query,
    partner: capture.partner,
    // The token read is the Authorization header's (Node keeps the first of several), held once, in the headers.
    token: viewToken(authorizationOf(capture.requestHeaders)),
    ...(capture.tokenDefects ? { tokenDefects: capture.tokenDefects } : {}),
    request: { headers: redactHeaders(capture.requestHeaders), ...bodyForJournal(capture.bodyText), bodyBytes: capture.bodyBytes },
    response:
      capture.status === 0
        ? { status: 0, headers: {}, ...(capture.error === undefined ? {} : { error: capture.error }) }
        : {
            status: capture.status,
            headers: Object.fromEntries(Object.entries(capture.responseHeaders).map(([name, value]) => [name, String(value)])),
            ...(responseText ? { body: bodyForJournal(responseText).body ?? responseText } : {}),
            ...(capture.error === undefined ? {} : { error: capture.error }),
          },
    latencyMs: capture.latencyMs,
    findings: capture.findings,
    ...(capture.menuUpdate ? { menuUpdate: capture.menuUpdate } : {}),
    ...(capture.orderId ? { orderId: capture.orderId } : {}),
    ...(capture.fault ? { fault: capture.fault } : {}),
  };
}

/** The entry of a call whose details could not be kept: what is known, and why. */
export function bareEntryOf(capture: Pick<InboundCapture, 'id' | 'requestId' | 'started' | 'latencyMs' | 'method' | 'status'> & { path: string }, error: unknown): JournalEntry {
  return {
    id: capture.id,
    requestId: String(capture.requestId),
    time: isoTime(capture.started),
    direction: 'inbound',
    method: capture.method,
    path: capture.path,
    query: {},
    request: { headers: {}, bodyBytes: 0 },
    response: { status: capture.status, headers: {}, error: `the journal could not keep this request's details: ${(error as Error)?.message ?? 'unknown error'}` },
    latencyMs: capture.latencyMs,
    findings: [],
  };
}

/** One flat string (a JSON.stringify result is a rope of heap pieces until flattened); unpackCapture gives it back. */
export function packCapture(capture: InboundCapture): string {
  const packed = JSON.stringify(capture.responseChunk === undefined || typeof capture.responseChunk === 'string' ? capture : { ...capture, responseChunk: capture.responseChunk.toString() });
  void Number(packed);
  return packed;
}

export function unpackCapture(packed: string): InboundCapture {
  return JSON.parse(packed) as InboundCapture;
}

function authorizationOf(headers: InboundCapture['requestHeaders']): string | undefined {
  const value = headers.authorization;
  return Array.isArray(value) ? value[0] : value;
}
