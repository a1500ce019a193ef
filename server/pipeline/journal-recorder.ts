/** Records every POS API call in the journal, redacted, as the response leaves. */
import type { RequestHandler } from 'express';
import type { Journal } from '../journal/journal.js';
import type { Logger } from '../logger.js';
import { bodyForJournal, redactHeaders, viewToken, type JournalEntry } from '../journal/journal-entry.js';
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
      keep(() => {
        const entry = buildEntry(id, started, chunk);
        if (clientLeftAfterMs !== undefined) entry.response.error = `the client closed the connection after ${clientLeftAfterMs} ms, before this answer`;
        return entry;
      });
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
      keep(() => {
        const entry = buildEntry(id, started, undefined);
        entry.response = {
        status: 0,
        headers: {},
        error:
          kind === 'drop'
            ? `connection dropped without an answer by ${faultLabel(res.locals.fault!)}`
            : `no answer, held by ${faultLabel(res.locals.fault!)} (hang) until the client closed the connection after ${afterMs} ms`,
        };
        return entry;
      });
    });

    /**
     * Adds the entry, and never lets the journal fail the answer: by now the state may have changed (a refund
     * stored), and a 500 would make the POS retry what already happened. A failure is logged and kept as a
     * bare entry instead.
     */
    function keep(build: () => JournalEntry): void {
      try {
        deps.journal.add(build());
      } catch (error) {
        deps.logger.error({ err: error, requestId: res.locals.requestId, journalId: id }, 'the journal could not keep this request');
        try {
          deps.journal.add(bareEntry(id, started, error));
        } catch {
          // Nothing more to do: the answer goes out regardless.
        }
      }
    }

    function bareEntry(entryId: string, startedAt: number, error: unknown): JournalEntry {
      return {
        id: entryId,
        requestId: String(res.locals.requestId),
        time: new Date(startedAt).toISOString(),
        direction: 'inbound',
        method: req.method,
        path: req.path,
        query: {},
        request: { headers: {}, bodyBytes: 0 },
        response: { status: res.statusCode, headers: {}, error: `the journal could not keep this request's details: ${(error as Error)?.message ?? 'unknown error'}` },
        latencyMs: deps.clock() - startedAt,
        findings: [],
      };
    }

    function buildEntry(entryId: string, startedAt: number, chunk: string | Buffer | undefined): JournalEntry {
      const url = new URL(req.originalUrl, 'http://sandbox.invalid');
      const query: Record<string, string> = {};
      for (const [name, value] of url.searchParams) {
        query[name] = isCredentialParameter(name, value, deps.partnerKey) ? '[redacted]' : value;
      }
      const responseText = chunk === undefined ? undefined : chunk.toString();
      const token = res.locals.token;
      const entry: JournalEntry = {
        id: entryId,
        requestId: res.locals.requestId,
        time: new Date(startedAt).toISOString(),
        direction: 'inbound',
        method: req.method,
        path: url.pathname,
        query,
        locationId: res.locals.locationId ?? req.get('x-service-locationid')?.trim() ?? undefined,
        partner: typeof token?.claims.iss === 'string' ? token.claims.iss : undefined,
        token: viewToken(authorization),
        ...(res.locals.tokenDefects ? { tokenDefects: res.locals.tokenDefects } : {}),
        request: {
          headers: redactHeaders(req.headers),
          ...bodyForJournal(typeof req.body === 'string' ? req.body : undefined),
          bodyBytes: res.locals.body?.bytes ?? Number(req.get('content-length') ?? 0),
        },
        response: {
          status: res.statusCode,
          headers: Object.fromEntries(Object.entries(res.getHeaders()).map(([name, value]) => [name, String(value)])),
          ...(responseText ? { body: bodyForJournal(responseText).body ?? responseText } : {}),
        },
        latencyMs: deps.clock() - startedAt,
        findings: res.locals.findings ?? [],
        ...(res.locals.menuUpdate ? { menuUpdate: res.locals.menuUpdate } : {}),
        ...(res.locals.orderId ? { orderId: res.locals.orderId } : {}),
        ...(res.locals.fault ? { fault: res.locals.fault } : {}),
      };
      return entry;
    }
    next();
  };
}
