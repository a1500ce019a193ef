/** x-request-id in, echoed out; one is generated when the client sent none. */
import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { urlWithoutCredentials } from '../tokens/authenticate.js';

const USABLE_ID = /^[\x21-\x7e]{1,200}$/;

export function requestId(newId: () => string): RequestHandler {
  return (req, res, next) => {
    const sent = req.get('x-request-id')?.trim();
    res.locals.requestId = sent !== undefined && USABLE_ID.test(sent) ? sent : newId();
    res.set('x-request-id', res.locals.requestId);
    next();
  };
}

/** One log line per request when it finishes, and one warning per finding, so the terminal tells the story. */

/** The line shows the URL without credential parameters; the logger itself redacts the key and signatures anywhere. */
export function requestLog(logger: Logger, clock: () => number, partnerKey: string): RequestHandler {
  return (req, res, next) => {
    const started = clock();
    res.on('finish', () => {
      const findings = res.locals.findings ?? [];
      const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
      // Under --log-level warn a clean call writes nothing: nothing to build for it either.
      if (findings.length === 0 && !logger.isLevelEnabled(level)) return;
      const fields = {
        requestId: res.locals.requestId,
        status: res.statusCode,
        ms: clock() - started,
        location: res.locals.locationId,
        findings: findings.length,
      };
      const line = `${req.method} ${urlWithoutCredentials(req.originalUrl, partnerKey)} → ${res.statusCode}`;
      logger[level](fields, line);
      for (const f of findings) logger.warn({ requestId: res.locals.requestId, code: f.code, section: f.section }, `finding: ${f.message}`);
    });
    next();
  };
}
