/** The one error handler: every failure leaves in the envelope of its endpoint family, never as HTML or a stack. */
import type { ErrorRequestHandler } from 'express';
import { ApiError, envelopeFamilyFor, renderEnvelope } from '../errors.js';
import type { Logger } from '../logger.js';
import { setFindingsHeader } from './findings.js';
import { BODY_LIMIT_BYTES } from './json-body.js';

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const apiError = toApiError(error);
    if (apiError.code === 'INTERNAL_ERROR') {
      logger.error({ err: error, requestId: res.locals.requestId, path: req.path }, 'unexpected error');
    }
    const family = res.locals.family ?? envelopeFamilyFor(req.path);
    setFindingsHeader(res);
    res.set(apiError.headers);
    res.status(apiError.status).json(renderEnvelope(family, apiError.code, apiError.messages));
  };
}

/** body-parser's own errors carry a `type`; everything unknown becomes a 500 whose message reveals nothing. */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.too.large') {
    const length = (error as { length?: number }).length;
    const size = length === undefined ? 'larger than 1 MiB' : `${length} bytes`;
    return new ApiError('PAYLOAD_TOO_LARGE', `body is ${size}; the sandbox accepts at most 1 MiB (${BODY_LIMIT_BYTES} bytes)`);
  }
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return new ApiError('INVALID_PAYLOAD', `body cannot be read: ${(error as Error).message}; send UTF-8 JSON`);
  }
  if (type === 'request.aborted' || type === 'request.size.invalid') {
    return new ApiError('INVALID_PAYLOAD', `body was not received whole: ${(error as Error).message}`);
  }
  return new ApiError('INTERNAL_ERROR', 'the sandbox failed unexpectedly; its log has the details');
}
