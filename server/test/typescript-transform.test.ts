/**
 * What the tests' TypeScript transform (typescript-transform.js) must keep: the lines a failure points at, and the
 * semantics tsconfig.json gives the emitted code. This file is itself compiled by it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

// Types the compiler takes out, so that the emitted lines no longer match these unless the source map is followed.
interface Spread {
  a: string;
  b: number;
}
export type Wider = Spread & {
  c: boolean;
};

describe('the TypeScript transform of the tests', () => {
  it("points a stack trace at this file's own TypeScript line", () => {
    const stack = new Error('here').stack ?? ''; // the line looked for
    const source = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
    const expected = source.findIndex((line) => line.includes('// the line looked for')) + 1;
    expect(/typescript-transform\.test\.ts:(\d+):\d+/.exec(stack)?.[1]).toBe(String(expected));
  });

  it('defines class fields, as tsconfig.json’s ES2022 target does, rather than assigning them through a setter', () => {
    let setterCalls = 0;
    class Counter {
      value = 1;
    }
    // A setter on the prototype: assigning the field would call it; defining it does not.
    Object.defineProperty(Counter.prototype, 'value', { set: () => setterCalls++, configurable: true });
    expect([new Counter().value, setterCalls]).toEqual([1, 0]);
  });
});
