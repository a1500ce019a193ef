/** Records every POS API call in the journal as the response leaves: captured now, built and redacted when first read. */
import type { RequestHandler } from 'express';
import type { Journal } from './journal.js';
import type { Logger } from '../logger.js';
import type { JournalEntry } from './journal-entry.js';
import { bareEntryOf, capturedBytes, entryOf, packCapture, pathOfTarget, summaryOf, unpackCapture, type InboundCapture } from './inbound-capture.js';
import { faultLabel } from '../faults/fault-registry.js';

export const JOURNAL_ID_HEADER = 'x-sandbox-journal-id';

export function recordJournal(deps: { journal: Journal; clock: () => number; partnerKey: string; logger: Logger }): RequestHandler {
  return (req, res, next) => {
    const id = deps.journal.nextId();
    const authorization = req.get('authorization');
    // Its signature is redacted wherever it turns up later, even alone (`?s=<signature>`).
    deps.journal.redactor.remember(authorization);
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
    // A request a drop or hang fault never answers is still an entry: status 0, and why. A client that leaves
    // while the sandbox still works (a delay fault, say) is noted on the answer written afterwards.
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

    /**
     * Adds the entry, and never lets the journal fail the answer: by now the state may have changed (a refund
     * stored), and a 500 would make the POS retry what already happened. A failure is logged and kept as a
     * bare entry instead, whether it comes now or when the entry is first read.
     */
    function keep(ending?: { unanswered?: true; error: string }, chunk?: string | Buffer): void {
      try {
        const captured = capture(ending, chunk);
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

/**
 * Builds the entry when the journal is first read; outside the middleware, so it holds the capture and nothing of the
 * request. The capture is kept as one string until then: 5,000 kept captures as objects were some 250,000 objects
 * (headers, findings, bodies) for every full collection to mark, and the tail of the latency grew with them.
 */
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
