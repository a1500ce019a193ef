import { describe, expect, it } from '@jest/globals';
import { readPlainBody } from './json-body.js';
import { connect, type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type RequestHandler } from 'express';
import fc from 'fast-check';
import request from 'supertest';

const LIMIT = 1024;

/** What a reader made of a body: the text, or the error's type. */
const report =
  (read: (req: express.Request, res: express.Response, done: (error?: unknown) => void) => void): RequestHandler =>
  (req, res) => {
    read(req, res, (error?: unknown) => {
      const fast = res.locals.fast === true;
      res.json(error ? { error: (error as { type?: string }).type ?? String(error), fast } : { body: req.body as unknown, fast });
    });
  };

const bodyParser = express.text({ type: () => true, limit: LIMIT, defaultCharset: 'utf-8' });
const app = express();
app.post('/body-parser', report((req, res, done) => void bodyParser(req, res, done)));
app.post(
  '/plain',
  report((req, res, done) => {
    res.locals.fast = readPlainBody(req, LIMIT, done);
    if (!res.locals.fast) void bodyParser(req, res, done);
  }),
);

describe('readPlainBody', () => {
  it('makes of any body what body-parser makes of it, and reads the usual ones itself', async () => {
    const contentType = fc.constantFrom(undefined, 'application/json', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'text/plain; charset=utf8', 'application/json; charset=latin1', 'application/json; foo=bar', 'nonsense; charset=utf-8');
    const body = fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }).map((text) => Buffer.from(text)), fc.constant(Buffer.from('\uFEFF{"ExternalId":"A"}')));
    await fc.assert(
      fc.asyncProperty(body, contentType, async (bytes, type) => {
        const send = (path: string) => {
          const call = request(app).post(path);
          if (type !== undefined) call.set('content-type', type);
          return call.send(Buffer.from(bytes));
        };
        const [expected, plain] = await Promise.all([send('/body-parser'), send('/plain')]);
        expect({ ...plain.body, fast: undefined }).toEqual({ ...expected.body, fast: undefined });
        if (type === undefined || /utf-?8"?$|json$/i.test(type)) expect(plain.body.fast).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    ['a Content-Encoding', { 'content-encoding': 'identity' }, 'x'],
    ['a body over the limit', {}, 'x'.repeat(LIMIT + 1)],
  ])('leaves %s to body-parser', async (_case, headers: Record<string, string>, text) => {
    const [expected, plain] = await Promise.all(['/body-parser', '/plain'].map((path) => request(app).post(path).set(headers).send(text)));
    expect(plain!.body).toEqual(expected!.body);
    expect(plain!.body.fast).toBe(false);
  });

  it('reads a body that comes in several chunks, a character split between two, as one text', async () => {
    const reader = express();
    const read = new Promise<unknown>((resolve) =>
      reader.post('/', (req, res) => {
        readPlainBody(req, LIMIT, (error) => {
          resolve(error ?? req.body);
          res.end();
        });
      }),
    );
    const server: Server = reader.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const body = Buffer.from('{"ExternalId":"Café ✓ 🍔"}');
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.setNoDelay(true);
    try {
      socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
      // Cut inside the 4-byte emoji and inside the check mark; each piece waits for the server to have the one before.
      for (const [from, to] of [[0, 20], [20, body.length - 3], [body.length - 3, body.length]] as const) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        socket.write(body.subarray(from, to));
      }
      await expect(read).resolves.toBe(body.toString('utf8'));
    } finally {
      socket.destroy();
      server.close();
    }
  });

  it("gives body-parser's error, request aborted, for a body whose connection closes before it is whole", async () => {
    const reader = express();
    const seen = new Promise<unknown>((resolve) => reader.post('/', (req) => void readPlainBody(req, LIMIT, resolve)));
    const server: Server = reader.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1', () => {
      socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"Exter');
    });
    // The client hangs up once the server has the headers and the first bytes (they arrive in one packet).
    server.once('request', () => setImmediate(() => socket.destroy()));
    try {
      await expect(seen).resolves.toMatchObject({ message: 'request aborted', type: 'request.aborted', status: 400, expected: 100, received: 7 });
    } finally {
      server.close();
    }
  });
});
