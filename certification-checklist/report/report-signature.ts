/** Pure: a report folder's manifest and its detached JWS (RFC 7515 appendix F, EdDSA); one signature over the manifest covers every file. */
import { createHash, createPublicKey, sign, verify, type JsonWebKey } from 'node:crypto';
import type { Report } from './report-model.js';
import { REPORT_FILES, type ReportFile } from './render-report-files.js';
import { KID_PATTERN, publicJwkOf, thumbprintOf, type ReportSigner, type SignerKind, type VerificationKey } from './signing-keys.js';

const KID = new RegExp(KID_PATTERN);

/** The files that sign a report folder, beside REPORT_FILES. */
export const SIGNATURE_FILES = ['manifest.json', 'signature.jws', 'statement.jws'] as const;
export type SignatureFile = (typeof SIGNATURE_FILES)[number];

export const MANIFEST_FORMAT = 'pos-sandbox/report-manifest';

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  formatVersion: 1;
  runId: string;
  kind: Report['kind'];
  checklistVersion: string;
  pos: { name: string; version?: string; build?: string };
  partner: string;
  sandbox: { version: string; deployment?: string };
  signer: NonNullable<Report['signer']>;
  startedAt: string;
  finishedAt: string;
  /** sha256 (hex) of each file's bytes, as written. */
  files: Record<ReportFile, string>;
}

/** sha256 (hex) of a file's text as written (UTF-8). */
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The manifest of a report and the texts of its files. */
export function manifestOf(report: Report, files: Record<ReportFile, string>): Manifest {
  const { name, version, build } = report.pos;
  return {
    format: MANIFEST_FORMAT,
    formatVersion: 1,
    runId: report.runId,
    kind: report.kind,
    checklistVersion: report.checklistVersion,
    pos: { name, ...(version === undefined ? {} : { version }), ...(build === undefined ? {} : { build }) },
    partner: report.sandbox.partner,
    sandbox: { version: report.sandboxVersion, ...(report.signer?.deployment === undefined ? {} : { deployment: report.signer.deployment }) },
    signer: report.signer!,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    files: Object.fromEntries(REPORT_FILES.map((file) => [file, sha256Hex(files[file])])) as Record<ReportFile, string>,
  };
}

export const manifestText = (manifest: Manifest): string => `${JSON.stringify(manifest, null, 2)}\n`;

/** `protected..signature`, the payload left out (RFC 7515 appendix F); a self-signed key travels in the header. */
export function signDetached(text: string, signer: ReportSigner): string {
  const header = { alg: 'EdDSA', kid: signer.kid, ...(signer.kind === 'self-signed' ? { jwk: publicJwkOf({ kid: signer.kid, publicKey: signer.publicKey }) } : {}) };
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(text, 'utf8').toString('base64url')}`;
  const signature = sign(null, Buffer.from(input), signer.privateKey).toString('base64url');
  return `${input.slice(0, input.indexOf('.'))}..${signature}`;
}

export type SignatureCheck =
  | { valid: true; kid: string; kind: SignerKind; retired: boolean; retiredAt?: string }
  | { valid: false; kid?: string; kind?: SignerKind; problem: string };

const MAX_HEADER = 4096;

/** A value of a header as JSON, with everything outside printable ASCII escaped: a kid that only looks like one shows. */
const shown = (value: unknown): string => (JSON.stringify(value) ?? 'nothing').replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
const B64URL = /^[A-Za-z0-9_-]*$/;

/** With a key of `keys` by its kid, or the header's own for a self-signed report (integrity only); only EdDSA, so `none` or an HMAC cannot pass a forged folder. */
export function checkDetached(jws: string, text: string, keys: readonly VerificationKey[] | undefined): SignatureCheck {
  const parts = jws.trim().split('.');
  if (parts.length !== 3 || parts[1] !== '' || !parts.every((part) => B64URL.test(part)) || parts[0]!.length > MAX_HEADER) {
    return { valid: false, problem: 'it is not a detached JWS (header..signature, base64url)' };
  }
  let header: { alg?: unknown; kid?: unknown; jwk?: unknown; crit?: unknown };
  try {
    header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as typeof header;
  } catch {
    return { valid: false, problem: 'its header is not JSON' };
  }
  if (header === null || typeof header !== 'object') return { valid: false, problem: 'its header is not a JSON object' };
  const kid = typeof header.kid === 'string' ? header.kid.slice(0, 100) : undefined;
  if (header.alg !== 'EdDSA') return { valid: false, ...(kid ? { kid } : {}), problem: `its alg is ${shown(header.alg)}; a report is signed with EdDSA (Ed25519) only` };
  // RFC 7515 §4.1.11: an extension marked critical that the verifier does not understand fails the signature, and this one understands none.
  if (header.crit !== undefined) return { valid: false, ...(kid ? { kid } : {}), problem: `its header marks ${shown(header.crit)} as critical (crit), extensions this verifier does not understand, so it takes no signature of it (RFC 7515 §4.1.11)` };
  if (kid === undefined) return { valid: false, problem: 'its header names no kid' };
  const named = KID.test(kid) ? kid : shown(kid);
  const kind: SignerKind = header.jwk === undefined ? 'operator' : 'self-signed';
  let key: VerificationKey | undefined;
  if (keys !== undefined) {
    key = keys.find((candidate) => candidate.kid === kid);
    if (!key) return { valid: false, kid, kind, problem: `kid ${named} is not in the key set given (${keys.map((candidate) => candidate.kid).join(', ')})` };
  } else if (kind === 'operator') {
    return { valid: false, kid, kind, problem: `it was signed by kid ${named}, an operator's key: give the deployment's keys (--keys) to check it` };
  } else {
    try {
      const publicKey = createPublicKey({ key: header.jwk as JsonWebKey, format: 'jwk' });
      if (thumbprintOf(publicKey) !== kid) return { valid: false, kid, kind, problem: `the key in its header is not kid ${named} (a self-signed kid is its key's RFC 7638 thumbprint)` };
      key = { kid, publicKey, retired: false };
    } catch (error) {
      return { valid: false, kid, kind, problem: `the key in its header cannot be read (${(error as Error).message})` };
    }
  }
  const input = `${parts[0]}.${Buffer.from(text, 'utf8').toString('base64url')}`;
  let good: boolean;
  try {
    good = verify(null, Buffer.from(input), key.publicKey, Buffer.from(parts[2]!, 'base64url'));
  } catch {
    good = false;
  }
  if (!good) return { valid: false, kid, kind, problem: `the signature of kid ${named} does not match` };
  return { valid: true, kid, kind, retired: key.retired, ...(key.retiredAt === undefined ? {} : { retiredAt: key.retiredAt }) };
}
