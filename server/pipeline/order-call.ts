/** The common start of a lowercase-envelope POS call (refund, order status): the location header and the checked body. */
import type { Response } from 'express';
import { ApiError } from '../errors.js';
import { locationRequired } from '../domain/location-header.js';

type BodyCheck<R> = { ok: true; request: R; unknownFields: string[] } | { ok: false; problems: string[] };

/** Returns the location and the request, or throws one 400 INVALID_PAYLOAD listing every problem of both. */
export function requireOrderCall<R>(res: Response, checkBody: (value: unknown) => BodyCheck<R>): { locationId: string; request: R; unknownFields: string[] } {
  const locationId = res.locals.locationId;
  const problems: string[] = locationId === undefined ? [locationRequired(res.locals.v1LocationHeader)] : [];
  const body = res.locals.body;
  const check: BodyCheck<R> = body?.ok ? checkBody(body.value) : { ok: false, problems: [body?.problem ?? 'body is missing'] };
  if (!check.ok) problems.push(...check.problems);
  if (locationId === undefined || !check.ok) throw new ApiError('INVALID_PAYLOAD', problems);
  return { locationId, request: check.request, unknownFields: check.unknownFields };
}
