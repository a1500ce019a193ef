/** The common start of a lowercase-envelope POS call (refund, order status): the location header and the checked body. */
import type { Response } from 'express';
import { ApiError } from '../errors.js';
import { locationRequired } from './location-header.js';
import { v1BodyHabits } from '../migration/v1-habits.js';

/** A refusal names this many v1 fields at most: a body of thousands of them makes no longer an answer. */
const MAX_V1_HABITS = 5;

type BodyCheck<R> = { ok: true; request: R; unknownFields: string[] } | { ok: false; problems: string[] };

/** Returns the location and the request, or throws one 400 INVALID_PAYLOAD listing every problem of both. */
export function requireOrderCall<R>(res: Response, checkBody: (value: unknown) => BodyCheck<R>): { locationId: string; request: R; unknownFields: string[] } {
  const locationId = res.locals.locationId;
  const problems: string[] = locationId === undefined ? [locationRequired(res.locals.v1LocationHeader)] : [];
  const body = res.locals.body;
  const check: BodyCheck<R> = body?.ok ? checkBody(body.value) : { ok: false, problems: [body?.problem ?? 'body is missing'] };
  if (!check.ok) problems.push(...check.problems);
  if (locationId === undefined || !check.ok) {
    // A body refused while it carries v1's fields ({"UpdateOrderState": {…}}, CompanyProfileId without the location
    // header) says what v2 wants instead of them, not only what is missing.
    const value = body?.ok ? body.value : undefined;
    const v1 = value !== null && typeof value === 'object' && !Array.isArray(value) ? v1BodyHabits(value as Record<string, unknown>).slice(0, MAX_V1_HABITS) : [];
    throw new ApiError('INVALID_PAYLOAD', [...problems, ...v1.map((habit) => habit.instead)]);
  }
  return { locationId, request: check.request, unknownFields: check.unknownFields };
}
