/** The one error handler: every failure leaves in the envelope of its endpoint family, never as HTML or a stack. */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, envelopeFamilyFor, renderEnvelope } from '../errors.js';
import type { Logger } from '../logger.js';
import { setFindingsHeader } from './findings.js';
import { BODY_LIMIT_BYTES } from './json-body.js';
import { REFUND_RESULT_INSTEAD, v1QueryHabits, waitsForRefundResult } from '../migration/v1-habits.js';
import { allowedMethods, routePathOf, type Route } from './route.js';

/** Nothing reaches Express's own final handler (HTML, a stack); an error after the answer started only closes the connection. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    try {
      if (res.headersSent) {
        logger.error({ err: error, requestId: res.locals.requestId, path: req.path }, 'error after the answer had started; connection closed');
        res.destroy();
        return;
      }
      const apiError = toApiError(error, req.get('content-encoding'));
      if (apiError.code === 'INTERNAL_ERROR') {
        logger.error({ err: error, requestId: res.locals.requestId, path: req.path }, 'unexpected error');
      }
      const family = res.locals.family ?? envelopeFamilyFor(req.path);
      setFindingsHeader(res);
      res.set(apiError.headers);
      res.status(apiError.status).json(renderEnvelope(family, apiError.code, apiError.messages));
    } catch (failure) {
      logger.error({ err: failure, requestId: res.locals.requestId, path: req.path }, 'the error answer itself failed; connection closed');
      res.destroy();
    }
  };
}

/** body-parser's errors carry a `type`, zlib's a `code`; anything unknown is a 500 whose message reveals nothing. */
export function toApiError(error: unknown, contentEncoding?: string): ApiError {
  if (error instanceof ApiError) return error;
  if (typeof error !== 'object' || error === null) return new ApiError('INTERNAL_ERROR', 'the sandbox failed unexpectedly; its log has the details');
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR_FORMAT') || code.startsWith('ERR_BROTLI'))) {
    const encoding = contentEncoding?.trim() || 'the declared encoding';
    return new ApiError(
      'INVALID_PAYLOAD',
      `body is sent with Content-Encoding: ${encoding} but is not ${encoding} data; send plain UTF-8 JSON without Content-Encoding, or compress it as declared`,
    );
  }
  // Express's router fails to decode a path parameter such as /_sandbox/journal/%C0.
  if (error instanceof URIError) {
    return new ApiError('INVALID_REQUEST', `the path holds a percent-encoding that is not UTF-8 (${error.message}); encode every character of an id as UTF-8 bytes`);
  }
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.too.large') {
    const length = (error as { length?: number }).length;
    const limit = (error as { limit?: number }).limit ?? BODY_LIMIT_BYTES;
    const most = limit === BODY_LIMIT_BYTES ? `1 MiB (${BODY_LIMIT_BYTES} bytes)` : `${limit} bytes for this partner (bodyBytes, a quota of this sandbox)`;
    const size = length === undefined ? (limit === BODY_LIMIT_BYTES ? 'larger than 1 MiB' : `larger than ${limit} bytes`) : `${length} bytes`;
    return new ApiError('PAYLOAD_TOO_LARGE', `body is ${size}; the sandbox accepts at most ${most}`);
  }
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return new ApiError('INVALID_PAYLOAD', `body cannot be read: ${(error as Error).message}; send UTF-8 JSON`);
  }
  if (type === 'request.aborted' || type === 'request.size.invalid') {
    return new ApiError('INVALID_PAYLOAD', `body was not received whole: ${(error as Error).message}`);
  }
  // Any other error that says it is the client's (http-errors marks those `expose`) stays a 400, never a 500.
  const status = (error as { status?: unknown }).status;
  if ((error as { expose?: unknown }).expose === true && typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError('INVALID_PAYLOAD', `body cannot be read: ${(error as Error).message}`);
  }
  return new ApiError('INTERNAL_ERROR', 'the sandbox failed unexpectedly; its log has the details');
}

/** The last route: 405 with Allow for a POS path and another method, else 404; a read of the refund endpoint is v1's wait for a result, and the answer says so. */

export function notFound(routes: ReadonlyArray<Route<never>>): RequestHandler {
  const served = routes.filter((route) => route.api === 'pos').map((route) => `${route.method} ${route.path}`);
  const SERVED = `${served.slice(0, -1).join(', ')} and ${served.at(-1)}`;
  return (req) => {
    // v1's ways of asking what v2 does not serve: a wait for a refund's result, ?action=UpdateOrderState.
    const habits = [...(waitsForRefundResult(req.method, routePathOf(req.path)) ? [REFUND_RESULT_INSTEAD] : []), ...v1QueryHabits(req.query as Record<string, unknown>)];
    const v1 = habits.map((habit) => `; ${habit}`).join('');
    const allowed = allowedMethods(routes, req.path);
    if (allowed.length > 0) {
      throw new ApiError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.path}; use ${allowed.join(' or ')}${v1}`, { headers: { Allow: allowed.join(', ') } });
    }
    throw new ApiError('NOT_FOUND', `no endpoint at ${req.method} ${req.path}; the sandbox serves ${SERVED} under /, /v2 and /v1/pos/openapi${v1}`);
  };
}
