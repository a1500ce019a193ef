import { afterEach, describe, expect, it } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeServers, listen } from '../test/loopback.js';
import { waitForPos } from './certify-run.js';

afterEach(closeServers);

describe('waitForPos', () => {
  it('goes on once the driver answers GET /health with 2xx', async () => {
    let asked = 0;
    const url = await listen((req: IncomingMessage, res: ServerResponse) => void res.writeHead(req.url === '/health' && ++asked > 1 ? 200 : 503).end());
    expect(await waitForPos(url, 10_000)).toEqual({ ok: true });
    expect(asked).toBe(2);
  });

  it('names the URL and what it last saw when the driver never answers 2xx in time', async () => {
    // A fetch that answers at once, so the one try the time allows is judged by its status, not by the machine's speed.
    const waited = await waitForPos('http://pos.test/driver', 0, async () => new Response(null, { status: 503 }));
    expect(waited).toEqual({ ok: false, problem: expect.stringContaining('the POS did not answer GET http://pos.test/driver/health within 0 s (last: answered 503): start the POS test build first') });
  });
});
