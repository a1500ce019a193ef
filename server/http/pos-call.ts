/** Reads x-service-locationid (§4) and compares it with the token's sub. */
import type { RequestHandler, Response } from 'express';
import { finding, subLocationFindings, addFindings } from './findings.js';
import { companyProfileIdHeader, companyProfileIdHeaderOf, v1BodyHabits } from '../migration/v1-habits.js';
import { ApiError } from '../errors.js';

export const readLocation: RequestHandler = (req, res, next) => {
  const value = req.get(LOCATION_HEADER)?.trim();
  res.locals.locationId = value === '' ? undefined : value;
  if (res.locals.token) addFindings(res, subLocationFindings(res.locals.token.claims.sub, res.locals.locationId));
  // v1's location header in place of x-service-locationid leaves the location unknown (the refusal says why); beside it, it is a habit to drop.
  const v1 = companyProfileIdHeaderOf(req.headers);
  if (v1 !== undefined && res.locals.locationId === undefined) res.locals.v1LocationHeader = v1;
  else if (v1 !== undefined) addFindings(res, [finding('V1_HABIT', `${companyProfileIdHeader(v1)}; v2 reads the x-service-locationid this call also carries`)]);
  next();
};

/** The location header every POS call carries (§4), and the message when it is missing. */

export const LOCATION_HEADER = 'x-service-locationid';
export const LOCATION_REQUIRED = `header ${LOCATION_HEADER} is required: the identifier of the merchant location (§4)`;

/** The missing-header message; `v1Header`: the v1 CompanyProfileId header the call carries instead, named so. */
export const locationRequired = (v1Header: string | undefined): string => (v1Header === undefined ? LOCATION_REQUIRED : `${LOCATION_REQUIRED}; ${companyProfileIdHeader(v1Header)}`);

/** The common start of a lowercase-envelope POS call (refund, order status): the location header and the checked body. */

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
    // A body refused while it carries v1's fields also says what v2 wants instead of them.
    const value = body?.ok ? body.value : undefined;
    const v1 = value !== null && typeof value === 'object' && !Array.isArray(value) ? v1BodyHabits(value as Record<string, unknown>).slice(0, MAX_V1_HABITS) : [];
    throw new ApiError('INVALID_PAYLOAD', [...problems, ...v1.map((habit) => habit.instead)]);
  }
  return { locationId, request: check.request, unknownFields: check.unknownFields };
}
