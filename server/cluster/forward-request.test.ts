/** Sending a request on to the leading instance, over real sockets: what goes, what comes back, and when the leader is gone. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from '@jest/globals';
import { clientAddress, FORWARD_KEY, FORWARDED_BY, FORWARDED_FOR, forwardRequest, readBody } from './forward-request.js';

const KEY = 'the-database-forward-key';
const servers: Server[] = [];
afterEach(async () => {
  // fetch keeps its connections alive: they are closed with the servers, or close would wait on them.
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** A follower that sends everything on to `target` and says how each forward ended. */
async function follower(target: string, outcomes: string[] = []): Promise<string> {
  return listen(async (req, res) => {
    const body = (await readBody(req))!;
    outcomes.push(await forwardRequest({ req, res, body, target, instanceId: 'follower-1', forwardKey: KEY }));
    if (!res.headersSent && outcomes.at(-1) === 'refused') res.writeHead(599).end();
  });
}

describe('forwardRequest', () => {
  it('sends method, path, query, body and headers on, marked as forwarded, and passes the answer back', async () => {
    let seen: { method?: string; url?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    const leader = await listen(async (req, res) => {
      seen = { method: req.method, url: req.url, headers: req.headers, body: (await readBody(req))!.toString() };
      res.writeHead(201, { 'x-sandbox-journal-id': 'j-000001', 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const url = await follower(leader);
    const answer = await fetch(`${url}/v2/order/refund?x=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json', [FORWARD_KEY]: 'a forged key', [FORWARDED_FOR]: '10.9.9.9' },
      body: '{"ExternalId":"E-1"}',
    });
    expect([answer.status, answer.headers.get('x-sandbox-journal-id'), await answer.text()]).toEqual([201, 'j-000001', '{"ok":true}']);
    expect(seen).toMatchObject({ method: 'POST', url: '/v2/order/refund?x=1', body: '{"ExternalId":"E-1"}' });
    // The client's own forwarded headers are replaced, the key with the follower's own; the address it claimed came
    // without the key, so it is no address at all (never loopback).
    expect(seen.headers).toMatchObject({ authorization: 'Bearer t', [FORWARDED_FOR]: 'unknown', [FORWARDED_BY]: 'follower-1', [FORWARD_KEY]: KEY, 'content-length': '20' });
    await fetch(`${url}/_sandbox/orders`);
    expect(seen.headers).toMatchObject({ [FORWARDED_FOR]: '127.0.0.1', [FORWARD_KEY]: KEY });
  });

  it('passes a stream back as it comes, before it ends', async () => {
    const leader = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: hello\ndata: 1\n\n');
    });
    const controller = new AbortController();
    const answer = await fetch(`${await follower(leader)}/_sandbox/events`, { signal: controller.signal });
    const first = await answer.body!.getReader().read();
    expect(Buffer.from(first.value!).toString()).toBe('event: hello\ndata: 1\n\n');
    controller.abort();
  });

  it('says refused when no leader listens there: nothing reached it, another may be tried', async () => {
    const outcomes: string[] = [];
    // Port 1: nothing listens there, and no other test can take it meanwhile (a port found free a moment ago can be).
    const answer = await fetch(`${await follower('http://127.0.0.1:1', outcomes)}/v2/order/refund`, { method: 'POST', body: '{}' });
    expect([answer.status, outcomes]).toEqual([599, ['refused']]);
  });

  it('answers 503 in the envelope, with Retry-After, when the leader took the request and went away', async () => {
    const leader = await listen((req) => req.socket.destroy());
    const answer = await fetch(`${await follower(leader)}/v2/menu`, { method: 'PUT', body: '{}' });
    expect([answer.status, answer.headers.get('retry-after'), await answer.json()]).toEqual([
      503,
      '1',
      { errors: [{ Code: 'SERVICE_UNAVAILABLE', Message: 'the instance leading this partner stopped while it had this request; whether it was stored is unknown: look it up before sending it again' }] },
    ]);
  });
});

describe('clientAddress', () => {
  const request = (headers: Record<string, string>) => ({ headers, socket: { remoteAddress: '127.0.0.1' } }) as unknown as IncomingMessage;

  it("takes a forwarded address only with the database's key; a forged one is no address at all (never loopback)", () => {
    expect(clientAddress(request({}), KEY)).toBe('127.0.0.1');
    expect(clientAddress(request({ [FORWARDED_FOR]: '10.0.0.7', [FORWARD_KEY]: KEY }), KEY)).toBe('10.0.0.7');
    expect(clientAddress(request({ [FORWARDED_FOR]: '127.0.0.1', [FORWARD_KEY]: 'guessed' }), KEY)).toBeUndefined();
    expect(clientAddress(request({ [FORWARDED_FOR]: '127.0.0.1' }), KEY)).toBeUndefined();
    expect(clientAddress(request({ [FORWARDED_FOR]: '127.0.0.1', [FORWARD_KEY]: KEY }), undefined)).toBeUndefined();
  });
});
