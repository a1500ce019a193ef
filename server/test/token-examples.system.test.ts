/**
 * The token examples of docs/tokens.md (examples/tokens/): Python, Java and a shell with openssl, each with its
 * language's standard library only. Each one's token is sent to a real sandbox process, whose answer must be 200
 * with no finding; and the page shows each file as it is. python3, java and openssl are on every machine of this
 * kind, CI's included: a missing one fails here, it is not skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../version.js';
import { PARTNER } from './test-identity.js';
import { serve, stopServers } from './processes.js';

const run = promisify(execFile);
const EXAMPLES = join(PACKAGE_ROOT, 'examples', 'tokens');
const LOCATION = 'loc-std-001';

let sandboxUrl: string;
beforeAll(async () => {
  sandboxUrl = (await serve([])).baseUrl;
}, 30_000);
afterAll(stopServers);

describe.each([
  ['Python', 'token.py', 'python3', ['token.py']],
  ['Java', 'Token.java', 'java', ['Token.java']],
  ['a shell with openssl', 'token.sh', 'sh', ['token.sh']],
])('the token example in %s', (_language, file, command, args) => {
  it('mints a token the sandbox takes: 200, no finding', async () => {
    const { stdout } = await run(command, [...args, LOCATION], { cwd: EXAMPLES, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SANDBOX_PARTNER: PARTNER.name, SANDBOX_NONPROD_KEY: PARTNER.nonProdKey } });
    const token = stdout.trim();
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    // A refund: the one POS call that needs no order of this run to be answered 200 (it ends FAILED ORDER_NOT_FOUND later).
    const response = await fetch(`${sandboxUrl}/v2/order/refund`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-service-locationid': LOCATION, 'x-api-key': PARTNER.apiKey ?? '', 'x-api-version': '2' },
      body: JSON.stringify({ ExternalId: `example-${file}` }),
    });
    const said = await response.text();
    expect({ status: response.status, findings: response.headers.get('x-sandbox-findings'), said: response.status === 200 ? '' : said }).toEqual({ status: 200, findings: '0', said: '' });
  }, 30_000);

  it('is shown in docs/tokens.md as it is', () => {
    expect(readFileSync(join(PACKAGE_ROOT, 'docs', 'tokens.md'), 'utf8')).toContain(readFileSync(join(EXAMPLES, file), 'utf8'));
  });
});
