/** §4.1 rule 1: the only body check of a refund is that ExternalId is present and non-empty. */
import { describeValue as describe } from '../http/describe-value.js';

export interface RefundRequest {
  ExternalId: string;
}

/** The fields §2.1 defines; anything else is a finding, not a rejection. */
export const REFUND_FIELDS = ['ExternalId'] as const;

export type RefundBodyCheck =
  | { ok: true; request: RefundRequest; unknownFields: string[] }
  | { ok: false; problems: string[] };

/** Validates a parsed refund body; every problem is listed. */
export function checkRefundBody(body: unknown): RefundBodyCheck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, problems: [`body must be a JSON object such as {"ExternalId":"..."}, got ${describe(body)}`] };
  }
  const record = body as Record<string, unknown>;
  const externalId = record.ExternalId;
  const unknownFields = Object.keys(record).filter((field) => !(REFUND_FIELDS as readonly string[]).includes(field));
  const problem = externalIdProblem(externalId, unknownFields);
  if (problem) return { ok: false, problems: [problem] };
  return { ok: true, request: { ExternalId: externalId as string }, unknownFields };
}

/**
 * The longest ExternalId taken. The interface sets no length (§8), but an id of a megabyte stored twice per
 * refund made segments the sandbox's own start check refused, and lists of hundreds of megabytes.
 */
export const MAX_EXTERNAL_ID_LENGTH = 256;

export function externalIdTooLong(value: string): string {
  return `ExternalId is ${value.length} characters long; the sandbox accepts at most ${MAX_EXTERNAL_ID_LENGTH} (the ID the POS gave the order)`;
}

function externalIdProblem(value: unknown, unknownFields: string[]): string | undefined {
  if (value === undefined) {
    const nearMiss = unknownFields.find((field) => field.toLowerCase().replace(/[-_]/g, '') === 'externalid');
    const hint = nearMiss ? ` (found '${nearMiss}'; field names are case-sensitive)` : '';
    return `ExternalId is required: the ID the POS returned for the order (§2.1)${hint}`;
  }
  if (typeof value !== 'string') return `ExternalId must be a string, got ${describe(value)}`;
  if (value === '') return 'ExternalId must not be empty';
  if (value.trim() === '') return 'ExternalId must not be blank (it is only white space)';
  if (value.length > MAX_EXTERNAL_ID_LENGTH) return externalIdTooLong(value);
  return undefined;
}
