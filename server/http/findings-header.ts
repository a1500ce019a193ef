/** Collecting a request's findings, the x-sandbox-findings header, and --strict. */
import type { Response } from 'express';
import { ApiError } from '../errors.js';
import { findingKind, strictMessage, type Finding } from './findings.js';

export const FINDINGS_HEADER = 'x-sandbox-findings';

export function addFindings(res: Response, found: Finding[]): void {
  // Most stages find nothing: no new array for them.
  if (found.length === 0 && res.locals.findings !== undefined) return;
  res.locals.findings = [...(res.locals.findings ?? []), ...found];
}

/** Sets x-sandbox-findings on a POS API response (the count, 0 included). */
export function setFindingsHeader(res: Response): void {
  if (res.locals.findings !== undefined && !res.headersSent) res.set(FINDINGS_HEADER, String(res.locals.findings.length));
}

/**
 * Under --strict every finding is a rejection: 401 UNAUTHORIZED when one is about the token,
 * otherwise 400 with the family's validation code.
 */
export function enforceStrict(res: Response, strict: boolean): void {
  const found = res.locals.findings ?? [];
  if (!strict || found.length === 0) return;
  const messages = found.map(strictMessage);
  if (found.some((f) => findingKind(f.code) === 'token')) throw new ApiError('UNAUTHORIZED', messages);
  throw new ApiError(res.locals.family === 'menu' ? 'VALIDATION_ERROR' : 'INVALID_PAYLOAD', messages);
}
