/** Pure: the part of Postman's collection v2.1 and environment formats the export writes, which Postman, newman and Insomnia read. */
import { SERVICE_AUDIENCE } from '../tokens/pos-token-rules.js';

export const COLLECTION_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

export interface PostmanScript {
  listen: 'prerequest' | 'test';
  script: { type: 'text/javascript'; exec: string[] };
}

export interface PostmanVariable {
  key: string;
  value: string;
  type: 'string';
  description?: string;
}

export interface PostmanAuth {
  type: 'bearer' | 'noauth';
  bearer?: Array<{ key: 'token'; value: string; type: 'string' }>;
}

export interface PostmanRequestItem {
  name: string;
  event: PostmanScript[];
  request: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    /** Absent: the collection's bearer token (the POS calls). */
    auth?: PostmanAuth;
    header: Array<{ key: string; value: string }>;
    body?: { mode: 'raw'; raw: string; options: { raw: { language: 'json' } } };
    url: { raw: string; host: string[]; path: string[]; query?: Array<{ key: string; value: string }> };
    description: string;
  };
  response: [];
}

export interface PostmanFolder {
  name: string;
  description: string;
  item: PostmanRequestItem[];
}

export interface PostmanCollection {
  info: { _postman_id: string; name: string; description: string; schema: typeof COLLECTION_SCHEMA };
  auth: PostmanAuth;
  event: PostmanScript[];
  variable: PostmanVariable[];
  item: PostmanFolder[];
}

export interface PostmanEnvironment {
  id: string;
  name: string;
  values: Array<{ key: string; value: string; type: 'default' | 'secret'; enabled: true }>;
  _postman_variable_scope: 'environment';
  _postman_exported_using: string;
}

export const script = (listen: PostmanScript['listen'], exec: string[]): PostmanScript => ({ listen, script: { type: 'text/javascript', exec } });

/** Control calls answer loopback clients without a token, so they opt out of the collection's bearer token. */
export const NO_AUTH: PostmanAuth = { type: 'noauth' };

/** A request on {{baseUrl}}; `target` is a path with an optional query, e.g. `/_sandbox/journal?limit=5`. */
export function request(
  name: string,
  method: PostmanRequestItem['request']['method'],
  target: string,
  options: { description: string; tests: string[]; prerequest?: string[]; headers?: Record<string, string>; body?: unknown; auth?: PostmanAuth },
): PostmanRequestItem {
  const [path = '', queryText] = target.split('?');
  const query = queryText?.split('&').map((pair) => {
    const [key = '', value = ''] = pair.split('=');
    return { key, value };
  });
  const headers = { ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...options.headers };
  return {
    name,
    event: [...(options.prerequest ? [script('prerequest', options.prerequest)] : []), script('test', options.tests)],
    request: {
      method,
      ...(options.auth ? { auth: options.auth } : {}),
      header: Object.entries(headers).map(([key, value]) => ({ key, value })),
      ...(options.body === undefined ? {} : { body: { mode: 'raw' as const, raw: JSON.stringify(options.body, null, 2), options: { raw: { language: 'json' as const } } } }),
      url: { raw: `{{baseUrl}}${target}`, host: ['{{baseUrl}}'], path: path.split('/').filter(Boolean), ...(query ? { query } : {}) },
      description: options.description,
    },
    response: [],
  };
}

/** Pure: the JavaScript the collection runs in Postman, kept as plain lines for its Scripts tab; the tests run them all with newman. */

/** Five minutes, as the sandbox's own service → POS tokens: short-lived, well within the hour of TOKEN_LIFETIME_OVER_1H. */
export const TOKEN_TTL_SECONDS = 300;

/** A fresh token for every POS call (§5), signed HS256 by hand with CryptoJS: Postman has no JWT signer. */
export function mintTokenScript(): string[] {
  return [
    '// A fresh POS → service token for every POS call, with the six claims of the interface (§5):',
    '// HS256 signed with the partner\'s non-prod key; sub the location of this request (its',
    '// x-service-locationid header), iss the POS name, aud the service, a new jti, nbf now and exp',
    `// ${TOKEN_TTL_SECONDS} s later. The collection's Bearer auth sends it. Calls under /_sandbox need no token.`,
    "if (!pm.request.url.getPath().startsWith('/_sandbox/')) {",
    "  const CryptoJS = require('crypto-js');",
    "  const base64url = (words) => CryptoJS.enc.Base64.stringify(words).replace(/=+$/, '').replace(/\\+/g, '-').replace(/\\//g, '_');",
    '  const encode = (object) => base64url(CryptoJS.enc.Utf8.parse(JSON.stringify(object)));',
    '  const now = Math.floor(Date.now() / 1000);',
    '  const claims = {',
    "    sub: pm.variables.replaceIn(pm.request.headers.get('x-service-locationid') || '{{locationId}}'),",
    "    jti: pm.variables.replaceIn('{{$guid}}'),",
    '    nbf: now,',
    `    exp: now + ${TOKEN_TTL_SECONDS},`,
    "    iss: pm.variables.get('posName'),",
    `    aud: '${SERVICE_AUDIENCE}',`,
    '  };',
    "  const signingInput = encode({ alg: 'HS256', typ: 'JWT' }) + '.' + encode(claims);",
    "  const signature = base64url(CryptoJS.HmacSHA256(signingInput, pm.variables.get('nonProdKey')));",
    "  pm.variables.set('posToken', signingInput + '.' + signature);",
    '}',
  ];
}

/** A JavaScript string literal of `text`. */
export const literal = (text: string): string => JSON.stringify(text);

/** `pm.test(name, …)` around `body`, indented. */
export function check(name: string, body: string[]): string[] {
  return [`pm.test(${literal(name)}, () => {`, ...body.map((line) => `  ${line}`), '});'];
}

/** The status, with the response body as the message when it differs (a 401 then says what is wrong with the token). */
export const expectStatus = (status: number): string => `pm.expect(pm.response.code, pm.response.text()).to.equal(${status});`;

/** The one-line test most requests need. */
export const answers = (status: number, what = ''): string[] => check(`answers ${status}${what ? ` ${what}` : ''}`, [expectStatus(status)]);

/** A POS call the sandbox took as it is: no finding counted in x-sandbox-findings. */
export const noFindings = (): string[] =>
  check('draws no finding (x-sandbox-findings: 0)', ["pm.expect(pm.response.headers.get('x-sandbox-findings'), 'x-sandbox-findings').to.equal('0');"]);

/** The whole error body, with {{variables}} in `expected` resolved when the test runs. */
export const errorBody = (code: string, message: string): string =>
  `pm.expect(pm.response.json()).to.eql({ errors: [{ code: ${literal(code)}, message: pm.variables.replaceIn(${literal(message)}) }] });`;
