/** One log line per request when it finishes, and one warning per finding, so the terminal tells the story. */
import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { urlWithoutCredentials } from '../tokens/query-credentials.js';

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
