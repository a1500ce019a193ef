/** Sending a request on to the leading instance, over real sockets: what goes, what comes back, and when the leader is gone. */
import { createServer, type IncomingMessage, type Server, type ServerResponse, request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from '@jest/globals';
import { signForward, clientAddress, FORWARD_PROOF, FORWARDED_BY, FORWARDED_FOR, forwardRequest, readBody } from './forwarding.js';

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
    outcomes.push(await forwardRequest({ req, res, body, leaderUrl: target, instanceId: 'follower-1', forwardKey: KEY }));
    if (!res.headersSent && outcomes.at(-1) === 'refused') res.writeHead(599).end();
  });
}

describe('forwardRequest', () => {
  it('sends method, path, query, body and headers on, with a proof for that request and never the key, and passes the answer back', async () => {
    let seen: { method?: string; url?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    const leader = await listen(async (req, res) => {
      seen = { method: req.method, url: req.url, headers: req.headers, body: (await readBody(req))!.toString() };
      res.writeHead(201, { 'x-sandbox-journal-id': 'j-000001', 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const url = await follower(leader);
    const answer = await fetch(`${url}/v2/order/refund?x=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json', 'x-sandbox-forward-key': KEY, [FORWARD_PROOF]: 'v1 1 forged', [FORWARDED_FOR]: '10.9.9.9' },
      body: '{"ExternalId":"E-1"}',
    });
    expect([answer.status, answer.headers.get('x-sandbox-journal-id'), await answer.text()]).toEqual([201, 'j-000001', '{"ok":true}']);
    expect(seen).toMatchObject({ method: 'POST', url: '/v2/order/refund?x=1', body: '{"ExternalId":"E-1"}' });
    // The client's own forwarded headers are replaced; the address it claimed came without a proof, so it is no
    // address at all (never loopback). The key itself is in no header: only a proof over this one request.
    expect(seen.headers).toMatchObject({ authorization: 'Bearer t', [FORWARDED_FOR]: 'unknown', [FORWARDED_BY]: 'follower-1', 'content-length': '20' });
    expect(seen.headers!['x-sandbox-forward-key']).toBeUndefined();
    expect(Object.values(seen.headers!).join('\n')).not.toContain(KEY);
    const asLeader = (headers: IncomingMessage['headers']) => ({ method: 'POST', url: '/v2/order/refund?x=1', headers, socket: { remoteAddress: '10.1.1.1' } }) as unknown as IncomingMessage;
    expect(clientAddress(asLeader(seen.headers!), KEY)).toBe('unknown');
    await fetch(`${url}/_sandbox/orders`);
    expect(seen.headers).toMatchObject({ [FORWARDED_FOR]: '127.0.0.1', [FORWARD_PROOF]: expect.stringMatching(/^v1 \d+ [A-Za-z0-9_-]{43}$/) });
    // The leader takes the address the follower saw, for that request.
    expect(clientAddress({ method: 'GET', url: '/_sandbox/orders', headers: seen.headers, socket: { remoteAddress: '10.1.1.1' } } as unknown as IncomingMessage, KEY)).toBe('127.0.0.1');
  });

  it.each([
    ['a //host target', '//127.0.0.1:PORT/_sandbox/reset'],
    ['an absolute-form target', 'http://127.0.0.1:PORT/_sandbox/reset'],
    ['a /\\host target', '/\\127.0.0.1:PORT/_sandbox/reset'],
  ])('refuses %s with 400 in the envelope: the host it names receives nothing', async (_what, template) => {
    let reachedInternal = 0;
    let reachedLeader = 0;
    const internal = await listen((_req, res) => {
      reachedInternal++;
      res.end('secret');
    });
    const leader = await listen((_req, res) => {
      reachedLeader++;
      res.end('leader');
    });
    const outcomes: string[] = [];
    const url = new URL(await follower(leader, outcomes));
    const target = template.replace('PORT', new URL(internal).port);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ hostname: url.hostname, port: url.port, path: target, method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect([answer.status, JSON.parse(answer.body)]).toEqual([
      400,
      { errors: [{ code: 'INVALID_REQUEST', message: 'the request target must be a path (origin-form, such as /v2/order/refund): this hosted sandbox does not take an absolute URL or a target starting with //' }] },
    ]);
    expect([reachedInternal, reachedLeader, outcomes]).toEqual([0, 0, ['sent']]);
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
  const NOW = 1_790_000_000_000;
  const request = (headers: Record<string, string>, method = 'POST', url = '/_sandbox/tokens') => ({ method, url, headers, socket: { remoteAddress: '127.0.0.1' } }) as unknown as IncomingMessage;
  const proved = (fields: Partial<{ method: string; target: string; forwardedFor: string; forwardedBy: string }> = {}, at = NOW, key = KEY) => ({
    [FORWARDED_FOR]: '10.0.0.7',
    [FORWARDED_BY]: 'follower-1',
    [FORWARD_PROOF]: signForward(key, { method: 'POST', target: '/_sandbox/tokens', forwardedFor: '10.0.0.7', forwardedBy: 'follower-1', ...fields }, at),
  });

  it('takes a forwarded address only with a proof for this very request, made within 30 s', () => {
    expect(clientAddress(request({}), KEY, NOW)).toBe('127.0.0.1');
    expect(clientAddress(request(proved()), KEY, NOW)).toBe('10.0.0.7');
    expect(clientAddress(request(proved({}, NOW - 29_000)), KEY, NOW)).toBe('10.0.0.7');
  });

  it.each([
    ['no proof at all', { [FORWARDED_FOR]: '127.0.0.1' }],
    ["the database's key itself, as earlier versions sent it", { [FORWARDED_FOR]: '127.0.0.1', [FORWARDED_BY]: 'x', 'x-sandbox-forward-key': KEY }],
    ['a proof for another path', proved({ target: '/_sandbox/orders' })],
    ['a proof for another method', proved({ method: 'GET' })],
    ['a proof for another address', { ...proved({ forwardedFor: '10.0.0.8' }) }],
    ['a proof from another instance id', { ...proved(), [FORWARDED_BY]: 'follower-2' }],
    ['a proof 31 s old', proved({}, NOW - 31_000)],
    ['a proof 31 s ahead', proved({}, NOW + 31_000)],
    ['a proof under another key', proved({}, NOW, 'a-guessed-key')],
    ['a proof cut short', { ...proved(), [FORWARD_PROOF]: proved()[FORWARD_PROOF].slice(0, -2) }],
    ['a proof of another version', { ...proved(), [FORWARD_PROOF]: proved()[FORWARD_PROOF].replace(/^v1/, 'v2') }],
  ])('counts a forwarded address with %s as no address at all (never loopback)', (_what, headers) => {
    expect(clientAddress(request(headers as Record<string, string>), KEY, NOW)).toBeUndefined();
  });

  it('counts any forwarded address as none where the sandbox has no forward key (a single instance)', () => {
    expect(clientAddress(request(proved()), undefined, NOW)).toBeUndefined();
  });
});
