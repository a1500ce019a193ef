/**
 * Pure: taking secrets out of text and of JSON values. The partner's key and any token passed in are replaced
 * wherever they appear; a JWT anywhere keeps its header and claims (they are what a POS engineer debugs) but
 * loses its signature; a signature the sandbox has seen before is replaced even when it travels alone.
 */

/** What replaces a secret. */
export const REDACTED = '[redacted]';

/** Runs of base64url characters and dots: where a JWT can hide. */
const DOTTED_RUN = /[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]*)+/g;
/** Runs long enough to be a signature (HS256 gives 43 characters). */
const BASE64URL_RUN = /[A-Za-z0-9_-]{16,}/g;
/** Secrets shorter than this are not searched for: a 3-character key would redact every word that holds it. */
export const MIN_SECRET_LENGTH = 8;

/**
 * Every JWT in `text` with its signature replaced. A JWT is three dot-separated base64url parts whose first
 * decodes to a JSON object: `eyJ` is only the usual start, `{ "alg"` encodes as `eyAi`.
 */
export function redactJwtSignatures(text: string): string {
  if (!text.includes('.')) return text;
  return text.replace(DOTTED_RUN, (run) => {
    const parts = run.split('.');
    let changed = false;
    for (let i = 0; i + 2 < parts.length; i++) {
      const signature = parts[i + 2] ?? '';
      if (signature.length >= 16 && signature !== REDACTED && looksLikeJoseHeader(parts[i] ?? '')) {
        parts[i + 2] = REDACTED;
        changed = true;
      }
    }
    return changed ? parts.join('.') : run;
  });
}

function looksLikeJoseHeader(part: string): boolean {
  if (part.length < 4) return false;
  return Buffer.from(part.slice(0, 16), 'base64url').toString('latin1').trimStart().startsWith('{');
}

/** `text` without `secrets`, JWT signatures, or any of `signatures` standing on its own. */
export function scrubText(text: string, secrets: readonly string[], signatures: ReadonlySet<string> = new Set()): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= MIN_SECRET_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED);
  out = redactJwtSignatures(out);
  if (signatures.size > 0) out = out.replace(BASE64URL_RUN, (run) => (signatures.has(run) ? REDACTED : run));
  return out;
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
    const entries: Array<[string, unknown]> = Array.isArray(source) ? source.map((child, index) => [String(index), child]) : Object.entries(source);
    for (const [key, child] of entries) {
      const childCopy = shell(child);
      const name = Array.isArray(source) ? key : scrub(key);
      Object.defineProperty(copy, name, { value: childCopy, enumerable: true, writable: true, configurable: true });
      if (typeof child === 'object' && child !== null) pending.push([child, childCopy]);
    }
  }
  return root as T;
}
