/** The headers §5 asks for, and v1's habits in the query and headers (§9): findings, not refusals. */
import type { RequestHandler } from 'express';
import { addFindings, finding, migrationHeaderFindings, VERSION_HEADERS } from '../http/findings.js';
import { v1HeaderHabits, v1QueryHabits } from './v1-habits.js';

const REFUND_PATH = /\/order\/refund\/*$/i;

export const noteMigrationHeaders: RequestHandler = (req, res, next) => {
  addFindings(res, migrationHeaderFindings(req.headers));
  const habits = v1HeaderHabits(req.headers, VERSION_HEADERS, REFUND_PATH.test(req.path));
  // A target without a query has no query habits: reading req.query parses it (Express's query parser, per call).
  if (req.url.includes('?')) habits.push(...v1QueryHabits(req.query as Record<string, unknown>));
  addFindings(res, habits.map((habit) => finding('V1_HABIT', habit)));
  next();
};
