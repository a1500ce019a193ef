/**
 * The control commands as a user runs them: the built CLI against one real `serve` process (and a stand-in POS
 * that takes every order), `--json` parsed, lines read whole, and every failure said once with its URL.
 */
/* eslint-disable no-control-regex -- control characters are what the test of printed data looks for */
import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PACKAGE_ROOT } from '../version.js';
import { closeServers, listen } from './live.js';
import { cli, serve, stopServers } from './processes.js';
import { refundAt, streamOpen as streamOpenAt } from './sandbox-calls.js';

let sandboxUrl: string;
let orders = 0;
/** What the sandbox logged (JSON lines: its stdout is a pipe). */
let log = '';
/** OrderIds whose first delivery try the stand-in POS answers 503. */
const failFirstTry = new Set(['ord-cli-retry']);
/** What the attack run put into a POS's reply: a window title, an OSC 52 clipboard write, a clear screen, a forged line. */
const HOSTILE_EXTERNAL_ID = 'EVIL\u001b]0;pwned\u0007\u001b]52;c;Y3VybCBldmls\u0007';
const HOSTILE_REASON = 'no\u001b[2J\u001b[H\nPASS ORDER-02 forged\rX\u009b2J\u202eDIAP';
const run = (args: string[], env: Record<string, string> = {}) => cli(args, { SANDBOX_URL: sandboxUrl, NO_COLOR: '1', ...env });
const json = async <T>(args: string[]): Promise<T> => {
  const result = await run([...args, '--json']);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(result.stdout) as T;
};

const streamOpen = () => streamOpenAt(sandboxUrl);
const refund = (externalId: string, extra: Record<string, unknown> = {}) => refundAt(sandboxUrl, externalId, extra);

beforeAll(async () => {
  const pos = await listen((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const { OrderId } = JSON.parse(text) as { OrderId: string };
      if (failFirstTry.delete(OrderId)) return void res.writeHead(503).end();
      if (OrderId === 'ord-cli-hostile') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ExternalId: HOSTILE_EXTERNAL_ID, Status: 'REJECTED', Reason: HOSTILE_REASON }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ExternalId: `STANDIN-${++orders}` }));
    });
  });
  // A failed delivery try is tried again after 50 ms, not 1 s: the retry test is not about time.
  const started = await serve(['--pos-order-url', `${pos}/order`, '--retry-delays-ms', '50']);
  sandboxUrl = started.baseUrl;
  started.child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
});

afterAll(async () => {
  stopServers();
  await closeServers();
});

describe('pos-sandbox status and reset', () => {
  it('status --json is the health answer; the lines say where the sandbox is and what it holds', async () => {
    const health = await json<{ status: string; partner: string; store: string; delivery: { posOrderUrl: string } }>(['status']);
    expect(health).toMatchObject({ status: 'ok', partner: 'demo-pos', store: 'memory', delivery: { posOrderUrl: expect.stringMatching(/\/order$/), attempts: 3, attemptTimeoutMs: 10000, retryDelaysMs: [50] } });
    const lines = await run(['status']);
    expect(lines.stdout.replace(/up \d+ s/, 'up N s').replace(/journal: +\d+ of/, 'journal: N of').split('\n')).toEqual([
      `up  ${sandboxUrl}  pos-sandbox 0.1.0, up N s`,
      '  partner (token iss): demo-pos',
      '  store:               memory',
      `  POS order URL:       ${health.delivery.posOrderUrl}`,
      '  journal: N of at most 5000 entries',
      expect.stringMatching(/^ {2}fault rules: +\d+$/),
      '  strict:              false',
      '',
    ]);
  });
});

describe('pos-sandbox orders', () => {
  it('creates an order from a template, waits for its delivery, and finds it in list and show', async () => {
    const created = await json<{ OrderId: string; Template: string; Status: string; ExternalId: string; LocationId: string }>(['orders', 'create', '--template', 'kiosk', '--order-id', 'ord-cli-1', '--wait']);
    expect(created).toMatchObject({ OrderId: 'ord-cli-1', Template: 'kiosk', Status: 'AWAITING_STATUS', ExternalId: expect.stringMatching(/^STANDIN-\d+$/), LocationId: 'loc-kiosk-001' });
    const listed = await json<Array<{ OrderId: string }>>(['orders', 'list', '--template', 'kiosk']);
    expect(listed.map((order) => order.OrderId)).toContain('ord-cli-1');
    const shown = await json<{ OrderId: string; History: Array<{ status: string }> }>(['orders', 'show', 'ord-cli-1']);
    expect(shown.History.map((change) => change.status)).toEqual(['NEW', 'DISPATCHED', 'AWAITING_STATUS']);
  });

  it('logs each state an order enters once, even when a delivery try fails and is tried again', async () => {
    const created = await json<{ Status: string }>(['orders', 'create', '--template', 'standard', '--order-id', 'ord-cli-retry', '--wait']);
    expect(created.Status).toBe('AWAITING_STATUS');
    const lines = log
      .split('\n')
      .filter((line) => line.includes('"ord-cli-retry"'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(lines).toEqual(['order NEW', 'order DISPATCHED', expect.stringMatching(/^order AWAITING_STATUS \(ExternalId STANDIN-\d+\)$/)]);
  });

  it('lists orders as aligned lines', async () => {
    const result = await run(['orders', 'list', '--template', 'standard', '--limit', '3']);
    expect(result).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'ORDER         LOCATION     TEMPLATE  STATUS    EXTERNAL ID   REASON',
        'ord-std-0001  loc-std-001  standard  ACCEPTED  POS-STD-1001',
        'ord-std-0002  loc-std-001  standard  ACCEPTED  POS-STD-1002',
        'ord-std-0003  loc-std-001  standard  REJECTED  POS-STD-1003  Kitchen closed',
        '',
      ].join('\n'),
    });
  });

  it('resends a REJECTED order with --json: same OrderId, delivered again', async () => {
    const resent = await json<{ OrderId: string; Status: string; ExternalId: string }>(['orders', 'resend', 'ord-std-0003', '--wait']);
    expect(resent).toMatchObject({ OrderId: 'ord-std-0003', Status: 'AWAITING_STATUS', ExternalId: expect.stringMatching(/^STANDIN-\d+$/) });
  });

  it('says an order loaded from the fixtures has no history, rather than print an empty one', async () => {
    const shown = await run(['orders', 'show', 'ord-std-0001']);
    expect({ code: shown.code, last: shown.stdout.trim().split('\n').at(-1) }).toEqual({ code: 0, last: 'history: none: the order is ACCEPTED as it was loaded or created, unchanged since' });
  });

  it('says what the sandbox answered when an order is unknown or cannot be resent, exit 1', async () => {
    expect(await run(['orders', 'show', 'no-such-order'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `pos-sandbox: GET ${sandboxUrl}/_sandbox/orders/no-such-order answered 404: NOT_FOUND: no order 'no-such-order'; GET /_sandbox/orders lists them\n`,
    });
    const resend = await run(['orders', 'resend', 'ord-std-0001']);
    expect({ code: resend.code, stderr: resend.stderr.split(':').slice(0, 4).join(':') }).toEqual({ code: 1, stderr: `pos-sandbox: POST ${sandboxUrl}/_sandbox/orders/ord-std-0001/resend answered 409` });
  });

  it('refuses an unknown template before it asks anything, exit 2', async () => {
    const result = await run(['orders', 'create', '--template', 'drive-thru']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: "error: option '--template <name>' argument 'drive-thru' is invalid. Allowed choices are standard, hub, kiosk.\n" });
  });
});

describe('pos-sandbox faults', () => {
  it('adds a rule from flags, lists it with its counters, sees it fire, removes it', async () => {
    await run(['faults', 'reset']);
    const added = await json<{ id: string; match: object; action: object; times: number; left: number }>(['faults', 'add', '--id', 'cli-outage', '--kind', 'status', '--status', '503', '--path', '/order/refund', '--times', '2']);
    expect(added).toMatchObject({ id: 'cli-outage', match: { path: '/order/refund' }, action: { kind: 'status', status: 503 }, times: 2, left: 2 });
    expect(await refund('FAULTED-1')).toBe(503);
    expect((await run(['faults', 'list'])).stdout).toBe(['RULE        MATCH               ACTION             FIRED        LEFT', 'cli-outage  path=/order/refund  status status=503  1 of 1 seen  1', ''].join('\n'));
    expect(await run(['faults', 'remove', 'cli-outage'])).toEqual({ code: 0, stderr: '', stdout: 'removed fault rule cli-outage\n' });
    expect(await run(['faults', 'remove', 'cli-outage', '--json'])).toMatchObject({ code: 1, stderr: expect.stringContaining('answered 404') });
    expect((await run(['faults', 'list'])).stdout).toBe('no fault rules in force\n');
  });

  it('loads a ready script by its name, or a file, and resets', async () => {
    const loaded = await json<Array<{ id: string }>>(['faults', 'load', 'slow-service']);
    expect(loaded.map((rule) => rule.id).sort()).toEqual(['slow', 'slow-past-timeout']);
    const file = join(PACKAGE_ROOT, 'fixtures', 'faults', 'rate-limited.json');
    expect((await run(['faults', 'load', file])).code).toBe(0);
    expect(await run(['faults', 'reset'])).toEqual({ code: 0, stderr: '', stdout: 'every fault rule removed\n' });
    expect(await json<unknown[]>(['faults', 'list'])).toEqual([]);
  });

  it('lists a rule added through the control API without a match as matching every request', async () => {
    const added = await fetch(`${sandboxUrl}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'no-match', action: { kind: 'status', status: 503 }, times: 1 }) });
    expect(added.status).toBe(201);
    await added.arrayBuffer();
    expect(await run(['faults', 'list'])).toEqual({ code: 0, stderr: '', stdout: ['RULE      MATCH          ACTION             FIRED        LEFT', 'no-match  every request  status status=503  0 of 0 seen  1', ''].join('\n') });
    await run(['faults', 'reset']);
  });

  it('passes the sandbox’s own refusal of a bad rule through, and says which file is missing', async () => {
    const bad = await run(['faults', 'add', '--kind', 'status', '--path', '/order/refund']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(new RegExp(`^pos-sandbox: POST ${sandboxUrl}/_sandbox/faults answered 400: INVALID_REQUEST: .*status.*\\n$`));
    const missing = await run(['faults', 'load', 'no-such-script']);
    expect(missing).toEqual({ code: 1, stdout: '', stderr: `pos-sandbox: no file no-such-script, and no ready script of that name in ${join(PACKAGE_ROOT, 'fixtures', 'faults')}\n` });
  });
});

describe('data the sandbox did not write, printed', () => {
  it('shows the control characters of an ExternalId, a reason and a rule as escapes in every command, and in the log', async () => {
    await json(['orders', 'create', '--template', 'standard', '--order-id', 'ord-cli-hostile', '--wait']);
    expect(await refund(HOSTILE_EXTERNAL_ID)).toBe(200);
    await json(['faults', 'add', '--id', 'cli-hostile', '--kind', 'status', '--status', '503', '--path', '/nothing\u001b]0;x\u0007']);
    const outputs = await Promise.all(
      [['orders', 'list'], ['orders', 'show', 'ord-cli-hostile'], ['refunds', 'list'], ['journal', 'tail', '-n', '50'], ['faults', 'list'], ['status']].map((args) => run(args)),
    );
    const printed = outputs.map((output) => output.stdout + output.stderr).join('\n');
    // No terminal control at all reaches the terminal (NO_COLOR: not even colours), nor a carriage return.
    expect(printed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(printed).toContain('EVIL\\u001b]0;pwned\\u0007\\u001b]52;c;Y3VybCBldmls\\u0007');
    expect(printed).toContain('no\\u001b[2J\\u001b[H\\u000aPASS ORDER-02 forged\\u000dX\\u009b2J\\u202eDIAP');
    expect(printed).toContain('path=/nothing\\u001b]0;x\\u0007');
    // --json keeps the data as it is, JSON-escaped: a script reads back exactly what the POS sent.
    const order = await json<{ ExternalId: string; Reason: string }>(['orders', 'show', 'ord-cli-hostile']);
    expect([order.ExternalId, order.Reason]).toEqual([HOSTILE_EXTERNAL_ID, HOSTILE_REASON]);
    expect((await run(['orders', 'show', 'ord-cli-hostile', '--json'])).stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    // The sandbox's own log lines (JSON here: its stdout is a pipe) carry the reason escaped too.
    expect(log).toContain('order REJECTED: no\\\\u001b[2J');
    expect(log).not.toMatch(/[\u007f-\u009f\u202a-\u202e]/);
    await run(['faults', 'remove', 'cli-hostile']);
  });
});

describe('pos-sandbox refunds and journal', () => {
  it('lists a refund the POS sent, and the journal shows it, one line per exchange, filtered by findings', async () => {
    expect(await refund('CLI-REFUND-1')).toBe(200);
    expect(await refund('CLI-REFUND-2', { Amount: 5 })).toBe(200);
    const refunds = await json<Array<{ externalId: string; status: string }>>(['refunds', 'list', '--external-id', 'CLI-REFUND-1']);
    // PENDING for the refund delay (1 s), then FAILED (no such order): a loaded machine can take longer than that
    // between the refund and the listing.
    expect(refunds).toEqual([expect.objectContaining({ externalId: 'CLI-REFUND-1', status: expect.stringMatching(/^(PENDING|FAILED)$/) })]);
    const tail = await run(['journal', 'tail', '-n', '2', '--path', '/order/refund']);
    const lines = tail.stdout.replace(/^\d\d:\d\d:\d\d\.\d{3}/gm, 'HH:MM:SS.mmm').replace(/ \d+ ms /g, ' N ms ').replace(/j-\d{6}/g, 'j-N');
    expect(lines).toBe(
      [
        'HH:MM:SS.mmm  POS → sandbox  POST /v2/order/refund  200  loc-std-001  N ms  j-N',
        'HH:MM:SS.mmm  POS → sandbox  POST /v2/order/refund  200  loc-std-001  N ms  findings: UNKNOWN_FIELD  j-N',
        '',
      ].join('\n'),
    );
    const withFindings = (await run(['journal', 'tail', '--findings', '--json'])).stdout.trim().split('\n').map((line) => JSON.parse(line) as { findings: string[] });
    expect(withFindings.length).toBeGreaterThan(0);
    expect(withFindings.every((row) => row.findings.length > 0)).toBe(true);
  });

  it("filters refunds by the statuses a refund has (PROCESSED, not SUCCEEDED, which none ever has)", async () => {
    const wrong = await run(['refunds', 'list', '--status', 'SUCCEEDED']);
    expect({ code: wrong.code, stderr: wrong.stderr }).toEqual({ code: 2, stderr: expect.stringContaining("Allowed choices are PENDING, PROCESSED, FAILED") });
    expect((await run(['refunds', 'list', '--status', 'PROCESSED'])).code).toBe(0);
  });

  it('journal tail says so when no exchange matches, on stderr, so --json stays JSON lines', async () => {
    const none = await run(['journal', 'tail', '--findings', '--path', '/no/such/path']);
    expect(none).toEqual({ code: 0, stdout: '', stderr: 'no exchange in the journal matches --findings --path "/no/such/path"\n' });
    expect((await run(['journal', 'tail', '--status', '418', '--json'])).stdout).toBe('');
  });

  it('journal tail --follow prints an exchange as it happens, and only those its filter takes', async () => {
    const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin', 'pos-sandbox.js'), 'journal', 'tail', '--follow', '-n', '0', '--findings', '--json'], { env: { PATH: process.env.PATH ?? '', SANDBOX_URL: sandboxUrl } });
    try {
      let out = '';
      const printed = new Promise<string>((resolve) =>
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolve(out);
        }),
      );
      await streamOpen();
      expect(await refund('FOLLOW-CLEAN')).toBe(200);
      expect(await refund('FOLLOW-EXTRA', { Amount: 1 })).toBe(200);
      const [line] = (await printed).trim().split('\n');
      expect(JSON.parse(line!)).toMatchObject({ direction: 'inbound', method: 'POST', path: '/v2/order/refund', status: 200, findings: ['UNKNOWN_FIELD'] });
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('journal tail -n over more than one page', () => {
  it('prints as many exchanges as asked, though the journal gives them in pages cut at 1 MiB of bodies', async () => {
    // 16 KiB kept of each body: about 60 to a page, so 80 take two.
    const note = 'n'.repeat(16 * 1024);
    for (let n = 0; n < 80; n++) expect(await refund(`CLI-PAGES-${n}`, { Note: note })).toBe(200);
    const tail = await run(['journal', 'tail', '-n', '80', '--path', '/order/refund', '--json']);
    expect(tail.code).toBe(0);
    const lines = tail.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: string });
    expect(lines).toHaveLength(80);
    expect(new Set(lines.map((line) => line.id)).size).toBe(80);
  });
});

describe('pos-sandbox reset', () => {
  it('puts the sandbox back to its fixtures', async () => {
    // A refund still PENDING at a reset is decided after it and comes back (noted for its own fix): wait for none.
    for (let tries = 0; tries < 50 && (await json<unknown[]>(['refunds', 'list', '--status', 'PENDING'])).length > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await json<object>(['reset'])).toEqual(expect.any(Object));
    expect(await run(['reset'])).toEqual({ code: 0, stderr: '', stdout: `reset: ${sandboxUrl} is back to its fixtures\n` });
    expect(await json<unknown[]>(['refunds', 'list'])).toEqual([]);
  });
});
