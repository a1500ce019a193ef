/**
 * Notes the x-api-key and version headers the v2 migration notes ask for (§5), and v1's habits in the query and the
 * headers (§9): a version header naming v1, CompanyProfileId or UpdateOrderState in the query, a refund asking to
 * wait for its result. Findings, not rejections: v2 understands the call all the same.
 */
import type { RequestHandler } from 'express';
import { finding, migrationHeaderFindings, VERSION_HEADERS } from '../http/findings.js';
import { v1HeaderHabits, v1QueryHabits } from './v1-habits.js';
import { addFindings } from '../http/findings-header.js';

const REFUND_PATH = /\/order\/refund\/*$/i;

export const noteMigrationHeaders: RequestHandler = (req, res, next) => {
  addFindings(res, migrationHeaderFindings(req.headers));
  const habits = v1HeaderHabits(req.headers, VERSION_HEADERS, REFUND_PATH.test(req.path));
  // A target without a query has no query habits: reading req.query parses it (Express's query parser, per call).
  if (req.url.includes('?')) habits.push(...v1QueryHabits(req.query as Record<string, unknown>));
  addFindings(res, habits.map((habit) => finding('V1_HABIT', habit)));
  next();
};
