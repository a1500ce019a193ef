/**
 * A scripted exchange full of secrets against the real `serve` process: the key in a query string, a path and a
 * body; whole tokens in a query string and a body; signatures sent alone; compressed and base32 blobs; tokens split
 * across the fields of an object and across two headers; a signature sent before its token; a POS that echoes
 * secrets back, plain and gzipped. Then every output is scanned: log lines, the journal, the HAR, the event stream
 * (live and replayed) and a checklist report. None may hold the key, a JWT signature, or a blob as it was sent.
 */
import type { ChildProcess } from 'node:child_process';
import { createHmac, createPrivateKey } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, gzipSync } from 'node:zlib';
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
/** Blobs sent that hold a secret: each must be gone whole from every output. */
const blobs: string[] = [];
const blob = (text: string) => (blobs.push(text), text);
/** The request ids of the calls made before their token was seen: their log lines and live events were written then. */
const EARLY = ['scan-early-1', 'scan-early-2'];
/** The token whose signature those calls sent alone. */
let early: string;

/** RFC 4648 base32, written here so the scan does not share the sandbox's decoder. */
function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...bytes].map((byte) => byte.toString(2).padStart(8, '0')).join('');
  return (bits.match(/.{1,5}/g) ?? []).map((group) => alphabet[parseInt(group.padEnd(5, '0'), 2)]).join('');
}

let sandbox: { baseUrl: string; child: ChildProcess; output: () => string };
let pos: Server;
let reportDir: string;
/** The key this machine signs the checklist's report with: made by the run, and never to be seen in an output. */
let signingKey: string;
let events = '';
let replayed = '';
const outputs: Record<string, string> = {};

/** A POS that rejects every order with a reason quoting the key and a token, every other reply gzipped: what it sends back is an output too. */
async function echoingPos(): Promise<string> {
  let replies = 0;
  pos = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const reply = JSON.stringify({ ExternalId: `ECHO-${Date.now()}`, Status: 'REJECTED', Reason: `no stock; debug ${KEY} ${use(valid())}` });
      const zipped = ++replies % 2 === 0;
      res.writeHead(200, { 'content-type': 'application/json', ...(zipped ? { 'content-encoding': 'gzip' } : {}) });
      res.end(zipped ? gzipSync(reply) : reply);
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
  // The forms the third attack run listed: compressed blobs, a token in base32, tokens split across fields and headers.
  const zipped = blob(gzipSync(`debug ${KEY} ${use(valid())}`).toString('base64'));
  const deflated = blob(deflateSync(`sig ${signatureOf(good)}`).toString('hex'));
  const inBase32 = blob(base32(Buffer.from(`Bearer ${use(valid())}`)));
  await call('/v2/order/refund', { token: use(valid()), body: JSON.stringify({ ExternalId: 'POS-STD-1001', zipped, deflated, inBase32 }) });
  const [fieldHead, fieldClaims, fieldSignature] = use(valid()).split('.') as [string, string, string];
  await call('/v2/order/refund', { token: use(valid()), body: JSON.stringify({ ExternalId: 'POS-STD-1001', auth: { head: `${fieldHead}.${fieldClaims}`, sig: fieldSignature } }) });
  const [headerHead, headerClaims, headerSignature] = use(sign('{"alg":"HS256"}', { sub: 'l', iss: POS })).split('.') as [string, string, string];
  await call('/v2/order/refund', { token: use(valid()), headers: { 'x-request-id': `${headerHead}.${headerClaims}`, 'x-service-locationid': headerSignature }, body: '{"ExternalId":"POS-STD-1001"}' });
  // What an outside attack run cut further: a blob as a path segment, the key's halves reversed, a signature in two
  // fields, a token's parts reversed in the query.
  await call(`/v2/order/refund/${blob(gzipSync(`note: ${KEY}`).toString('base64url'))}`, { token: use(valid()), body: '{}' });
  await call('/v2/order/refund', { token: use(valid()), body: JSON.stringify({ ExternalId: 'POS-STD-1001', k2: blob(KEY.slice(20)), other: 'x', k1: blob(KEY.slice(0, 20)) }) });
  const [cutHead, cutClaims, cutSignature] = use(valid()).split('.') as [string, string, string];
  await call('/v2/order/refund', { token: use(valid()), body: JSON.stringify({ ExternalId: 'POS-STD-1001', a: `${cutHead}.${cutClaims}`, s1: blob(cutSignature.slice(0, 21)), s2: blob(cutSignature.slice(21)) }) });
  const [queryHead, queryClaims, querySignature] = use(valid()).split('.') as [string, string, string];
  await call(`/v2/order/refund?b=${querySignature}&a=${queryHead}.${queryClaims}`, { token: use(valid()), body: '{"ExternalId":"POS-STD-1001"}' });
  // A signature sent alone, in a path and a location, read back, and only then its token.
  early = use(valid());
  await call(`/v2/order/refund/${signatureOf(early)}`, { token: use(valid()), headers: { 'x-request-id': EARLY[0]! }, body: '{}' });
  await call(`/v2/order/refund?s=${signatureOf(early)}`, { token: use(valid()), headers: { 'x-request-id': EARLY[1]!, 'x-service-locationid': signatureOf(early) }, body: '{}' });
  expect((await allPageTexts(sandbox.baseUrl, '/_sandbox/journal?limit=1000')).join('\n')).toContain(signatureOf(early));
  await call('/v2/order/refund', { token: early, body: '{"ExternalId":"POS-STD-1001"}' });
  for (let i = 0; i < 2; i++) {
    const order = await fetch(`${sandbox.baseUrl}/_sandbox/orders?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"template":"standard"}' });
    expect(order.status).toBe(201);
  }

  // The last thing the script did shows in the event stream once every earlier event has.
  for (let i = 0; i < 100 && events.split('"REJECTED"').length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  replayed = await replay(sandbox.baseUrl, Number([...events.matchAll(/^id: (\d+)$/gm)].at(-1)![1]));
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

/** The events held, replayed from the first (Last-Event-ID: 0) up to the one with id `last`. */
async function replay(baseUrl: string, last: number): Promise<string> {
  const stream = await fetch(`${baseUrl}/_sandbox/events`, { headers: { 'last-event-id': '0' } });
  const reader = stream.body!.getReader();
  let text = '';
  while (!text.includes(`id: ${last}\n`)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += Buffer.from(value).toString();
  }
  await reader.cancel();
  return text;
}

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
  for (const sent of blobs) if (text.includes(sent.slice(0, 40))) found.push(`a blob as sent: ${sent.slice(0, 24)}…`);
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
    expect(logLines.filter((line) => !EARLY.some((id) => line.includes(id))).flatMap(leaks)).toEqual([]);
  });

  it('the log lines written before a token was seen are the one place its signature shows: a line cannot be called back', () => {
    const lines = sandbox
      .output()
      .split('\n')
      .filter((line) => EARLY.some((id) => line.includes(id)));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect([...new Set(lines.flatMap(leaks))]).toEqual([`the signature of ${early.slice(0, 24)}…`]);
  });

  it('neither the journal nor the HAR does', () => {
    expect(leaks(outputs.journal!)).toEqual([]);
    expect(leaks(outputs.har!)).toEqual([]);
  });

  it('no event does: those sent live before a token was seen aside, and none of those once replayed', () => {
    const live = events.split('\n\n').filter((event) => !EARLY.some((id) => event.includes(id)));
    expect(live.flatMap(leaks)).toEqual([]);
    expect(replayed).toContain(EARLY[0]);
    expect(leaks(replayed)).toEqual([]);
  });

  it('no file of the checklist report, nor its output, does', () => {
    for (const [name, text] of Object.entries(filesUnder(join(reportDir, 'reports')))) expect({ name, leaks: leaks(text) }).toEqual({ name, leaks: [] });
    expect(leaks(outputs.checklist!)).toEqual([]);
  });
});
