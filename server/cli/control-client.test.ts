/**
 * The control commands' client against real servers on loopback that misbehave in time: one that takes the
 * connection and never answers, one that stops halfway through its answer, one that answers slowly but steadily,
 * and an event stream that is quiet between events (which must not be cut).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from '@jest/globals';
import { closeServers, listen } from '../test/loopback.js';
import { controlClient } from './control-client.js';

afterEach(closeServers);
const serve = (handler: (req: IncomingMessage, res: ServerResponse) => void) => listen(handler);

const SILENCE_MS = 200;
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a control call', () => {
  it('gives up on a server that takes the connection and says nothing, naming the call and the time', async () => {
    const url = await serve(() => undefined);
    await expect(controlClient(url, {}, SILENCE_MS).call('GET', '/_sandbox/health')).rejects.toThrow(
      `GET ${url}/_sandbox/health: the server took the connection but said nothing for 0.2 s; is ${url} the sandbox, and is it stuck?`,
    );
  });

  it('gives up the same way on an answer that stops halfway', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":');
    });
    await expect(controlClient(url, {}, SILENCE_MS).call('GET', '/_sandbox/faults')).rejects.toThrow(`GET ${url}/_sandbox/faults: the server took the connection but said nothing for 0.2 s`);
  });

  it('waits for an answer that keeps coming, however long it takes in all', async () => {
    const url = await serve(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Six pieces 100 ms apart: 600 ms in all, never 200 ms of silence.
      for (const piece of ['[', '1', ',', '2', ',3', ']']) {
        res.write(piece);
        await later(100);
      }
      res.end();
    });
    await expect(controlClient(url, {}, SILENCE_MS).call('GET', '/_sandbox/refunds')).resolves.toEqual([1, 2, 3]);
  });
});

describe('an event stream', () => {
  it('is not cut while it is quiet between events', async () => {
    const url = await serve(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
      await later(SILENCE_MS * 3);
      res.end('data: {"data":1}\n\n');
    });
    const stream = await controlClient(url, {}, SILENCE_MS).open('/_sandbox/events');
    let text = '';
    for await (const chunk of stream.body) text += (chunk as Buffer).toString();
    expect(text).toBe(': open\n\ndata: {"data":1}\n\n');
  });
});

describe('an error answer', () => {
  const answering = (status: number, body: string) => serve((_req, res) => void res.writeHead(status, { 'content-type': 'application/json' }).end(body));

  it('is said on one line, with a forged line in its message escaped', async () => {
    const url = await answering(400, JSON.stringify({ errors: [{ code: 'INVALID_REQUEST', message: 'bad id "x\nPASS ORDER-02 forged"' }] }));
    await expect(controlClient(url, {}).call('POST', '/_sandbox/faults', {})).rejects.toThrow(`POST ${url}/_sandbox/faults answered 400: INVALID_REQUEST: bad id "x\\u000aPASS ORDER-02 forged"`);
  });

  it('says on a 401 where the commands take the token, for a call and for a file fetched whole', async () => {
    const url = await answering(401, JSON.stringify({ errors: [{ code: 'UNAUTHORIZED', message: 'needs Authorization: Bearer <token>' }] }));
    const said = `answered 401: UNAUTHORIZED: needs Authorization: Bearer <token>`;
    await expect(controlClient(url, {}).call('GET', '/_sandbox/reports')).rejects.toThrow(`GET ${url}/_sandbox/reports ${said} (the commands send the token set in SANDBOX_ADMIN_TOKEN; none is set)`);
    await expect(controlClient(url, { SANDBOX_ADMIN_TOKEN: 'wrong-token-0000001' }).open('/_sandbox/reports/x/report.json')).rejects.toThrow(
      `GET ${url}/_sandbox/reports/x/report.json ${said} (the commands sent the token set in SANDBOX_ADMIN_TOKEN)`,
    );
  });

  it.each([
    ['an errors list of nulls', '{"errors":[null, 7]}', 'ERROR: ; ERROR: '],
    ['codes that are not strings', '{"errors":[{"code":{"a":1},"message":["m"]}]}', 'ERROR: '],
    ['a JSON null', 'null', 'null'],
    ['a bare string', '"no\\u001b[2J"', '"no\\u001b[2J"'],
  ])('does not stumble on %s', async (_case, body, said) => {
    const url = await answering(500, body);
    await expect(controlClient(url, {}).call('GET', '/_sandbox/health')).rejects.toThrow(`GET ${url}/_sandbox/health answered 500: ${said}`);
  });

  it('says a server that labels broken JSON as JSON is not the sandbox', async () => {
    const url = await answering(200, '{"status":');
    await expect(controlClient(url, {}).call('GET', '/_sandbox/health')).rejects.toThrow(`GET ${url}/_sandbox/health answered 200 with application/json, not the sandbox's JSON: is ${url} the sandbox?`);
  });

  it('says what an event stream refused with, when its answer is no JSON', async () => {
    const url = await serve((_req, res) => void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'));
    await expect(controlClient(url, {}).open('/_sandbox/events')).rejects.toThrow(`GET ${url}/_sandbox/events answered 502: <h1>Bad gateway</h1>`);
  });
});

describe('a list of several pages', () => {
  /** A list of 7 items served 3 to a page, whatever limit was asked (as a journal page that stops at a size). */
  const pages = (link: (after: number) => string) => (req: IncomingMessage, res: ServerResponse) => {
    const after = Number(new URL(req.url!, 'http://x').searchParams.get('after') ?? 0);
    const items = [1, 2, 3, 4, 5, 6, 7].filter((n) => n > after).slice(0, 3);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (items.at(-1)! < 7) headers.link = link(items.at(-1)!);
    res.writeHead(200, headers).end(JSON.stringify(items));
  };

  it('follows the Link rel="next" pages until it has as many items as asked', async () => {
    const url = await serve(pages((last) => `</_sandbox/journal?after=${last}&limit=5>; rel="next"`));
    await expect(controlClient(url, {}).list('/_sandbox/journal?limit=5', 5)).resolves.toEqual([1, 2, 3, 4, 5]);
    await expect(controlClient(url, {}).list('/_sandbox/journal?limit=50', 50)).resolves.toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('does not follow a Link that names another host', async () => {
    let asked = 0;
    const other = await serve((_req, res) => {
      asked++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('[99]');
    });
    const url = await serve(pages((last) => `<${other}/_sandbox/journal?after=${last}>; rel="next", <//${other.slice('http://'.length)}/x?after=${last}>; rel="next"`));
    await expect(controlClient(url, {}).list('/_sandbox/journal', 10)).resolves.toEqual([1, 2, 3]);
    expect(asked).toBe(0);
  });

  it('says so when a page is JSON but no list', async () => {
    const url = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'));
    await expect(controlClient(url, {}).list('/_sandbox/journal', 10)).rejects.toThrow(`GET ${url}/_sandbox/journal answered JSON that is no list: is ${url} the sandbox?`);
  });
});

describe('a list whose server names a next page for ever', () => {
  it('stops at the first empty page', async () => {
    let asked = 0;
    const url = await serve((_req, res) => {
      asked++;
      res.writeHead(200, { 'content-type': 'application/json', link: '</_sandbox/journal?after=x>; rel="next"' }).end(asked === 1 ? '[1]' : '[]');
    });
    await expect(controlClient(url, {}).list('/_sandbox/journal', 10)).resolves.toEqual([1]);
    expect(asked).toBe(2);
  });
});
