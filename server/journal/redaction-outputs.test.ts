/** A signature the redaction learns only from context (a token split across headers, a token seen after the text that held its signature), kept out of every output. */
import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { redactLogArguments } from '../logger.js';
import { Redactor } from './redactor.js';
import { cleanHeaders, PARTNER, posToken, postRefund, signHs256, testSandbox, validClaims } from '../test/helpers.js';
import { ALPHA, startHosted } from '../test/hosted-partners.js';

/** A logger redacted as serve's is, whose lines are kept for the test to read. */
function keptLog(redactor: Redactor) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const logger = pino({ hooks: { logMethod: (args, method) => method.apply(logger, redactLogArguments(args, redactor) as Parameters<typeof method>) } }, sink);
  return { logger, lines };
}

async function sandboxWithLog() {
  const redactor = new Redactor(PARTNER.nonProdKey);
  const { logger, lines } = keptLog(redactor);
  const sandbox = await testSandbox({ logger, redactor });
  return { ...sandbox, lines };
}

/** Every output a user can read of the journal and the events, as text. */
async function outputs(sandbox: Awaited<ReturnType<typeof sandboxWithLog>>, filters: Record<string, string> = {}): Promise<string> {
  const journal = await request(sandbox.app).get('/_sandbox/journal');
  const har = await request(sandbox.app).get('/_sandbox/journal.har').buffer(true);
  const filtered = await Promise.all(Object.entries(filters).map(([name, value]) => request(sandbox.app).get('/_sandbox/journal').query({ [name]: value })));
  const events = sandbox.events.since(0);
  return JSON.stringify([journal.body, har.text, filtered.map((answer) => answer.body), events]);
}

describe('a token split across two headers', () => {
  it('its signature alone in x-service-locationid is redacted in the location, the finding, the journal, the events and the log line', async () => {
    const sandbox = await sandboxWithLog();
    const split = posToken({ jti: 'jti-split' });
    const [header, claims, signature] = split.split('.') as [string, string, string];
    await postRefund(sandbox.app, { headers: { ...cleanHeaders(), 'x-request-id': `${header}.${claims}`, 'x-service-locationid': signature } });
    const seen = `${await outputs(sandbox, { location: signature })} ${sandbox.lines.join('')}`;
    expect(seen).not.toContain(signature);
    expect(seen).toContain(`${header}.${claims}`);
    const [entry] = (await request(sandbox.app).get('/_sandbox/journal')).body;
    expect(entry.locationId).toBe('[redacted]');
    expect(entry.request.headers['x-service-locationid']).toBe('[redacted]');
  });

  it('the signature first, in a header sent twice, the header and claims in another', async () => {
    const sandbox = await sandboxWithLog();
    const [header, claims, signature] = posToken({ jti: 'jti-split-2' }).split('.') as [string, string, string];
    await postRefund(sandbox.app, { path: `/v2/order/refund?ref=${signature}`, headers: { ...cleanHeaders(), 'x-trace': `${signature}, ${header}.${claims}` } });
    expect(`${await outputs(sandbox, { path: signature })} ${sandbox.lines.join('')}`).not.toContain(signature);
  });
});

describe("a token or the key cut across a request's target", () => {
  it.each([
    ['the signature first in the query, the header and claims after', (head: string, signature: string) => `/v2/order/refund?b=${signature}&a=${head}`],
    ['the header and claims, then the signature, as path segments', (head: string, signature: string) => `/v2/order/refund/${head}/${signature}`],
  ])('%s: no output holds the signature', async (_form, target) => {
    const sandbox = await sandboxWithLog();
    const [header, claims, signature] = posToken({ jti: 'jti-target' }).split('.') as [string, string, string];
    await postRefund(sandbox.app, { path: target(`${header}.${claims}`, signature) });
    expect(`${await outputs(sandbox)} ${sandbox.lines.join('')}`).not.toContain(signature);
    expect(sandbox.lines.join('')).toContain('[redacted]');
  });

  it('the key in halves as two path segments, the second first', async () => {
    const sandbox = await sandboxWithLog();
    const key = PARTNER.nonProdKey;
    await postRefund(sandbox.app, { path: `/v2/order/${key.slice(16)}/${key.slice(0, 16)}` });
    const seen = `${await outputs(sandbox)} ${sandbox.lines.join('')}`;
    expect(seen).not.toContain(key.slice(16));
    expect(seen).not.toContain(key.slice(0, 16));
    expect(seen).toContain('/v2/order/[redacted]/[redacted]');
  });
});

describe('a signature sent before its token', () => {
  it('is redacted in the journal already read, its filters, the HAR and the events once the token comes', async () => {
    const sandbox = await sandboxWithLog();
    const later = posToken({ jti: 'jti-later' });
    const signature = later.split('.')[2]!;
    await postRefund(sandbox.app, { path: `/v2/order/refund/${signature}` });
    await postRefund(sandbox.app, { path: `/v2/order/refund?s=${signature}`, headers: { ...cleanHeaders(), 'x-service-locationid': signature } });
    // Read while the signature is unknown: it looks like any id, and is shown.
    expect(await outputs(sandbox, { path: signature, location: signature })).toContain(signature);
    await postRefund(sandbox.app, { headers: cleanHeaders(later) });
    const shown = await outputs(sandbox, { path: signature, location: signature });
    expect(shown).not.toContain(signature);
    const filtered = await request(sandbox.app).get('/_sandbox/journal').query({ path: signature });
    expect(filtered.body).toEqual([]);
    const list = (await request(sandbox.app).get('/_sandbox/journal')).body as Array<{ path: string; locationId?: string }>;
    expect(list.map((entry) => entry.path)).toEqual(['/v2/order/refund', '/v2/order/refund', '/v2/order/refund/[redacted]']);
    expect(list[1]!.locationId).toBe('[redacted]');
  });
});

describe('a signature sent before its token, in an entry too large to search again whole', () => {
  it('is redacted when read after the token comes, as hex in a long body', async () => {
    const sandbox = await sandboxWithLog();
    const later = posToken({ jti: 'jti-large' });
    const hex = Buffer.from(later.split('.')[2]!, 'base64url').toString('hex');
    const filler = 'x'.repeat(8 * 1024);
    await postRefund(sandbox.app, { body: JSON.stringify({ ExternalId: 'POS-STD-1001', filler, sig: `hex ${hex}` }) });
    expect(await outputs(sandbox)).toContain(hex);
    await postRefund(sandbox.app, { headers: cleanHeaders(later) });
    expect(await outputs(sandbox)).not.toContain(hex);
  });

  it('is not searched again when no piece of a new signature is in it', () => {
    const redactor = new Redactor(PARTNER.nonProdKey);
    const before = redactor.learnt;
    const token = posToken({ jti: 'jti-absent' });
    redactor.remember(`Bearer ${token}`);
    const signature = token.split('.')[2]!;
    expect(redactor.couldHoldLearnt('{"a":"nothing of it here"}', before)).toBe(false);
    expect(redactor.couldHoldLearnt(`{"a":"${signature.slice(10, 30)}"}`, before)).toBe(true);
    expect(redactor.couldHoldLearnt(`{"a":"${Buffer.from(signature, 'base64url').toString('hex').toUpperCase()}"}`, before)).toBe(true);
  });
});

describe('a signature sent before its token, the token then only inside a body', () => {
  it('is redacted in what the journal shows after', async () => {
    const sandbox = await sandboxWithLog();
    const later = posToken({ jti: 'jti-in-body' });
    const signature = later.split('.')[2]!;
    await postRefund(sandbox.app, { path: `/v2/order/refund/${signature}` });
    expect(await outputs(sandbox)).toContain(signature);
    await postRefund(sandbox.app, { body: JSON.stringify({ ExternalId: 'POS-STD-1001', debug: { token: later } }) });
    expect(await outputs(sandbox, { path: signature })).not.toContain(signature);
  });
});

describe('a token whose header and claims a body carries, its signature elsewhere', () => {
  it('the signature as a field name: the finding that names the field is redacted too', async () => {
    const sandbox = await sandboxWithLog();
    const [header, claims, signature] = posToken({ jti: 'jti-field-name' }).split('.') as [string, string, string];
    await postRefund(sandbox.app, { body: JSON.stringify({ ExternalId: 'POS-STD-1001', a: `${header}.${claims}`, [signature]: 1 }) });
    expect(`${await outputs(sandbox)} ${sandbox.lines.join('')}`).not.toContain(signature);
  });

  it('a text body with the header and claims, a space, then the signature', async () => {
    const sandbox = await sandboxWithLog();
    const [header, claims, signature] = posToken({ jti: 'jti-text-body' }).split('.') as [string, string, string];
    await postRefund(sandbox.app, { headers: { ...cleanHeaders(), 'content-type': 'text/plain' }, body: `${header}.${claims} ${signature}` });
    expect(`${await outputs(sandbox)} ${sandbox.lines.join('')}`).not.toContain(signature);
  });
});

describe("the POS's own ids beside a token's header and claims", () => {
  it('an ExternalId of a signature\'s length sent beside a head in the headers stays readable in every later entry', async () => {
    const sandbox = await sandboxWithLog();
    const externalId = 'POS-ORDER-20261206-000123-ABCDEFGHIJKLMNOPQ';
    expect(externalId).toHaveLength(43);
    const [header, claims] = posToken({ jti: 'jti-beside' }).split('.') as [string, string];
    await postRefund(sandbox.app, { headers: { ...cleanHeaders(), 'x-debug-token': `${header}.${claims}`, 'x-correlation-id': externalId } });
    await postRefund(sandbox.app, { body: JSON.stringify({ ExternalId: externalId }) });
    const [latest] = (await request(sandbox.app).get('/_sandbox/journal?limit=1')).body;
    expect(latest.request.body).toEqual({ ExternalId: externalId });
  });
});

describe('a hosted sandbox', () => {
  it("its log redacts a signature each partner's sandbox has seen, alone in a later path", async () => {
    const redactor = new Redactor([ALPHA.key]);
    const { logger, lines } = keptLog(redactor);
    const hosted = await startHosted({}, { logger, logRedactor: redactor });
    try {
      const token = signHs256({ alg: 'HS256', typ: 'JWT' }, validClaims({ iss: ALPHA.name, sub: 'loc-std-001' }), ALPHA.key);
      const signature = token.split('.')[2]!;
      const call = (path: string) => request(hosted.app).post(path).set({ authorization: `Bearer ${token}`, 'x-service-locationid': 'loc-std-001', 'x-api-key': ALPHA.apiKey, 'content-type': 'application/json' }).send('{"ExternalId":"POS-STD-1001"}');
      await call('/v2/order/refund');
      await call(`/v2/order/refund/${signature}`);
      expect(lines.join('')).toContain('/v2/order/refund/[redacted]');
      expect(lines.join('')).not.toContain(signature);
    } finally {
      hosted.close();
    }
  });
});
