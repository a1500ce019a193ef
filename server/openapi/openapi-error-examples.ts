/** The error examples of the OpenAPI document: what each error status answers, in each envelope family's words. */

/** What each error status of the POS API answers, in the order family's words (the menu family capitalizes the keys). */
export const POS_ERRORS: Record<string, [string, string]> = {
  '400': ['INVALID_PAYLOAD', 'ExternalId must not be empty or blank'],
  '401': [
    'UNAUTHORIZED',
    "token signature does not verify with the non-prod key of POS 'demo-pos': it was signed with another key (a production key, another partner's, or a mistyped one?)",
  ],
  '409': [
    'INVALID_STATE',
    'order ord-std-0001 cannot become ACCEPTED: it was already decided (ACCEPTED); a status is sent once per delivery. The status is accepted only while the order is AWAITING_STATUS, after a reply without Status',
  ],
  '413': ['PAYLOAD_TOO_LARGE', 'body is 1100000 bytes; the sandbox accepts at most 1 MiB (1048576 bytes)'],
  '429': ['TOO_MANY_REQUESTS', "rate limit exceeded, retry after 1 s: injected by the sandbox (fault rule rate-limited); nothing was processed"],
  '503': ['SERVICE_UNAVAILABLE', "503 Service Unavailable: injected by the sandbox (fault rule outage); nothing was processed"],
  default: ['SERVICE_UNAVAILABLE', "503 Service Unavailable: injected by the sandbox (fault rule outage); nothing was processed"],
};

/** Where the menu family answers otherwise (its 400 lists every problem of the update, each with its JSON path). */
export const MENU_ERRORS: Record<string, [string, string]> = {
  ...POS_ERRORS,
  '400': ['VALIDATION_ERROR', 'Items[0].Prices[0].Price must be 0 or more, got number -1; prices are whole numbers of minor units (1150 for 11.50)'],
};

/** A status fault's own string body: text/plain, or text/html when the rule declares it. */
export const injectedText = (type: string, status: string, [code, message]: [string, string]): string =>
  type === 'text/html' ? `<html><body><h1>${status === 'default' ? 503 : status} ${code}</h1><p>${message}</p></body></html>` : `${code}: ${message}`;

/** The same for the control API (always the order family). */
export const CONTROL_ERRORS: Record<string, [string, string]> = {
  '400': ['INVALID_REQUEST', "unknown query parameter 'colour'; this endpoint takes location, status, externalId, limit, after"],
  '401': ['UNAUTHORIZED', 'the control API needs Authorization: Bearer <the --admin-token value>'],
  '403': [
    'FORBIDDEN',
    "cross-site request refused: Origin 'https://example.com' is not this sandbox's (its own is http://127.0.0.1:4100); the control API takes no calls from web pages of other origins, so that a page open in your browser cannot read or change the sandbox. Call it from a tool (curl, a script, the checklist), which sends no Origin header",
  ],
  '404': ['NOT_FOUND', "no order 'ord-nope'; GET /_sandbox/orders lists them"],
  '409': ['INVALID_STATE', 'order ord-std-0001 is ACCEPTED; only a REJECTED or DELIVERY_FAILED order can be resent'],
  '429': [
    'TOO_MANY_REQUESTS',
    'partner \'acme-pos\' sent more than 20 requests a second (bursts of 40 allowed), a quota of this sandbox (docs/hosting.md, "Exposing it to partners"); send it again after 1 s',
  ],
  '415': [
    'UNSUPPORTED_MEDIA_TYPE',
    "Content-Type 'text/plain' refused on POST: the control API takes application/json bodies only, since a web page may send text/plain, form and multipart bodies to any site without asking first; send Content-Type: application/json, or no body and no Content-Type",
  ],
};

/** The error of `status`; a 405 names the path it was sent to and the method the path takes. */
export function errorExample(errors: Record<string, [string, string]>, status: string, path: string, method: string): [string, string] | undefined {
  if (status !== '405') return errors[status];
  const wrong = method === 'get' ? 'POST' : 'GET';
  return ['METHOD_NOT_ALLOWED', `${wrong} is not allowed on ${path}; use ${method.toUpperCase()}`];
}
