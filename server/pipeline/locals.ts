/** What the pipeline stages leave for the next ones on `res.locals`. */
import type { EnvelopeFamily } from '../errors.js';
import type { Finding } from '../domain/findings.js';
import type { VerifiedPosToken } from '../domain/pos-token-rules.js';

/** The body as read off the wire: a parsed JSON value, or the reason it is not one. */
export type ParsedBody = { ok: true; value: unknown; bytes: number } | { ok: false; problem: string; bytes: number };

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      requestId: string;
      /** The journal entry this request will be, named in x-sandbox-journal-id. */
      journalId?: string;
      family?: EnvelopeFamily;
      token?: VerifiedPosToken;
      /** The trimmed x-service-locationid header, when present. */
      locationId?: string;
      body?: ParsedBody;
      findings?: Finding[];
    }
  }
}

export {};
