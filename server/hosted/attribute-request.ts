/** Pure: which partner a request to a hosted sandbox belongs to (docs/hosting.md): a POS call by its signed iss, a control call by its admin token (or the operator's with x-sandbox-partner); the rest is refused in the envelope of its path. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorCode } from '../errors.js';
import { CONTROL_MOUNT } from '../control/control-api.js';
import { routeFinder } from '../http/route.js';
import { ROUTES } from '../routes.js';
import { checkAuthorizationHeader } from '../tokens/pos-token-rules.js';
import { decodeJsonPart } from '../http/json-text.js';
import { createSecretKey, type KeyObject } from 'node:crypto';

export const PARTNER_HEADER = 'x-sandbox-partner';

export type Attribution =
  /** `authorization`: the header the partner's sandbox is to see in place of the one sent (an operator's call). */
  | { to: 'partner'; name: string; authorization?: string }
  /** The dashboard's files: any partner's sandbox serves them alike. */
  | { to: 'any' }
  /** The operator's own reads: the partners, their health. */
  | { to: 'operator' }
  /** What anyone may read, with no partner: the report keys (/.well-known/jwks.json). */
  | { to: 'public' }
  /** Refused before any partner: a POS call's 401 (or 404/405 for a path that is none) or a control call's refusal. */
  | { to: 'nobody'; code: ErrorCode; messages: string[]; detail?: string };

/** The partners' names and tokens, kept as digests and compared in constant time, and their keys, to judge signatures. */
export class PartnerBook {
  private readonly admins: Array<{ name: string; digest: Buffer; token: string }>;
  private readonly operator: Buffer | undefined;
  private readonly keys: Map<string, KeyObject>;
  readonly names: ReadonlySet<string>;

  /** Refusals say whether an iss is a partner here; by default an unknown iss and a partner's with another key get one answer. */
  readonly tellUnknownPartners: boolean;

  constructor(partners: ReadonlyArray<{ name: string; adminToken: string; nonProdKey?: string }>, operatorToken: string | undefined, options: { tellUnknownPartners?: boolean } = {}) {
    this.tellUnknownPartners = options.tellUnknownPartners === true;
    this.admins = partners.map((partner) => ({ name: partner.name, digest: digest(partner.adminToken), token: partner.adminToken }));
    this.operator = operatorToken === undefined ? undefined : digest(operatorToken);
    this.names = new Set(partners.map((partner) => partner.name));
    this.keys = new Map(partners.flatMap((partner) => (partner.nonProdKey === undefined ? [] : [[partner.name, createSecretKey(Buffer.from(partner.nonProdKey, 'utf8'))] as const])));
  }

  /** The key of a partner, when the book was given it. */
  keyOf(name: string): KeyObject | undefined {
    return this.keys.get(name);
  }

  /** The partner whose admin token this is; every token is compared, so the time says nothing of which matched. */
  partnerOfToken(token: string): string | undefined {
    const sent = digest(token);
    let found: string | undefined;
    for (const admin of this.admins) if (timingSafeEqual(sent, admin.digest)) found = admin.name;
    return found;
  }

  isOperator(token: string): boolean {
    return this.operator !== undefined && timingSafeEqual(digest(token), this.operator);
  }

  adminTokenOf(name: string): string | undefined {
    return this.admins.find((admin) => admin.name === name)?.token;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export interface RequestHead {
  method: string;
  /** The request target's path (no query). */
  path: string;
  headers: IncomingHttpHeaders;
}

/** The dashboard's files and readiness, which hold no data; what the operator reads itself; the operator's alone; anyone's. */
const anyPartner = routeFinder(ROUTES.filter((route) => route.api === 'page' || (route.api === 'control' && route.hosted === 'any')));
const operatorReads = routeFinder(ROUTES.filter((route) => route.api === 'control' && route.operator !== undefined));
const operatorOnly = routeFinder(ROUTES.filter((route) => route.api === 'operator'), true);
const open = routeFinder(ROUTES.filter((route) => route.api === 'public'), true);

export function attributeRequest(request: RequestHead, book: PartnerBook): Attribution {
  const { method, path } = request;
  if (anyPartner(method, path)) return { to: 'any' };
  const lower = path.toLowerCase();
  if (lower === CONTROL_MOUNT || lower.startsWith(`${CONTROL_MOUNT}/`)) return attributeControlCall(request, book);
  if (operatorOnly(method, path)) return attributeMetrics(request.headers.authorization, book);
  if (open(method, path)) return { to: 'public' };
  return attributePosCall(request.headers.authorization, book);
}

function attributeControlCall(request: RequestHead, book: PartnerBook): Attribution {
  const token = /^\s*Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
  const named = headerValue(request.headers[PARTNER_HEADER]);
  const owner = token === undefined ? undefined : book.partnerOfToken(token);
  if (owner !== undefined) {
    if (named !== undefined && named !== owner) {
      return { to: 'nobody', code: 'FORBIDDEN', messages: [`this admin token is partner '${owner}''s: it cannot act for ${PARTNER_HEADER}: '${named}'`] };
    }
    return { to: 'partner', name: owner };
  }
  if (token !== undefined && book.isOperator(token)) {
    if (named === undefined) {
      if (operatorReads(request.method, request.path)) return { to: 'operator' };
      return { to: 'nobody', code: 'INVALID_REQUEST', messages: [`the operator's token acts for one partner at a time: name it in the header ${PARTNER_HEADER} (GET /_sandbox/partners lists them)`] };
    }
    if (!book.names.has(named)) return { to: 'nobody', code: 'INVALID_REQUEST', messages: [`${PARTNER_HEADER} names no partner of this sandbox ('${named}'); GET /_sandbox/partners lists them`] };
    return { to: 'partner', name: named, authorization: `Bearer ${book.adminTokenOf(named)}` };
  }
  return {
    to: 'nobody',
    code: 'UNAUTHORIZED',
    messages: [`this sandbox hosts several partners: its control API needs Authorization: Bearer <your partner's admin token>, or the operator's token with ${PARTNER_HEADER}: <partner>`],
  };
}

/** GET /metrics: the operator's alone. A partner's admin token is refused as such (403), no token as none (401). */
function attributeMetrics(authorization: string | undefined, book: PartnerBook): Attribution {
  const token = /^\s*Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
  if (token !== undefined && book.isOperator(token)) return { to: 'operator' };
  if (token !== undefined && book.partnerOfToken(token) !== undefined) {
    return { to: 'nobody', code: 'FORBIDDEN', messages: ["GET /metrics is the operator's: it counts every partner of this instance, and a partner's admin token does not read it"] };
  }
  return { to: 'nobody', code: 'UNAUTHORIZED', messages: ["GET /metrics needs Authorization: Bearer <the operator's token> (the partners file's operatorToken)"] };
}

/** A key no partner has: the token's structure is judged with it, which does not depend on the key. */
const NO_KEY = createSecretKey(Buffer.from('no partner has this key; only the structure is judged'));

function attributePosCall(authorization: string | undefined, book: PartnerBook): Attribution {
  // The iss counts only with the partner's signature: anyone can write an iss, and a stranger's call must not spend a partner's quota or fill its journal.
  const token = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '';
  const iss = decodeJsonPart(token.split('.')[1] ?? '')?.iss;
  if (typeof iss === 'string' && book.names.has(iss)) {
    const key = book.keyOf(iss);
    if (key === undefined) return { to: 'partner', name: iss };
    const check = checkAuthorizationHeader(authorization, { key, posName: iss, nowSeconds: 0 });
    const unsigned = !check.ok && check.defects.find((defect) => defect.part === 'authorization' || defect.part === 'alg' || defect.part === 'payload' || defect.part === 'signature');
    if (!unsigned) return { to: 'partner', name: iss };
    if (unsigned.part === 'signature' && !book.tellUnknownPartners) return { to: 'nobody', code: 'UNAUTHORIZED', messages: [oneAnswer(iss)], detail: unsigned.message };
    return { to: 'nobody', code: 'UNAUTHORIZED', messages: [unsigned.message] };
  }
  const check = checkAuthorizationHeader(authorization, { key: NO_KEY, posName: '', nowSeconds: 0 });
  // The header's form, the token's parts, alg and payload are judged before the signature, alike for every partner.
  if (!check.ok && check.defects.some((defect) => defect.part === 'authorization' || defect.part === 'alg' || defect.part === 'payload')) {
    return { to: 'nobody', code: 'UNAUTHORIZED', messages: check.defects.map((defect) => defect.message) };
  }
  if (typeof iss !== 'string' || iss.trim() === '') {
    return { to: 'nobody', code: 'UNAUTHORIZED', messages: ['token claim iss is missing or not a string: it must be your POS name, by which this sandbox knows whose key signed the token (§5)'] };
  }
  const unknown = `token iss is '${iss}', which is no POS partner of this sandbox: iss must be your POS name as registered here (§5)`;
  if (!book.tellUnknownPartners) return { to: 'nobody', code: 'UNAUTHORIZED', messages: [oneAnswer(iss)], detail: unknown };
  return { to: 'nobody', code: 'UNAUTHORIZED', messages: [unknown] };
}

/** The answer to a token of an unknown iss and to one of a partner's iss signed with another key alike: a caller cannot tell the partners' names from it. */
function oneAnswer(iss: string): string {
  return `token iss is '${iss}', and no POS partner of that name here has a non-prod key that verifies the token: iss must be your POS name as registered here, the token signed with its non-prod key (a production key, another partner's, or a mistyped one?) (§5)`;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first.trim() === '' ? undefined : first.trim();
}
