/**
 * The run's client of the control API against a stand-in sandbox on loopback that answers 429 as a hosted sandbox
 * does when its partner's request rate is used up: by the partner's other clients, in the load test.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from '@jest/globals';
import { closedPort, closeServers, listen } from '../server/test/loopback.js';
import { ControlError, SandboxControl } from './sandbox-control.js';
import { startChecks, StartError } from './start-checks.js';

afterEach(closeServers);

const RATE_ENVELOPE = '{"errors":[{"code":"TOO_MANY_REQUESTS","message":"partner over its rate"}]}';

/** Answers 429 (Retry-After: 0) to the first `refusals` calls, then the health answer. */
function busyFor(refusals: number): (req: IncomingMessage, res: ServerResponse) => void {
  let calls = 0;
  return (_req, res) => {
    if (++calls <= refusals) return void res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' }).end(RATE_ENVELOPE);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
  };
}

describe("a control call refused for the partner's rate", () => {
  it('waits as told and gets through, however many times it is refused within its time (twelve here)', async () => {
    const url = await listen(busyFor(12));
    await expect(new SandboxControl(url, 5000, 100, undefined, 10_000).health()).resolves.toEqual({ status: 'ok' });
  });

  it('fails once no call got through in its time, saying the rate is used up by every client of the partner', async () => {
    const url = await listen(busyFor(1000));
    const failure = new SandboxControl(url, 5000, 100, undefined, 500).health();
    await expect(failure).rejects.toThrow(
      `the sandbox at ${url} answered GET /_sandbox/health with 429 for 0.5 s: the partner's request rate is used up, and every client of the partner draws on it, this run too (slow the others down, or ask the operator for a higher rate): ${RATE_ENVELOPE}`,
    );
    await expect(failure).rejects.toBeInstanceOf(ControlError);
  });
});

describe('a run whose first call is refused for the rate', () => {
  it('says what the sandbox said, not to start a sandbox that runs', async () => {
    const url = await listen(busyFor(1000));
    const options = { sandboxUrl: url, mode: 'passive' as const, capabilities: [], out: { write: () => undefined } };
    const started = startChecks(new SandboxControl(url, 5000, 100, undefined, 300), options);
    await expect(started).rejects.toBeInstanceOf(StartError);
    await expect(started).rejects.toThrow(/answered GET \/_sandbox\/health with 429 for 0.3 s: the partner's request rate is used up/);
    await expect(started).rejects.not.toThrow(/npm start/);
  });

  it('still says to start one when nothing answers', async () => {
    const options = { sandboxUrl: 'http://127.0.0.1:1', mode: 'passive' as const, capabilities: [], out: { write: () => undefined } };
    await expect(startChecks(new SandboxControl(`http://127.0.0.1:${await closedPort()}`, 5000), options)).rejects.toThrow(/; start it with npm start/);
  });
});
