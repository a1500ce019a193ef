/**
 * Pure: taking secrets out of text and of JSON values. The partner's key and any token passed in are replaced
 * wherever they appear; a JWT anywhere keeps its header and claims (they are what a POS engineer debugs) but
 * loses its signature; a signature the sandbox has seen before is replaced even when it travels alone.
 */

/** What replaces a secret. */
export const REDACTED = '[redacted]';

/**
 * Runs of base64url characters and dots: where a JWT can hide. One character class, so every position is read
 * once: a pattern such as `X+(\.X*)+` backtracks over a long run that has no dot, quadratic in its length (a
 * 1 MiB body held the process for minutes under the fuzzer).
 */
const DOTTED_RUN = /[A-Za-z0-9_.-]+/g;
/** Runs long enough to be a signature (HS256 gives 43 characters). */
const BASE64URL_RUN = /[A-Za-z0-9_-]{16,}/g;
/** Secrets shorter than this are not searched for: a 3-character key would redact every word that holds it. */
export const MIN_SECRET_LENGTH = 8;

/**
 * Every JWT in `text` with its signature replaced. A JWT is dot-separated base64url parts: a part that decodes
 * to JSON (the claims, or the header) followed by one that does not is a signature. Judging by the claims
 * finds a token glued to a prefix (`tok_eyJ…`), a header with padding or a BOM, and one that does not start
 * with `eyJ` (`{ "alg"` encodes as `eyAi`); a JOSE header two parts before still marks the third part.
 */
export function redactJwtSignatures(text: string): string {
  if (!text.includes('.')) return text;
  return text.replace(DOTTED_RUN, (run) => {
    if (!run.includes('.')) return run;
    const parts = run.split('.');
    const json = parts.map(looksLikeJson);
    let changed = false;
    for (let i = 1; i < parts.length; i++) {
      const part = parts[i] ?? '';
      if (part.length < 16 || part === REDACTED) continue;
      const afterClaims = json[i - 1] === true && json[i] === false;
      const afterHeaderAndClaims = i >= 2 && json[i - 2] === true && json[i - 1] === true;
      // A detached JWS (RFC 7515 appendix F) leaves the payload out: header..signature.
      const detached = i >= 2 && json[i - 2] === true && parts[i - 1] === '';
      if (afterClaims || afterHeaderAndClaims || detached) {
        parts[i] = REDACTED;
        json[i] = false;
        changed = true;
      }
    }
    return changed ? parts.join('.') : run;
  });
}

/** Does a base64url part decode to the start of a JSON object or array (a BOM and spaces allowed first)? */
function looksLikeJson(part: string): boolean {
  if (part.length < 4) return false;
  const start = Buffer.from(part.slice(0, 24), 'base64url').toString('latin1').replace(/^(\xef\xbb\xbf)?\s*/, '');
  return /^(\{\s*["}]|\[\s*["{[\]\d-])/.test(start);
}

const patterns = new Map<string, RegExp>();

/** A secret found whatever its letter case (a header name or an error message may have changed it). */
function patternOf(secret: string): RegExp {
  let pattern = patterns.get(secret);
  if (pattern === undefined) {
    pattern = new RegExp(secret.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'gi');
    if (patterns.size > 100) patterns.clear();
    patterns.set(secret, pattern);
  }
  return pattern;
}

/** Shorter text cannot hold a JWT signature: a 4-character part that decodes to JSON, a dot, 16 characters. */
const SHORTEST_SIGNED = 21;
/** Signatures shorter than this are not remembered (Redactor.remember), nor searched for. */
const SHORTEST_SIGNATURE = 16;

function scrubPlain(text: string, secrets: readonly string[], signatures: ReadonlySet<string>): string {
  let out = text;
  // Each search is skipped when the text is too short to hold what it looks for: most strings of a body are.
  for (const secret of secrets) if (secret.length >= MIN_SECRET_LENGTH && secret.length <= out.length) out = out.replace(patternOf(secret), REDACTED);
  if (out.length >= SHORTEST_SIGNED) out = redactJwtSignatures(out);
  if (signatures.size > 0 && out.length >= SHORTEST_SIGNATURE) out = out.replace(BASE64URL_RUN, (run) => (signatures.has(run) ? REDACTED : run));
  return out;
}

/** Each run of %XX escapes decoded when it is UTF-8; any other `%` kept as it is. */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * `text` without `secrets` (in any letter case), JWT signatures, or any of `signatures` standing on its own.
 * Percent-encoded text is judged decoded too (`%5A…` in a path, `%2E` between a token's parts): when that
 * finds a secret, the decoded text, redacted, is what is kept.
 */
export function scrubText(text: string, secrets: readonly string[], signatures: ReadonlySet<string> = new Set()): string {
  const direct = scrubPlain(text, secrets, signatures);
  // Up to three rounds of decoding: a value percent-encoded twice (%252E) hides a token's dots from one round.
  let decoded = direct;
  for (let round = 0; round < 3 && decoded.includes('%'); round++) {
    const next = percentDecoded(decoded);
    if (next === decoded) break;
    decoded = next;
    const scrubbed = scrubPlain(decoded, secrets, signatures);
    if (scrubbed !== decoded) return scrubbed;
  }
  return direct;
}

/**
 * A copy of `value` with every string (keys too) scrubbed. The walk keeps its own stack instead of recursing,
 * so no value a client sent can exhaust the call stack; `__proto__` keys are copied as plain keys.
 */
export function scrubValue<T>(value: T, secrets: readonly string[], signatures?: ReadonlySet<string>): T {
  const scrub = (text: string) => scrubText(text, secrets, signatures);
  const shell = (node: unknown): unknown => {
    if (typeof node === 'string') return scrub(node);
    if (Array.isArray(node)) return new Array<unknown>(node.length);
    if (node !== null && typeof node === 'object') return {};
    return node;
  };
  const root = shell(value);
  const pending: Array<[source: unknown, copy: unknown]> = [[value, root]];
  while (pending.length > 0) {
    const [source, copy] = pending.pop()!;
    if (typeof source !== 'object' || source === null) continue;
    if (Array.isArray(source)) {
      const list = copy as unknown[];
      for (let index = 0; index < source.length; index++) {
        const child: unknown = source[index];
        const childCopy = shell(child);
        list[index] = childCopy;
        if (typeof child === 'object' && child !== null) pending.push([child, childCopy]);
      }
      continue;
    }
    const record = copy as Record<string, unknown>;
    for (const key of Object.keys(source)) {
      const child: unknown = (source as Record<string, unknown>)[key];
      const childCopy = shell(child);
      const name = scrub(key);
      // A plain assignment would set the prototype for `__proto__`: that one key is defined instead.
      if (name === '__proto__') Object.defineProperty(record, name, { value: childCopy, enumerable: true, writable: true, configurable: true });
      else record[name] = childCopy;
      if (typeof child === 'object' && child !== null) pending.push([child, childCopy]);
    }
  }
  return root as T;
}
