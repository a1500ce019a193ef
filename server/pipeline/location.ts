/** Reads x-service-locationid (§4) and compares it with the token's sub. */
import type { RequestHandler } from 'express';
import { subLocationFindings } from '../domain/findings.js';
import { LOCATION_HEADER } from '../domain/location-header.js';
import { addFindings } from './findings.js';

export const readLocation: RequestHandler = (req, res, next) => {
  const value = req.get(LOCATION_HEADER)?.trim();
  res.locals.locationId = value === '' ? undefined : value;
  if (res.locals.token) addFindings(res, subLocationFindings(res.locals.token.claims.sub, res.locals.locationId));
  next();
};
