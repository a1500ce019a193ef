/** What the redaction of a body costs: the strings of each object together against one by one, and a compressed blob against a plain one of its size; medians of 9 rounds, in this process. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { scrubText, scrubValue } from '../server/journal/redaction.js';
import { PACKAGE_ROOT } from '../server/version.js';

const KEYS = ['SANDBOX-ONLY-nonprod-key-acme-3f9c2a7e5b1d4c8a'];
const SIGNATURES = new Set(['A'.repeat(43)]);

/** Every string and name redacted alone: the walk the redaction had before the strings of one object were joined. */
function oneByOne(value: unknown): unknown {
  if (typeof value === 'string') return scrubText(value, KEYS, SIGNATURES);
  if (Array.isArray(value)) return value.map(oneByOne);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, child]) => [scrubText(name, KEYS, SIGNATURES), oneByOne(child)]));
  return value;
}

/** The median µs of `work` over 9 rounds of `times` calls, after one round to warm up. */
function medianMicros(work: () => void, times: number): number {
  const rounds: number[] = [];
  for (let round = 0; round <= 9; round++) {
    const started = performance.now();
    for (let i = 0; i < times; i++) work();
    if (round > 0) rounds.push(((performance.now() - started) * 1000) / times);
  }
  return rounds.sort((a, b) => a - b)[4]!;
}

const fixtures = join(PACKAGE_ROOT, 'fixtures');
const bodies = (readdirSync(fixtures, { recursive: true }) as string[]).filter((name) => name.endsWith('.json')).map((name) => JSON.parse(readFileSync(join(fixtures, name), 'utf8')) as unknown);
const bytes = bodies.reduce<number>((sum, body) => sum + JSON.stringify(body).length, 0);
const together = medianMicros(() => bodies.forEach((body) => scrubValue(body, KEYS, SIGNATURES)), 50);
const alone = medianMicros(() => bodies.forEach(oneByOne), 50);
// A reply of about the size a journal keeps: a gzip blob that holds no secret, against random base64 of its length.
const gzipped = gzipSync(JSON.stringify(bodies)).toString('base64').slice(0, 12 * 1024);
const plain = randomBytes(gzipped.length).toString('base64').slice(0, gzipped.length);
const inflating = medianMicros(() => scrubText(`{"blob":"${gzipped}"}`, KEYS, SIGNATURES), 50);
const notInflating = medianMicros(() => scrubText(`{"blob":"${plain}"}`, KEYS, SIGNATURES), 50);

console.log(`| what (${new Date().toISOString().slice(0, 10)}) | µs | ratio |`);
console.log('|---|---|---|');
console.log(`| the ${bodies.length} fixture files (${bytes} bytes of JSON), strings one by one | ${alone.toFixed(0)} | 1.00 |`);
console.log(`| the same, the strings of each object and array together | ${together.toFixed(0)} | ${(together / alone).toFixed(2)} |`);
console.log(`| a ${plain.length}-character base64 blob that is no gzip | ${notInflating.toFixed(0)} | 1.00 |`);
console.log(`| a gzip blob of the same length, inflated and searched | ${inflating.toFixed(0)} | ${(inflating / notInflating).toFixed(2)} |`);
