/**
 * A scripted exchange full of secrets against the real `serve` process: the key in a query string, a path and a
 * body; whole tokens in a query string and a body; signatures sent alone; a POS that echoes secrets back. Then
 * every output is scanned: log lines, the journal, the HAR, the event stream and a checklist report. None may
 * hold the key or a JWT signature.
 */
import type { ChildProcess } from 'node:child_process';
import { createHmac, createPrivateKey } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli, serve, stopServers } from './processes.js';
import { allPageTexts } from './all-pages.js';

const KEY = 'partner-REAL-nonprod-key-7f3a9c1e5b2d4f60';
const POS = 'scan-pos';
const AUD = 'io.service.pos.brokers.openapi';
const now = () => Math.floor(Date.now() / 1000);

/** Signs with the key, any header: the scan must not depend on the header starting with eyJ. */
function sign(header: string, claims: object, key = KEY): string {
  const input = `${Buffer.from(header).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}
let jti = 0;
const claims = () => ({ sub: 'loc-std-001', jti: `scan-${++jti}`, nbf: now() - 5, exp: now() + 600, iss: POS, aud: AUD });
const valid = () => sign('{"alg":"HS256","typ":"JWT"}', claims());
const signatureOf = (token: string) => token.split('.')[2]!;

/** Every token the exchange used, so the scan knows every signature to look for. */
const tokens: string[] = [];
const use = (token: string) => (tokens.push(token), token);

let sandbox: { baseUrl: string; child: ChildProcess; output: () => string };
let pos: Server;
let reportDir: string;
/** The key this machine signs the checklist's report with: made by the run, and never to be seen in an output. */
let signingKey: string;
let events = '';
const outputs: Record<string, string> = {};

/** A POS that rejects every order with a reason quoting the key and a token: what it sends back is an output too. */
async function echoingPos(): Promise<string> {
  pos = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ExternalId: `ECHO-${Date.now()}`, Status: 'REJECTED', Reason: `no stock; debug ${KEY} ${use(valid())}` }));
    });
  });
  pos.listen(0, '127.0.0.1');
  await once(pos, 'listening');
  return `http://127.0.0.1:${(pos.address() as AddressInfo).port}/order`;
}

async function call(path: string, init: { method?: string; token?: string; body?: string; headers?: Record<string, string> } = {}): Promise<number> {
  const res = await fetch(`${sandbox.baseUrl}${path}`, {
    method: init.method ?? 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-locationid': 'loc-std-001',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...init.headers,
    },
    body: init.body,
  });
  await res.arrayBuffer();
  return res.status;
}

beforeAll(async () => {
  const posUrl = await echoingPos();
  const started = await serve(['--pos-order-url', posUrl, '--refund-delay-ms', '0', '--log-level', 'debug'], { SANDBOX_PARTNER: POS, SANDBOX_NONPROD_KEY: KEY });
  let stdout = started.banner;
  started.child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  let stderr = '';
  started.child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  sandbox = { baseUrl: started.baseUrl, child: started.child, output: () => `${stdout}\n${stderr}` };

  const stream = await fetch(`${sandbox.baseUrl}/_sandbox/events`);
  const reader = stream.body!.getReader();
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      events += Buffer.from(value).toString();
    }
  })().catch(() => undefined);

  // The script: every place a careless POS or a curious user puts a secret.
  const minted = (await (await fetch(`${sandbox.baseUrl}/_sandbox/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"locationId":"loc-std-001"}' })).json()) as { token: string };
  use(minted.token);
  const good = use(valid());
  const spaced = use(sign('{ "alg": "HS256", "typ": "JWT" }', claims()));
  await call(`/v2/order/refund?api_key=${KEY}`, { body: '{"ExternalId":"POS-STD-1001"}' });
  await call(`/v2/order/refund?access_token=${use(valid())}`, { body: '{"ExternalId":"POS-STD-1001"}' });
  await call(`/v2/order/refund/${KEY}`, { token: use(valid()), body: '{}' });
  await call(`/v2/order/refund?s=${signatureOf(good)}&note=${encodeURIComponent(KEY)}`, {
    token: good,
    body: JSON.stringify({ ExternalId: 'POS-STD-1001', debug: { key: KEY, token: spaced, sig: signatureOf(minted.token), [KEY]: 1 } }),
  });
  await call('/v2/order/status', { token: use(valid()), body: JSON.stringify({ ExternalId: KEY, Status: 'REJECTED', Reason: `${KEY} ${signatureOf(good)}` }) });
  await call('/v2/order/refund', { token: spaced, body: `not json ${KEY} ${minted.token}` });
  await call('/v2/order/refund', { headers: { authorization: `Basic ${KEY}`, 'x-api-key': KEY }, body: '{"ExternalId":"POS-STD-1001"}' });
  await call('/v2/order/refund', { token: use(sign('{"alg":"HS256"}', claims(), 'some-other-partners-key-123456')), body: '{"ExternalId":"POS-STD-1001"}' });
  // Shapes an independent attack run found past the first redaction: a token glued to a prefix, a key
  // percent-encoded in a path, a key as a header name (Node lower-cases it), a token with its dots encoded.
  await call('/v2/order/refund', { token: use(valid()), body: JSON.stringify({ ExternalId: 'POS-STD-1001', note: `tok_${use(valid())}` }) });
  await call(`/v2/%${KEY.charCodeAt(0).toString(16)}${KEY.slice(1)}`, { body: 'x' });
  await call('/v2/order/refund', { token: use(valid()), headers: { [KEY]: '1', 'content-encoding': KEY }, body: '{"ExternalId":"POS-STD-1001"}' });
  await call(`/v2/${use(valid()).replaceAll('.', '%2E')}`, { body: 'x' });
  await call('/v2/menu', { method: 'PUT', token: use(valid()), body: JSON.stringify({ LocationId: 'loc-std-001', Items: [{ Id: KEY, Name: spaced }] }) });
  const order = await fetch(`${sandbox.baseUrl}/_sandbox/orders?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"template":"standard"}' });
  expect(order.status).toBe(201);

  // The last thing the script did shows in the event stream once every earlier event has.
  for (let i = 0; i < 100 && !events.includes('"REJECTED"'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  outputs.journal = (await allPageTexts(sandbox.baseUrl, '/_sandbox/journal?limit=1000')).join('\n');
  outputs.har = await (await fetch(`${sandbox.baseUrl}/_sandbox/journal.har`)).text();
  reportDir = mkdtempSync(join(tmpdir(), 'secret-scan-'));
  signingKey = join(reportDir, 'signing-key.pem');
  const checklist = await cli(['checklist', '--passive', '--sandbox', sandbox.baseUrl, '--report-dir', join(reportDir, 'reports'), '--signing-key', signingKey]);
  outputs.checklist = checklist.stdout + checklist.stderr;
  await reader.cancel();
}, 60_000);

afterAll(() => {
  stopServers();
  pos?.close();
  if (reportDir) rmSync(reportDir, { recursive: true, force: true });
});

/** Every file under `dir`, as text. */
function filesUnder(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (statSync(path).isFile()) found[name] = readFileSync(path, 'utf8');
  }
  return found;
}

/** Where in `text` a secret shows: the key, a signature of the exchange, or anything shaped like a signed JWT. */
function leaks(text: string): string[] {
  const found: string[] = [];
  if (text.toLowerCase().includes(KEY.toLowerCase())) found.push('the partner key');
  for (const token of tokens) if (text.includes(signatureOf(token))) found.push(`the signature of ${token.slice(0, 24)}…`);
  const seed = Buffer.from((createPrivateKey(readFileSync(signingKey, 'utf8')).export({ format: 'jwk' }) as { d: string }).d, 'base64url');
  if ([seed.toString('base64url'), seed.toString('base64'), seed.toString('hex')].some((form) => text.includes(form))) found.push('the report signing key');
  const jwt = /[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{20,}/.exec(text);
  if (jwt) found.push(`a signed JWT: ${jwt[0].slice(0, 40)}…`);
  return found;
}

describe('after an exchange full of secrets', () => {
  it('the exchange reached every output (the scan is not of empty files)', () => {
    expect(outputs.journal).toContain('/v2/order/refund');
    expect(outputs.journal).toContain('/v2/menu');
    expect(outputs.har).toContain('"entries"');
    expect(events).toContain('event: order');
    expect(Object.keys(filesUnder(reportDir)).some((name) => name.endsWith('report.json'))).toBe(true);
    expect(sandbox.output()).toContain('order REJECTED');
  });

  it('no log line holds the key or a signature (the banner, which shows a sample token on purpose, aside)', () => {
    const logLines = sandbox
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(10);
    expect(logLines.flatMap(leaks)).toEqual([]);
  });

  it('neither the journal nor the HAR does', () => {
    expect(leaks(outputs.journal!)).toEqual([]);
    expect(leaks(outputs.har!)).toEqual([]);
  });

  it('no event does', () => {
    expect(leaks(events)).toEqual([]);
  });

  it('no file of the checklist report, nor its output, does', () => {
    for (const [name, text] of Object.entries(filesUnder(join(reportDir, 'reports')))) expect({ name, leaks: leaks(text) }).toEqual({ name, leaks: [] });
    expect(leaks(outputs.checklist!)).toEqual([]);
  });
});
