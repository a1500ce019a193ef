import { once } from 'node:events';
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import express from 'express';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSandboxServer } from './http-parser-errors.js';
import { testApp } from '../test/helpers.js';

let server: Server;
let port: number;

beforeAll(async () => {
  server = createSandboxServer(await testApp());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.close();
});

/** Writes raw bytes and resolves with everything the server sent back before closing. */
function exchange(raw: string): Promise<{ status: number; headers: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(raw));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body: body === '' ? undefined : JSON.parse(body) });
    });
  });
}

describe("requests Node's HTTP parser refuses", () => {
  it('headers over 16 KiB answer 431 in the envelope', async () => {
    const res = await exchange(`POST /v2/order/refund HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers).toMatch(/content-type: application\/json/);
    expect(res.body).toEqual({
      errors: [{ code: 'HEADERS_TOO_LARGE', message: 'the request headers are larger than the 16 KiB the sandbox reads; a §5 token and the §4 headers need under 2 KiB' }],
    });
  });

  it('a NUL in a header answers 400 in the envelope; on the menu path, in the menu envelope', async () => {
    const res = await exchange('PUT /v2/menu HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Odd: a\u0000b\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          Code: 'INVALID_REQUEST',
          Message: 'a header name or value holds a character HTTP does not allow (a control character, NUL or bare line feed); send printable ASCII headers',
        },
      ],
    });
  });

  it('a request line that is not HTTP answers 400 in the envelope', async () => {
    const res = await exchange('HELLO THERE\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ code: 'INVALID_REQUEST', message: 'the request line is not METHOD /path HTTP/1.1; this is not an HTTP request the sandbox can read' }],
    });
  });

  it('an HTTP/1.1 request without Host answers 400 in the envelope', async () => {
    const res = await exchange('GET /_sandbox/health HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ code: 'INVALID_REQUEST', message: 'an HTTP/1.1 request must carry a Host header (RFC 9112 §3.2); send Host: 127.0.0.1:<port>' }],
    });
  });

  it('an Expect the sandbox cannot meet answers 417 in the envelope', async () => {
    const res = await exchange('PUT /v2/menu HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
    expect(res.status).toBe(417);
    expect(res.body).toEqual({
      errors: [{ Code: 'EXPECTATION_FAILED', Message: 'Expect: x is not something the sandbox can meet; send Expect: 100-continue or no Expect header' }],
    });
  });

  it.each(['http://', 'http://['])('a request target with no path (%s) answers 400 in the envelope, not an HTML 404', async (target) => {
    const res = await exchange(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ code: 'INVALID_REQUEST', message: 'the request target has no path; send origin-form (/v2/order/refund) or an absolute URL with a path' }],
    });
  });

  it('a CONNECT answers 400 in the envelope: the sandbox is no proxy, and says so rather than hang up', async () => {
    const res = await exchange('CONNECT 10.0.0.1:5432 HTTP/1.1\r\nHost: 10.0.0.1:5432\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ code: 'INVALID_REQUEST', message: 'the sandbox is no proxy: CONNECT 10.0.0.1:5432 is refused; send the request itself (POST /v2/order/refund)' }],
    });
  });

  it('an absolute-form target with a path is served', async () => {
    const res = await exchange('GET http://127.0.0.1/_sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
  });

  it('the server keeps answering afterwards', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/_sandbox/health`);
    expect(res.status).toBe(200);
  });
});

describe('a hosted server (originFormOnly): paths only', () => {
  let hosted: Server;
  let hostedPort: number;
  beforeAll(async () => {
    hosted = createSandboxServer(await testApp(), { originFormOnly: true });
    hosted.listen(0, '127.0.0.1');
    await once(hosted, 'listening');
    hostedPort = (hosted.address() as AddressInfo).port;
  });
  afterAll(() => {
    hosted.close();
  });

  const send = (raw: string) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const socket = connect(hostedPort, '127.0.0.1', () => socket.end(raw));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const [head = '', body = ''] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
        resolve({ status: Number(head.split(' ')[1]), body: body === '' ? undefined : JSON.parse(body) });
      });
    });
  const message = 'the request target must be a path (origin-form, such as /v2/order/refund): this hosted sandbox does not take an absolute URL or a target starting with //';

  it.each([
    ['an absolute-form target', 'GET http://127.0.0.1/_sandbox/health', 'order'],
    ['a //host target', 'GET //127.0.0.1:9/_sandbox/health', 'order'],
    ['a /\\host target', 'GET /\\127.0.0.1/x', 'order'],
    ['an absolute-form menu target (in the menu envelope)', 'PUT http://127.0.0.1/v2/menu', 'menu'],
    ['an asterisk target', 'OPTIONS *', 'order'],
  ])('refuses %s with 400 in the envelope', async (_what, line, family) => {
    const res = await send(`${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect([res.status, res.body]).toEqual([400, { errors: [family === 'menu' ? { Code: 'INVALID_REQUEST', Message: message } : { code: 'INVALID_REQUEST', message }] }]);
  });

  it('serves an origin-form target', async () => {
    expect((await send('GET /_sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')).status).toBe(200);
  });
});

describe("requests and responses made with the app's own prototypes", () => {
  /** Listens with createSandboxServer on `listener`, sends one GET and resolves with the answer's body. */
  async function served(listener: Parameters<typeof createSandboxServer>[0], options?: Parameters<typeof createSandboxServer>[1]): Promise<string> {
    const own = createSandboxServer(listener, options);
    own.listen(0, '127.0.0.1');
    await once(own, 'listening');
    try {
      return await (await fetch(`http://127.0.0.1:${(own.address() as AddressInfo).port}/probe`)).text();
    } finally {
      own.close();
    }
  }

  /** An Express app that answers GET /probe with whether its request and response had its prototypes as Express met them, and kept them. */
  function probeApp(): express.Express {
    const app = express();
    let born: [boolean, boolean] = [false, false];
    const createdBy = app as unknown as { request: object; response: object; handle: (req: object, res: object, ...rest: unknown[]) => void };
    const handle = createdBy.handle;
    createdBy.handle = function (this: unknown, req: object, res: object, ...rest: unknown[]) {
      born = [Object.getPrototypeOf(req) === createdBy.request, Object.getPrototypeOf(res) === createdBy.response];
      return handle.call(this, req, res, ...rest);
    };
    app.get('/probe', (req, res) => {
      res.json({ born, kept: [Object.getPrototypeOf(req) === createdBy.request, Object.getPrototypeOf(res) === createdBy.response], host: req.get('host')?.startsWith('127.0.0.1:') });
    });
    return app;
  }

  it("an Express app's request and response are born with its prototypes, which Express then keeps", async () => {
    expect(JSON.parse(await served(probeApp()))).toEqual({ born: [true, true], kept: [true, true], host: true });
  });

  it('a listener that hands requests on to an Express app it names gets that app\'s; another app still gets its own from Express', async () => {
    const [named, other] = [probeApp(), probeApp()];
    const handOn = (to: express.Express) => served((req, res) => to(req, res), { prototypesOf: named });
    expect(JSON.parse(await handOn(named))).toEqual({ born: [true, true], kept: [true, true], host: true });
    expect(JSON.parse(await handOn(other))).toEqual({ born: [false, false], kept: [true, true], host: true });
  });

  it("any other listener gets Node's own", async () => {
    const answer = await served((req, res) => res.end(String([Object.getPrototypeOf(req) === IncomingMessage.prototype, Object.getPrototypeOf(res) === ServerResponse.prototype])));
    expect(answer).toBe('true,true');
  });
});
