/** Records every POS API call in the journal as the response leaves: captured now, built and redacted when first read. */
import type { RequestHandler } from 'express';
import type { Journal } from '../journal/journal.js';
import type { Logger } from '../logger.js';
import { bodyForJournal, redactHeaders, viewToken, type JournalEntry } from '../journal/journal-entry.js';
import { journalSummary, type JournalSummary } from '../journal/journal-summary.js';
import { isCredentialParameter } from '../domain/query-credentials.js';
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
      keep(() =>
        capture(
          chunk,
          clientLeftAfterMs === undefined ? undefined : { error: `the client closed the connection after ${clientLeftAfterMs} ms, before this answer` },
        ),
      );
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
      keep(() =>
        capture(undefined, {
          unanswered: true,
          error:
            kind === 'drop'
              ? `connection dropped without an answer by ${faultLabel(res.locals.fault!)}`
              : `no answer, held by ${faultLabel(res.locals.fault!)} (hang) until the client closed the connection after ${afterMs} ms`,
        }),
      );
    });

    /**
     * Adds the entry, and never lets the journal fail the answer: by now the state may have changed (a refund
     * stored), and a 500 would make the POS retry what already happened. A failure is logged and kept as a
     * bare entry instead, whether it comes now or when the entry is first read.
     */
    function keep(captured: () => { summary: JournalSummary; build: () => JournalEntry; latencyMs: number }): void {
      try {
        const { summary, build, latencyMs } = captured();
        deps.journal.addCaptured(summary, () => {
          try {
            return build();
          } catch (error) {
            deps.logger.error({ err: error, requestId: res.locals.requestId, journalId: id }, 'the journal could not keep this request');
            return bareEntry(id, latencyMs, error);
          }
        });
      } catch (error) {
        deps.logger.error({ err: error, requestId: res.locals.requestId, journalId: id }, 'the journal could not keep this request');
        try {
          deps.journal.add(bareEntry(id, deps.clock() - started, error));
        } catch {
          // Nothing more to do: the answer goes out regardless.
        }
      }
    }

    function bareEntry(entryId: string, latencyMs: number, error: unknown): JournalEntry {
      return {
        id: entryId,
        requestId: String(res.locals.requestId),
        time: new Date(started).toISOString(),
        direction: 'inbound',
        method: req.method,
        path: req.path,
        query: {},
        request: { headers: {}, bodyBytes: 0 },
        response: { status: res.statusCode, headers: {}, error: `the journal could not keep this request's details: ${(error as Error)?.message ?? 'unknown error'}` },
        latencyMs,
        findings: [],
      };
    }

    /**
     * What the entry needs, taken now (it may not change later): the summary at once, and a build that makes the
     * whole entry (token view, headers, bodies parsed) when the journal is first read.
     */
    function capture(chunk: string | Buffer | undefined, ending?: { unanswered?: true; error: string }) {
      const url = new URL(req.originalUrl, 'http://sandbox.invalid');
      const token = res.locals.token;
      const locals = res.locals;
      const time = new Date(started).toISOString();
      const status = ending?.unanswered ? 0 : res.statusCode;
      const latencyMs = deps.clock() - started;
      const requestHeaders = req.headers;
      const responseHeaders = ending?.unanswered ? {} : res.getHeaders();
      const bodyText = typeof req.body === 'string' ? req.body : undefined;
      const bodyBytes = locals.body?.bytes ?? Number(req.get('content-length') ?? 0);
      const locationId = locals.locationId ?? req.get('x-service-locationid')?.trim() ?? undefined;
      const findings = locals.findings ?? [];
      const { tokenDefects, menuUpdate, orderId, fault, requestId } = locals;
      const summary = journalSummary({
        id,
        requestId,
        time,
        direction: 'inbound',
        method: req.method,
        path: url.pathname,
        locationId,
        orderId: orderId || undefined,
        response: { status, error: ending?.error },
        findings,
        fault,
      });
      const build = (): JournalEntry => {
        const query: Record<string, string> = {};
        for (const [name, value] of url.searchParams) {
          query[name] = isCredentialParameter(name, value, deps.partnerKey) ? '[redacted]' : value;
        }
        const responseText = chunk === undefined ? undefined : chunk.toString();
        return {
          id,
          requestId,
          time,
          direction: 'inbound',
          method: req.method,
          path: url.pathname,
          query,
          locationId,
          partner: typeof token?.claims.iss === 'string' ? token.claims.iss : undefined,
          token: viewToken(authorization),
          ...(tokenDefects ? { tokenDefects } : {}),
          request: { headers: redactHeaders(requestHeaders), ...bodyForJournal(bodyText), bodyBytes },
          response: ending?.unanswered
            ? { status: 0, headers: {}, error: ending.error }
            : {
                status,
                headers: Object.fromEntries(Object.entries(responseHeaders).map(([name, value]) => [name, String(value)])),
                ...(responseText ? { body: bodyForJournal(responseText).body ?? responseText } : {}),
                ...(ending ? { error: ending.error } : {}),
              },
          latencyMs,
          findings,
          ...(menuUpdate ? { menuUpdate } : {}),
          ...(orderId ? { orderId } : {}),
          ...(fault ? { fault } : {}),
        };
      };
      return { summary, build, latencyMs };
    }
    next();
  };
}
