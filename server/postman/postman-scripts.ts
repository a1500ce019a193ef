/**
 * Pure: the JavaScript the exported collection runs inside Postman (and newman). Kept as plain lines so a
 * user can read them in Postman's Scripts tab; the tests parse every one and run them all with newman.
 */
import { SERVICE_AUDIENCE } from '../tokens/pos-token-rules.js';

/** Five minutes, as the sandbox's own service → POS tokens: short-lived, well within the hour of TOKEN_LIFETIME_OVER_1H. */
export const TOKEN_TTL_SECONDS = 300;

/**
 * The collection's pre-request script: a fresh POS → service token for every POS call (§5), in {{posToken}},
 * which the collection's Bearer auth sends. Postman has no JWT signer, so it is HS256 by hand with CryptoJS.
 */
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
