/** v1 sometimes passed keys in query parameters (§5 migration notes); v2 takes them in headers only. */

const CREDENTIAL_NAME = /(^|[-_.])(key|apikey|api[-_]?key|token|access[-_]?token|jwt|secret|signature|sig|auth|authorization|password)$/i;
const JWT_SHAPE = /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*$/;

/**
 * Names the first query parameter that carries a credential: by its name, because its value is the
 * partner's key, or because its value is a JWT. Undefined when the query string is clean.
 */
export function findCredentialInQuery(query: URLSearchParams, partnerKey: string): string | undefined {
  for (const [name, value] of query) if (isCredentialParameter(name, value, partnerKey)) return name;
  return undefined;
}

/** A query parameter that carries a credential, by its name or by its value. */
export function isCredentialParameter(name: string, value: string, partnerKey: string): boolean {
  // A key with '+' sent raw in a query string arrives with spaces: a query parser reads '+' as a space.
  return CREDENTIAL_NAME.test(name) || value === partnerKey || value === partnerKey.replaceAll('+', ' ') || JWT_SHAPE.test(value);
}

/** The 401 message for a credential found in the query string. */
export function queryCredentialMessage(parameter: string): string {
  return `a key or token was passed in the query parameter '${parameter}'; v2 takes the token only in the Authorization header (Bearer <JWT>), never in the URL, where proxies and logs keep it (§5)`;
}

/**
 * A request URL as a log line shows it: every credential parameter's value replaced, everything else as sent
 * (the redaction of the key and of JWT signatures anywhere else in the line is the logger's).
 */
export function urlWithoutCredentials(originalUrl: string, partnerKey: string): string {
  const mark = originalUrl.indexOf('?');
  if (mark < 0) return originalUrl;
  const pairs = originalUrl
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      // One pair at a time through URLSearchParams: it decodes, and never throws on a stray %.
      const [decoded] = [...new URLSearchParams(pair)];
      if (decoded === undefined || !isCredentialParameter(decoded[0], decoded[1], partnerKey)) return pair;
      return `${pair.split('=')[0]}=[redacted]`;
    });
  return `${originalUrl.slice(0, mark)}?${pairs.join('&')}`;
}
