/** The egress policy where connections are made: real sockets, real DNS (`localhost`), a listener that must hear nothing. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { postOrder } from '../orders/post-order.js';
import { OPEN_EGRESS, partnerEgress, egressFetch, egressProblem } from './egress.js';

let server: Server;
let port: number;
let heard = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    heard++;
    if (req.url === '/redirect') return res.writeHead(302, { location: `http://127.0.0.1:${port}/internal` }).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ExternalId":"POS-1"}');
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.close();
});

const loopbackRefused = (origin: string) =>
  `the host of ${origin} resolves to an address of a loopback, private, link-local or reserved network, which this hosted sandbox does not call for partner 'acme-pos' unless the operator opens that network for it (egress.allowNetworks in the partners file)`;

describe('a hosted partner whose operator allowed the origin but not the network', () => {
  // The origin is allowed (the operator named it); where it resolves is what is refused.
  const policy = () => partnerEgress('acme-pos', ['http://localhost:*', 'http://127.0.0.1:*'], []);

  it('sends no order to a name that resolves to loopback, nor to a loopback address', async () => {
    const before = heard;
    for (const host of ['localhost', '127.0.0.1']) {
      const result = await postOrder({ url: `http://${host}:${port}/order`, headers: {}, body: '{}', timeoutMs: 2000, egress: policy() });
      expect(result).toEqual({ error: `not sent: ${loopbackRefused(`http://${host}:${port}`)}` });
    }
    expect(heard).toBe(before);
  });

  it('refuses the same at request time, before anything is made of the URL', async () => {
    expect(await egressProblem(policy(), `http://localhost:${port}/order`, 'posOrderUrl')).toBe(loopbackRefused(`http://localhost:${port}`));
    expect(await egressProblem(policy(), `http://127.0.0.1:${port}/order`, 'posOrderUrl')).toBe(loopbackRefused(`http://127.0.0.1:${port}`));
  });

  it("fetches nothing for a checklist run's driver there", async () => {
    const before = heard;
    await expect(egressFetch(policy(), 'the POS driver')(`http://localhost:${port}/health`)).rejects.toThrow(`not sent: ${loopbackRefused(`http://localhost:${port}`)}`);
    expect(heard).toBe(before);
  });
});

describe('a hosted partner whose operator opened loopback for it', () => {
  const policy = () => partnerEgress('acme-pos', ['http://localhost:*'], ['127.0.0.0/8', '::1/128']);

  it('delivers, and a redirect is an answer, never followed', async () => {
    const result = await postOrder({ url: `http://localhost:${port}/order`, headers: {}, body: '{}', timeoutMs: 2000, egress: policy() });
    expect([result.status, result.bodyText]).toEqual([200, '{"ExternalId":"POS-1"}']);
    const before = heard;
    const answer = await egressFetch(policy(), 'the POS driver')(`http://localhost:${port}/redirect`);
    expect([answer.status, answer.headers.get('location'), heard - before]).toEqual([302, `http://127.0.0.1:${port}/internal`, 1]);
  });
});

describe('what a failed call says', () => {
  // Port 1: nothing listens there (a refused connection); a socket destroyed on accept: a reset.
  let resetting: Server;
  let resetPort: number;
  beforeAll(async () => {
    resetting = createServer((req) => req.socket.destroy());
    resetting.listen(0, '127.0.0.1');
    await new Promise((resolve) => resetting.once('listening', resolve));
    resetPort = (resetting.address() as AddressInfo).port;
  });
  afterAll(() => {
    resetting.close();
  });

  it('names the network condition on a laptop', async () => {
    const refused = await postOrder({ url: 'http://127.0.0.1:1/order', headers: {}, body: '{}', timeoutMs: 2000, egress: OPEN_EGRESS });
    const reset = await postOrder({ url: `http://127.0.0.1:${resetPort}/order`, headers: {}, body: '{}', timeoutMs: 2000, egress: OPEN_EGRESS });
    expect([refused.error, reset.error]).toEqual(['connection refused by 127.0.0.1:1: is the POS listening at http://127.0.0.1:1?', 'the POS closed the connection without an answer (ECONNRESET)']);
  });

  it('says the same of a refused connection, a reset and a timeout in a hosted sandbox', async () => {
    const policy = partnerEgress('acme-pos', ['http://127.0.0.1:*'], ['127.0.0.0/8']);
    const silent = createServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await new Promise((resolve) => silent.once('listening', resolve));
    const silentPort = (silent.address() as AddressInfo).port;
    try {
      const errors = await Promise.all(
        [1, resetPort, silentPort].map(async (target) => (await postOrder({ url: `http://127.0.0.1:${target}/order`, headers: {}, body: '{}', timeoutMs: 300, egress: policy })).error),
      );
      expect(errors.map((error) => error!.replace(/1:\d+:/, '1:PORT:'))).toEqual(
        Array(3).fill("no answer from the POS's order endpoint at http://127.0.0.1:PORT: the connection failed, was cut, or no answer came in time (a hosted sandbox does not say which)"),
      );
      const driver = egressFetch(policy, 'the POS driver');
      const messages = await Promise.all(
        [1, resetPort, silentPort].map((target) => driver(`http://127.0.0.1:${target}/health`, { signal: AbortSignal.timeout(300) }).then(() => 'answered', (error: Error) => error.message.replace(/1:\d+:/, '1:PORT:'))),
      );
      expect(messages).toEqual(Array(3).fill('no answer from the POS driver at http://127.0.0.1:PORT: the connection failed, was cut, or no answer came in time (a hosted sandbox does not say which)'));
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
