/** Notes the x-api-key and version headers the v2 migration notes ask for (§5); findings, not rejections. */
import type { RequestHandler } from 'express';
import { migrationHeaderFindings } from '../domain/findings.js';
import { addFindings } from './findings.js';

export const noteMigrationHeaders: RequestHandler = (req, res, next) => {
  addFindings(res, migrationHeaderFindings(req.headers));
  next();
};
