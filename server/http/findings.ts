/** Findings: what the real service may tolerate but the interface says not to do; one rejects a request only under --strict. */
import { v1BodyHabits } from '../migration/v1-habits.js';
import type { Response } from 'express';
import { ApiError } from '../errors.js';

/** `token` findings are about the JWT (strict mode answers 401), `request` findings about headers and body (400). */
export type FindingKind = 'token' | 'request';

export interface Finding {
  code: FindingCode;
  message: string;
  /** Where in interface-v2.md the rule comes from. */
  section: string;
}

const CATALOGUE = {
  SUB_LOCATION_MISMATCH: { kind: 'token', section: '§5' },
  JTI_REUSED: { kind: 'token', section: '§5' },
  TOKEN_LIFETIME_OVER_1H: { kind: 'token', section: '§5' },
  API_KEY_HEADER_MISSING: { kind: 'request', section: '§5 migration notes' },
  VERSION_HEADER_MISSING: { kind: 'request', section: '§5 migration notes' },
  UNKNOWN_FIELD: { kind: 'request', section: '§2.1' },
  DUPLICATE_REFUND: { kind: 'request', section: '§4.1' },
  UNDOCUMENTED_VALUE: { kind: 'request', section: '§2.2' },
  FULL_MENU_UPDATE: { kind: 'request', section: '§4.2 rule 2' },
  MENU_PAYLOAD_OVER_64KIB: { kind: 'request', section: '§4.2 rule 3, §8' },
  PRICE_UNIT_SUSPECT: { kind: 'request', section: '§2.2' },
  WRONG_BRAND_LOCATION: { kind: 'request', section: '§1 (Hub), sandbox rule' },
  EXTERNAL_ID_CHANGED: { kind: 'request', section: '§2.1, sandbox rule' },
  EXTERNAL_ID_REUSED: { kind: 'request', section: '§2.1' },
  DUPLICATE_NOT_IDEMPOTENT: { kind: 'request', section: '§9 (RequestId), sandbox rule' },
  FORGED_TOKEN_ACCEPTED: { kind: 'token', section: '§5, sandbox rule' },
  V1_HABIT: { kind: 'request', section: '§9' },
} as const satisfies Record<string, { kind: FindingKind; section: string }>;

export type FindingCode = keyof typeof CATALOGUE;

export const FINDING_CODES = Object.keys(CATALOGUE) as FindingCode[];

/** Builds a finding with its § reference from the catalogue. */
export function finding(code: FindingCode, message: string): Finding {
  return { code, message, section: CATALOGUE[code].section };
}

/** How --strict words a finding it turns into an error. */
export function strictMessage(found: Finding): string {
  return `strict mode: ${found.code}: ${found.message} (${found.section})`;
}

export function findingKind(code: FindingCode): FindingKind {
  return CATALOGUE[code].kind;
}

/** Longest token lifetime (exp − nbf) that draws no finding. */
export const MAX_TOKEN_LIFETIME_S = 3600;

/** Header names the sandbox takes as "the version header"; §5 names no header and no value. */
export const VERSION_HEADERS = ['x-api-version', 'api-version', 'x-version', 'version'] as const;

/** Findings about the headers every v2 request should carry (§5 migration notes). */
export function migrationHeaderFindings(headers: Record<string, string | string[] | undefined>): Finding[] {
  const found: Finding[] = [];
  if (!present(headers['x-api-key'])) {
    found.push(finding('API_KEY_HEADER_MISSING', 'header x-api-key is missing; the v2 migration notes say every request carries it'));
  }
  if (!VERSION_HEADERS.some((name) => present(headers[name]))) {
    found.push(
      finding(
        'VERSION_HEADER_MISSING',
        `no version header; the v2 migration notes say every request carries one (the sandbox looks for ${VERSION_HEADERS.join(', ')})`,
      ),
    );
  }
  return found;
}

/** Finding when the token's sub (its location) is not the location the request is for. */
export function subLocationFindings(sub: string, locationId: string | undefined): Finding[] {
  if (locationId === undefined || sub === locationId) return [];
  return [
    finding(
      'SUB_LOCATION_MISMATCH',
      `token sub is '${sub}' but header x-service-locationid is '${locationId}'; sub must be the location identifier`,
    ),
  ];
}

/** Finding when a token is valid for longer than an hour. */
export function lifetimeFindings(nbf: number, exp: number): Finding[] {
  const lifetime = exp - nbf;
  if (lifetime <= MAX_TOKEN_LIFETIME_S) return [];
  return [
    finding(
      'TOKEN_LIFETIME_OVER_1H',
      `token is valid for ${lifetime} s (exp − nbf); keep tokens short-lived, at most ${MAX_TOKEN_LIFETIME_S} s`,
    ),
  ];
}

/** Unknown fields listed one finding each; past this many, one more finding counts the rest. */
export const MAX_UNKNOWN_FIELD_FINDINGS = 10;

/** At most MAX_UNKNOWN_FIELD_FINDINGS: each finding is kept in the journal, and a body of a hundred thousand unknown fields ran the process out of memory. */
export function unknownFieldFindings(fields: string[], where: string, body?: unknown): Finding[] {
  // A v1 habit among them says what v2 wants instead, even nested in an unknown field.
  const habits = body !== null && typeof body === 'object' && !Array.isArray(body) ? v1BodyHabits(body as Record<string, unknown>).filter((habit) => fields.includes(habit.field)) : [];
  const v1 = habits.map((habit) => finding('V1_HABIT', habit.instead));
  const others = fields.filter((field) => !habits.some((habit) => habit.at === field));
  return [...v1.slice(0, MAX_UNKNOWN_FIELD_FINDINGS), ...unknownOnly(others, where)];
}

function unknownOnly(fields: string[], where: string): Finding[] {
  const named = (field: string) => (field.length > 100 ? `${field.slice(0, 100)}…` : field);
  const listed = fields
    .slice(0, MAX_UNKNOWN_FIELD_FINDINGS)
    .map((field) => finding('UNKNOWN_FIELD', `${named(field)} is not a field of ${where}; the service ignores or rejects unknown fields`));
  const rest = fields.length - MAX_UNKNOWN_FIELD_FINDINGS;
  if (rest > 0) listed.push(finding('UNKNOWN_FIELD', `${rest} more fields are not fields of ${where} either; only the first ${MAX_UNKNOWN_FIELD_FINDINGS} are listed`));
  return listed;
}

function present(value: string | string[] | undefined): boolean {
  if (Array.isArray(value)) return value.some((v) => v.trim() !== '');
  return value !== undefined && value.trim() !== '';
}

/** Collecting a request's findings, the x-sandbox-findings header, and --strict. */

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

/** Under --strict every finding is a rejection: 401 when one is about the token, else 400 with the family's validation code. */
export function enforceStrict(res: Response, strict: boolean): void {
  const found = res.locals.findings ?? [];
  if (!strict || found.length === 0) return;
  const messages = found.map(strictMessage);
  if (found.some((f) => findingKind(f.code) === 'token')) throw new ApiError('UNAUTHORIZED', messages);
  throw new ApiError(res.locals.family === 'menu' ? 'VALIDATION_ERROR' : 'INVALID_PAYLOAD', messages);
}
