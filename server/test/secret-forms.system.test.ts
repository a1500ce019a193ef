/**
 * The key and tokens in every form the third attack run sent them in, generated (fast-check) and sent through every
 * carrier a request has (a body that is not JSON, a body sent as UTF-16, a query, a header, a path) to the real
 * `serve` process. Then every output is scanned for each case's secret in the very form it was sent in, and as it
 * was: the log, the journal, the HAR, the event stream, a checklist report and the CLI's journal tail. The scan does
 * not decode anything itself: what must not survive is known from how each case was made.
 */
import type { ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { printable } from '../http/messages.js';
import { cli, serve, stopServers } from './processes.js';
import { allPageTexts } from './all-pages.js';

const KEY = 'partner-REAL-nonprod-key-7f3a9c1e5b2d4f60';
const POS = 'forms-pos';
const now = () => Math.floor(Date.now() / 1000);
let jti = 0;
function token(): string {
  const claims = { sub: 'loc-std-001', jti: `forms-${++jti}`, nbf: now() - 5, exp: now() + 600, iss: POS, aud: 'io.service.pos.brokers.openapi' };
  const input = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${input}.${createHmac('sha256', KEY).update(input).digest('base64url')}`;
}

type Carrier = 'body' | 'utf16-body' | 'query' | 'header' | 'path';
interface Case {
  form: string;
  carrier: Carrier;
  /** What is sent: one piece, or two for the forms that split a secret. */
  pieces: string[];
  /** What must appear in no output: the secret itself, and each piece it was sent as. */
  needles: string[];
  /** A token sent in the Authorization header first, so the sandbox has seen it. */
  seen?: string;
}

const std = (part: string) => Buffer.from(part, 'base64url').toString('base64');
const escapeChars = (text: string, chars: string, as: (char: string) => string) => [...text].map((char) => (chars.includes(char) ? as(char) : char)).join('');

/** Each form: how a secret is written in it, and which carriers can hold it (a header holds printable ASCII only). */
const FORMS: Array<{ form: string; carriers: Carrier[]; make: (at: number) => Omit<Case, 'carrier' | 'form'> }> = [
  { form: 'the key as it is', carriers: ['body', 'utf16-body', 'query', 'header', 'path'], make: () => ({ pieces: [KEY], needles: [KEY] }) },
  { form: 'the key upper-cased', carriers: ['body', 'query', 'header'], make: () => ({ pieces: [KEY.toUpperCase()], needles: [KEY, KEY.toUpperCase()] }) },
  { form: 'the key with JSON escapes', carriers: ['body', 'query', 'header'], make: () => { const e = escapeChars(KEY, '-', () => '\\u002d'); return { pieces: [e], needles: [KEY, e] }; } },
  { form: 'the key with HTML entities', carriers: ['body', 'query', 'header'], make: () => { const e = escapeChars(KEY, '-', () => '&#45;'); return { pieces: [e], needles: [KEY, e] }; } },
  { form: 'the key percent-encoded', carriers: ['body', 'header'], make: () => { const e = escapeChars(KEY, '-', () => '%2D'); return { pieces: [e], needles: [KEY, e] }; } },
  {
    form: 'the key with a zero-width space inside',
    carriers: ['body', 'utf16-body', 'query'],
    make: (at) => { const cut = 4 + (at % (KEY.length - 8)); const e = `${KEY.slice(0, cut)}\u200b${KEY.slice(cut)}`; return { pieces: [e], needles: [KEY, e, KEY.slice(0, cut), KEY.slice(cut)].filter((n) => n.length >= 8) }; },
  },
  { form: 'the key in a base64 blob', carriers: ['body', 'query', 'header'], make: (at) => { const e = Buffer.from(`${'x'.repeat(at % 3)}note ${KEY}`).toString('base64'); return { pieces: [e], needles: [KEY, e] }; } },
  { form: 'the key as hex', carriers: ['body', 'query', 'header'], make: () => { const e = Buffer.from(KEY).toString('hex'); return { pieces: [e], needles: [KEY, e] }; } },
  {
    form: 'the key split across two parameters',
    carriers: ['query'],
    make: (at) => { const cut = 8 + (at % (KEY.length - 16)); return { pieces: [KEY.slice(0, cut), KEY.slice(cut)], needles: [KEY, KEY.slice(0, cut), KEY.slice(cut)].filter((n) => n.length >= 8) }; },
  },
  { form: 'a token as it is', carriers: ['body', 'utf16-body', 'query', 'header', 'path'], make: () => { const t = token(); return { pieces: [t], needles: [t.split('.')[2]!] }; } },
  {
    form: 'a token with its dots as JSON escapes',
    carriers: ['body', 'query', 'header'],
    make: () => { const t = token(); return { pieces: [t.replaceAll('.', '\\u002e')], needles: [t.split('.')[2]!] }; },
  },
  { form: 'a token with its dots as entities', carriers: ['body', 'query', 'header'], make: () => { const t = token(); return { pieces: [t.replaceAll('.', '&#46;')], needles: [t.split('.')[2]!] }; } },
  {
    form: 'a token in standard base64, padded',
    carriers: ['body', 'query', 'header'],
    make: () => { const [h, c, s] = token().split('.') as [string, string, string]; return { pieces: [`${std(h)}.${std(c)}.${std(s)}`], needles: [s, std(s), std(s).replace(/=+$/, '')] }; },
  },
  {
    form: 'a token split across two headers',
    carriers: ['header'],
    make: () => { const t = token(); const s = t.split('.')[2]!; return { pieces: [t.slice(0, t.lastIndexOf('.')), s], needles: [s] }; },
  },
  { form: 'a seen signature as hex', carriers: ['body', 'query', 'header'], make: () => { const t = token(); const hex = Buffer.from(t.split('.')[2]!, 'base64url').toString('hex'); return { pieces: [hex], needles: [t.split('.')[2]!, hex], seen: t }; } },
  {
    form: 'a seen signature in standard base64',
    carriers: ['body', 'query', 'header'],
    make: () => { const t = token(); const b = Buffer.from(t.split('.')[2]!, 'base64url').toString('base64'); return { pieces: [b], needles: [t.split('.')[2]!, b], seen: t }; },
  },
  { form: 'the key as \\x escapes', carriers: ['body', 'query', 'header'], make: () => { const e = [...KEY].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join(''); return { pieces: [e], needles: [KEY, e] }; } },
  { form: 'the key quoted-printable', carriers: ['body', 'header'], make: () => { const e = escapeChars(KEY, '-', () => '=2D'); return { pieces: [e], needles: [KEY, e] }; } },
  { form: 'the key as base32', carriers: ['body', 'query', 'header'], make: (at) => { const e = base32(Buffer.from(`${'n'.repeat(at % 5)} ${KEY}`)); return { pieces: [e], needles: [KEY, e.replace(/=+$/, '')] }; } },
  { form: 'the key as hex with colons', carriers: ['body', 'header'], make: () => { const e = Buffer.from(KEY).toString('hex').match(/../g)!.join(':'); return { pieces: [e], needles: [KEY, e] }; } },
  {
    form: 'the key in base64 wrapped at 76',
    carriers: ['body'],
    make: (at) => {
      const before = 'wrapped '.repeat(10 + (at % 7));
      const lines = Buffer.from(`${before}${KEY} and more text after it`).toString('base64').match(/.{1,76}/g)!;
      // The line that holds the key's base64 is the one that must not be shown.
      return { pieces: [lines.join('\r\n')], needles: [KEY, lines[Math.floor(((before.length + 3) * 4) / 3 / 76)]!] };
    },
  },
  { form: 'a seen signature as base32', carriers: ['body', 'query', 'header'], make: () => { const t = token(); const e = base32(Buffer.from(t.split('.')[2]!, 'base64url')); return { pieces: [e], needles: [t.split('.')[2]!, e.replace(/=+$/, '')], seen: t }; } },
];

/** RFC 4648 base32, written here so the test does not share the sandbox's decoder. */
function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...bytes].map((byte) => byte.toString(2).padStart(8, '0')).join('');
  const chars = (bits.match(/.{1,5}/g) ?? []).map((group) => alphabet[parseInt(group.padEnd(5, '0'), 2)]).join('');
  return chars.padEnd(Math.ceil(chars.length / 8) * 8, '=');
}

const caseArbitrary: fc.Arbitrary<Case> = fc
  .record({ form: fc.integer({ min: 0, max: FORMS.length - 1 }), carrier: fc.nat(4), at: fc.nat(60) })
  .map(({ form, carrier, at }) => {
    const chosen = FORMS[form]!;
    return { form: chosen.form, carrier: chosen.carriers[carrier % chosen.carriers.length]!, ...chosen.make(at) };
  });

let sandbox: { baseUrl: string; child: ChildProcess; output: () => string };
let reportDir: string;
let events = '';
let cases: Case[] = [];
const seed = Number(process.env.SECRET_FORMS_SEED ?? Date.now() % 1_000_000);
const outputs: Record<string, string> = {};

/** One request, with any header and any body bytes (fetch would refuse nothing here, but it would re-encode). */
function send(path: string, headers: Record<string, string | string[]>, body: Buffer): Promise<number> {
  const url = new URL(sandbox.baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname: url.hostname, port: url.port, path, method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function sendCase(one: Case): Promise<void> {
  const headers: Record<string, string | string[]> = { 'content-type': 'application/json', 'x-service-locationid': 'loc-std-001', authorization: `Bearer ${one.seen ?? token()}` };
  if (one.seen) await send('/v2/order/refund', headers, Buffer.from('{"ExternalId":"POS-STD-1001"}'));
  const [first, second] = one.pieces as [string, string | undefined];
  const broken = (text: string) => `{"ExternalId":"POS-STD-1001","note":"${text}"`;
  switch (one.carrier) {
    case 'body':
      return void (await send('/v2/order/refund', headers, Buffer.from(broken(first))));
    case 'utf16-body':
      return void (await send('/v2/order/refund', headers, Buffer.from(broken(first), 'utf16le')));
    case 'query': {
      const query = second === undefined ? `note=${encodeURIComponent(first)}` : `a=${encodeURIComponent(first)}&b=${encodeURIComponent(second)}`;
      return void (await send(`/v2/order/refund?${query}`, headers, Buffer.from('{"ExternalId":"POS-STD-1001"}')));
    }
    case 'header':
      return void (await send('/v2/order/refund', { ...headers, 'x-note': first, ...(second === undefined ? {} : { 'x-note-2': second }) }, Buffer.from('{"ExternalId":"POS-STD-1001"}')));
    case 'path':
      return void (await send(`/v2/order/refund/${encodeURIComponent(first)}`, headers, Buffer.from('{}')));
  }
}

beforeAll(async () => {
  const started = await serve(['--refund-delay-ms', '0', '--log-level', 'debug'], { SANDBOX_PARTNER: POS, SANDBOX_NONPROD_KEY: KEY });
  let stdout = started.banner;
  started.child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  sandbox = { baseUrl: started.baseUrl, child: started.child, output: () => stdout };
  const stream = await fetch(`${sandbox.baseUrl}/_sandbox/events`);
  const reader = stream.body!.getReader();
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      events += Buffer.from(value).toString();
    }
  })().catch(() => undefined);
  cases = fc.sample(caseArbitrary, { numRuns: 60, seed });
  // Every form once in every carrier it fits, then the generated mix.
  const every = FORMS.flatMap((form) => form.carriers.map((carrier) => ({ form: form.form, carrier, ...form.make(7) })));
  cases = [...every, ...cases];
  for (const one of cases) await sendCase(one);
  const last = await send('/v2/order/refund', { 'content-type': 'application/json', 'x-service-locationid': 'loc-std-001', authorization: `Bearer ${token()}` }, Buffer.from('{"ExternalId":"FORMS-LAST"}'));
  expect(last).toBe(200);
  for (let i = 0; i < 100 && !events.includes('FORMS-LAST'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  outputs.journal = (await allPageTexts(sandbox.baseUrl, '/_sandbox/journal?limit=1000')).join('\n');
  outputs.har = await (await fetch(`${sandbox.baseUrl}/_sandbox/journal.har`)).text();
  outputs.tail = (await cli(['journal', 'tail', '-n', '1000', '--sandbox', sandbox.baseUrl])).stdout;
  outputs.tailJson = (await cli(['journal', 'tail', '-n', '1000', '--json', '--sandbox', sandbox.baseUrl])).stdout;
  reportDir = mkdtempSync(join(tmpdir(), 'secret-forms-'));
  const checklist = await cli(['checklist', '--passive', '--sandbox', sandbox.baseUrl, '--report-dir', reportDir]);
  outputs.checklist = checklist.stdout + checklist.stderr;
  for (const name of readdirSync(reportDir, { recursive: true }) as string[]) {
    const path = join(reportDir, name);
    if (statSync(path).isFile()) outputs[`report ${name}`] = readFileSync(path, 'utf8');
  }
  outputs.events = events;
  // The log's lines (JSON, as its stdout is a pipe); the banner, which shows a sample token on purpose, is not one.
  outputs.log = sandbox
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .join('\n');
  await reader.cancel();
}, 90_000);

afterAll(() => {
  stopServers();
  if (reportDir) rmSync(reportDir, { recursive: true, force: true });
});

/** Every way a needle could be written in an output: as it is, JSON-escaped, HTML-escaped, and as the CLI shows it. */
function writings(needle: string): string[] {
  const json = JSON.stringify(needle).slice(1, -1);
  const html = needle.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
  return [...new Set([needle, json, JSON.stringify(json).slice(1, -1), html, printable(needle), JSON.stringify(printable(needle)).slice(1, -1), needle.toLowerCase()])];
}

describe('the key and tokens in every form, through every carrier, in every output', () => {
  it('reached every output (the scan is not of empty files)', () => {
    expect(cases.length).toBeGreaterThan(60);
    for (const name of ['journal', 'har', 'tail', 'tailJson', 'events', 'log']) expect({ name, size: outputs[name]!.length > 1000 }).toEqual({ name, size: true });
    expect(Object.keys(outputs).some((name) => name.endsWith('report.json'))).toBe(true);
  });

  it(`leaves no case's secret in any output, in any form it was sent in (seed ${seed})`, () => {
    const leaks: string[] = [];
    for (const one of cases) {
      for (const needle of one.needles) {
        for (const written of writings(needle)) {
          for (const [name, text] of Object.entries(outputs)) {
            const haystack = written === needle.toLowerCase() ? text.toLowerCase() : text;
            if (haystack.includes(written)) leaks.push(`${one.form} in the ${one.carrier}: ${name} holds ${JSON.stringify(written.slice(0, 24))}…`);
          }
        }
      }
    }
    expect([...new Set(leaks)]).toEqual([]);
  });
});
