/** Pure: the Ed25519 keys reports are signed with and their public JWKs: the operator's, or a sandbox's own, named by its RFC 7638 thumbprint. */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';

/** Who holds the key a report was signed with: the service's operator, or the partner's own machine. */
export type SignerKind = 'operator' | 'self-signed';

/** A key that verifies: published in the JWKS while it is in the set, `retired` once it no longer signs. */
export interface VerificationKey {
  kid: string;
  publicKey: KeyObject;
  retired: boolean;
  /** When it stopped signing (ISO 8601), if the operator said: a report it signed after that is refused. */
  retiredAt?: string;
}

/** What signs a sandbox's reports. A `deployment` names an operator's sandbox; a self-signed key has none. */
export interface ReportSigner {
  kind: SignerKind;
  deployment?: string;
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** The keys a sandbox publishes and the one it signs with. */
export interface ReportKeys {
  signer: ReportSigner;
  /** Every key still valid for verification, the signer's among them. */
  keys: VerificationKey[];
}

export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
  /** Not of RFC 7517 (whose readers ignore members they do not know): the key verifies reports, and signs none any more. */
  retired?: true;
  /** Not of RFC 7517 either: since when, if the operator said. */
  retiredAt?: string;
}

/** Where a sandbox publishes its keys (RFC 8615's well-known place, the name OpenID Connect gave the set). */
export const JWKS_PATH = '/.well-known/jwks.json';

/** kids a JWKS may hold: printable, no spaces or quotes, so a kid shows as it is in every message. */
export const KID_PATTERN = '^[A-Za-z0-9_-][A-Za-z0-9._:-]{0,99}$';
const KID = new RegExp(KID_PATTERN);

/** The public key's `x`, when it is an Ed25519 key. */
function ed25519X(key: KeyObject): string | undefined {
  if (key.asymmetricKeyType !== 'ed25519') return undefined;
  return (key.export({ format: 'jwk' }) as { x?: string }).x;
}

/** RFC 7638: sha256 over the key's required members in order, base64url. */
export function thumbprintOf(publicKey: KeyObject): string {
  const x = ed25519X(publicKey);
  if (x === undefined) throw new Error('not an Ed25519 key');
  return createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');
}

export function publicJwkOf(key: Pick<VerificationKey, 'kid' | 'publicKey'> & { retired?: boolean; retiredAt?: string }): PublicJwk {
  return {
    kty: 'OKP',
    crv: 'Ed25519',
    x: ed25519X(key.publicKey)!,
    kid: key.kid,
    alg: 'EdDSA',
    use: 'sig',
    ...(key.retired ? { retired: true as const } : {}),
    ...(key.retired && key.retiredAt !== undefined ? { retiredAt: key.retiredAt } : {}),
  };
}

/** The set a sandbox publishes at /.well-known/jwks.json: public members only, whatever the keys were read from. */
export function jwksOf(keys: readonly VerificationKey[]): { keys: PublicJwk[] } {
  return { keys: keys.map(publicJwkOf) };
}

/** A signer of reports on this machine: the key names itself, and the reports say they prove integrity only. */
export function selfSigner(privateKey: KeyObject): ReportKeys {
  const publicKey = createPublicKey(privateKey);
  const kid = thumbprintOf(publicKey);
  return { signer: { kind: 'self-signed', kid, privateKey, publicKey }, keys: [{ kid, publicKey, retired: false }] };
}

/** The most keys a set given to `verify-report --keys` is read for. */
const MAX_KEYS = 100;

/** A JWKS (a file or a deployment's /.well-known/jwks.json) or one JWK; every key that cannot verify a report is named with why. */
export function keysFromJwks(value: unknown): { keys: VerificationKey[] } | { problem: string } {
  const list = Array.isArray((value as { keys?: unknown })?.keys) ? ((value as { keys: unknown[] }).keys) : value !== null && typeof value === 'object' && 'kty' in value ? [value] : undefined;
  if (list === undefined) return { problem: 'it is not a JWKS (an object with a "keys" array) nor a single JWK' };
  if (list.length === 0) return { problem: 'it holds no key' };
  if (list.length > MAX_KEYS) return { problem: `it holds ${list.length} keys; a set is read for at most ${MAX_KEYS}` };
  const keys: VerificationKey[] = [];
  const problems: string[] = [];
  list.forEach((jwk, at) => {
    const { kty, crv, x, kid, d, retired, retiredAt } = (jwk ?? {}) as Record<string, unknown>;
    const where = `keys[${at}]${typeof kid === 'string' ? ` (kid ${JSON.stringify(kid.slice(0, 100))})` : ''}`;
    if (d !== undefined) return problems.push(`${where} holds a private key ("d"): a key set to verify with holds public keys only; give the JWKS the sandbox publishes`);
    if (kty !== 'OKP' || crv !== 'Ed25519' || typeof x !== 'string') return problems.push(`${where} is not an Ed25519 public key (kty OKP, crv Ed25519, x)`);
    if (typeof kid !== 'string' || !KID.test(kid)) return problems.push(`${where} has no kid of letters, digits and . _ : -`);
    try {
      const publicKey = createPublicKey({ key: { kty, crv, x }, format: 'jwk' });
      const since = typeof retiredAt === 'string' && !Number.isNaN(Date.parse(retiredAt)) ? { retiredAt } : {};
      keys.push({ kid, publicKey, retired: retired === true, ...(retired === true ? since : {}) });
    } catch (error) {
      problems.push(`${where} cannot be read as a key (${(error as Error).message})`);
    }
  });
  if (problems.length > 0) return { problem: problems.join('; ') };
  const kids = keys.map((key) => key.kid);
  const twice = kids.find((kid, at) => kids.indexOf(kid) !== at);
  if (twice !== undefined) return { problem: `kid ${twice} names two keys` };
  return { keys };
}
