import { describe, expect, it } from '@jest/globals';
import { closedPort } from '../test/live.js';
import { failureCause } from './control-client.js';

describe('failureCause', () => {
  it("names what undici's 'fetch failed' hides: the refused connection and its address", async () => {
    const port = await closedPort();
    const error = await fetch(`http://127.0.0.1:${port}/`).then(() => undefined, (failed: unknown) => failed);
    expect(failureCause(error)).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it.each([
    [new Error('outer', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' }) }), 'getaddrinfo ENOTFOUND nowhere.invalid'],
    [new Error('outer', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) }), 'ECONNRESET: socket hang up'],
    [new Error('plain'), 'plain'],
    [new AggregateError([new Error('connect ECONNREFUSED ::1:4100'), new Error('second')]), 'connect ECONNREFUSED ::1:4100'],
    ['a string', 'a string'],
  ])('says %s as %j', (error, said) => {
    expect(failureCause(error)).toBe(said);
  });
});
