/**
 * jest's test order: the files that took longest in the last run first (jest's own order), and where jest has no
 * times yet (a fresh clone, CI) the files that will: those that run the checklist against a POS, which wait on it,
 * then by the size of the file and the suites it runs. Started last, one of them alone would hold the run's end.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Sequencer from '@jest/test-sequencer';

const Base = Sequencer.default ?? Sequencer;

/** About how long a file will take, from its source: its bytes and its suites', more for a checklist run. */
function weight(path) {
  const source = readFileSync(path, 'utf8');
  // The suites it runs: an import at the start of a line, as server/test/suites.test.ts reads them.
  const suites = [...source.matchAll(/^await import\('(\.\/[\w-]+\.suite)\.js'\);/gm)].map((match) => readFileSync(join(dirname(path), `${match[1]}.ts`), 'utf8'));
  const all = [source, ...suites].join('\n');
  return all.length * (/runAgainst\w*\(|expectBroken\(/.test(all) ? 10 : 1);
}

export default class SlowFirst extends Base {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((test) => test.duration != null)) return sorted;
    const weights = new Map(sorted.map((test) => [test.path, weight(test.path)]));
    return sorted.sort((a, b) => weights.get(b.path) - weights.get(a.path));
  }
}
