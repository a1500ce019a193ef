/** Reads x-service-locationid (§4) and compares it with the token's sub. */
import type { RequestHandler } from 'express';
import { finding, subLocationFindings } from './findings.js';
import { LOCATION_HEADER } from './location-header.js';
import { companyProfileIdHeader, companyProfileIdHeaderOf } from '../migration/v1-habits.js';
import { addFindings } from './findings-header.js';

export const readLocation: RequestHandler = (req, res, next) => {
  const value = req.get(LOCATION_HEADER)?.trim();
  res.locals.locationId = value === '' ? undefined : value;
  if (res.locals.token) addFindings(res, subLocationFindings(res.locals.token.claims.sub, res.locals.locationId));
  // v1's location header: in place of x-service-locationid v2 cannot tell the location (the refusal says why);
  // beside it, v2 reads x-service-locationid and the v1 header is a habit to drop.
  const v1 = companyProfileIdHeaderOf(req.headers);
  if (v1 !== undefined && res.locals.locationId === undefined) res.locals.v1LocationHeader = v1;
  else if (v1 !== undefined) addFindings(res, [finding('V1_HABIT', `${companyProfileIdHeader(v1)}; v2 reads the x-service-locationid this call also carries`)]);
  next();
};
