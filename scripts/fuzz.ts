/** npm run fuzz: generated cases over HTTP (and raw sockets) against a real `pos-sandbox serve --memory`; fails on a crash, a 5xx or a broken envelope or rule, and saves one replayable example per failure (docs/fuzzing.md). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { loadFixtures } from '../server/fixtures/load-fixtures.js';
import { PACKAGE_ROOT } from '../server/version.js';
import { caseFromJson } from '../server/test/fuzz/wire-case.js';
import { caseMix, fuzzContext } from './fuzz/case-mix.js';
import { FUZZ_PARTNER } from './fuzz/child-sandbox.js';
import { FuzzLoop } from './fuzz/fuzz-loop.js';
import { summaryText } from './fuzz/fuzz-tally.js';

const HOW_TO_START = `start the sandbox as the fuzzer did: SANDBOX_PARTNER=${FUZZ_PARTNER.name} SANDBOX_NONPROD_KEY=${FUZZ_PARTNER.key} npx pos-sandbox serve --memory --port 4100 (tokens in a case expire: npm run fuzz -- --replay <case>.json is the sure way)`;

interface FuzzFlags {
  cases: string;
  seed?: string;
  concurrency: string;
  out: string;
  replay?: string;
}

const program = new Command('fuzz')
  .description('send generated cases to a real pos-sandbox serve and check every answer')
  .option('--cases <n>', 'how many cases to send', '100000')
  .option('--seed <n>', 'seed of the cases (default: a new one, printed)')
  .option('--concurrency <n>', 'requests in flight at once', '8')
  .option('--out <dir>', 'where the examples of failures go', join(PACKAGE_ROOT, 'reports', 'fuzz'))
  .option('--replay <file>', 'send one saved case (a .json the run wrote) to a fresh sandbox and show what happens')
  .action(async (flags: FuzzFlags) => {
    process.exitCode = flags.replay ? await replay(flags.replay) : await fuzz(flags);
  });

async function fuzz(flags: FuzzFlags): Promise<number> {
  const total = wholeNumber('--cases', flags.cases);
  const seed = flags.seed === undefined ? Date.now() % 1_000_000_000 : wholeNumber('--seed', flags.seed);
  const ctx = fuzzContext(loadFixtures(join(PACKAGE_ROOT, 'fixtures')), FUZZ_PARTNER);
  const started = performance.now();
  const loop = new FuzzLoop({
    ctx,
    concurrency: wholeNumber('--concurrency', flags.concurrency),
    onProgress: (done) =>
      process.stderr.write(`\r  ${done} / ${total} cases in ${((performance.now() - started) / 1000).toFixed(0)} s: ${loop.tally.counts.crashes} crash(es), ${loop.tally.counts['5xx']} 5xx `),
  });
  process.stderr.write(`npm run fuzz: seed ${seed}, ${total} cases (replay this run with --seed ${seed})\n`);
  await loop.start();
  const sent = await loop.run(caseMix(ctx, loop.posOrderUrl), total, seed).finally(() => loop.close());
  const ms = performance.now() - started;
  process.stderr.write('\n');
  const dir = join(flags.out, `${new Date().toISOString().replace(/[:.]/g, '-')}-seed${seed}`);
  const groups = loop.tally.save(dir, { baseUrl: 'http://127.0.0.1:4100', howToStart: HOW_TO_START });
  process.stdout.write(summaryText(loop.tally, groups, { cases: sent, seed, ms, dir, quarantined: [...loop.quarantined] }));
  if (loop.stopped) process.stdout.write(`  the run ${loop.stopped}\n`);
  return loop.tally.failed || sent < total ? 1 : 0;
}

async function replay(file: string): Promise<number> {
  const wire = caseFromJson(readFileSync(file, 'utf8'));
  const ctx = fuzzContext(loadFixtures(join(PACKAGE_ROOT, 'fixtures')), FUZZ_PARTNER);
  const loop = new FuzzLoop({ ctx, concurrency: 1 });
  await loop.start();
  try {
    const { outcome, problems, died, log } = await loop.replay({ endpoint: wire.endpoint, kind: wire.kind, wire });
    process.stdout.write(`${wire.method} ${wire.path} [${wire.kind}]\n`);
    process.stdout.write('answer' in outcome ? `→ ${outcome.answer.status} ${outcome.answer.body.slice(0, 500)}\n` : `→ no answer: ${outcome.error}\n`);
    if (died) process.stdout.write('the sandbox process died\n');
    for (const problem of problems) process.stdout.write(`[${problem.kind}] ${problem.detail}\n`);
    if (log) process.stdout.write(`${log}\n`);
    return died || problems.length > 0 ? 1 : 0;
  } finally {
    await loop.close();
  }
}

function wholeNumber(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${name} must be a whole number from 1, got '${value}'`);
  return number;
}

// Interrupted, the fuzzer exits through process.exit, so the 'exit' handlers kill its sandbox children.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(signal === 'SIGINT' ? 130 : 143));

await program.parseAsync();
