/** What the pipeline stages leave for the next ones on `res.locals`. */
import type { EnvelopeFamily } from '../errors.js';
import type { Finding } from './findings.js';
import type { MenuUpdateOutcome } from '../menus/apply-menu-update.js';
import type { ParsedBody } from './json-text.js';
import type { TokenDefect, VerifiedPosToken } from '../tokens/pos-token-rules.js';
import type { JournalFault } from '../journal/journal-entry.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      requestId: string;
      /** The journal entry this request will be, named in x-sandbox-journal-id. */
      journalId?: string;
      family?: EnvelopeFamily;
      token?: VerifiedPosToken;
      /** Why the token was refused (401), each defect with the part of the call it is about. */
      tokenDefects?: TokenDefect[];
      /** The trimmed x-service-locationid header, when present. */
      locationId?: string;
      /** v1's CompanyProfileId header, sent in place of a missing x-service-locationid: the refusal names it (§9). */
      v1LocationHeader?: string;
      body?: ParsedBody;
      /** A body that could not be read (too large, a bad charset …): raised after authentication. */
      bodyError?: unknown;
      findings?: Finding[];
      /** What an accepted PUT /menu changed, for the journal. */
      menuUpdate?: MenuUpdateOutcome;
      /** The order a POST /order/status (or a refund) is about, for the journal. */
      orderId?: string;
      /** The fault that answered (or delayed) this request. */
      fault?: JournalFault;
      /** Set when a hang fault held the request as long as a hang holds, and the sandbox closed it. */
      hangEnded?: number;
    }
  }
}

export {};
