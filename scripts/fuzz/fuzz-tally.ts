/** What npm run fuzz counts, and one group per kind of failure with its smallest example. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnswerProblem } from '../../server/test/fuzz/answer-check.js';
import { caseToJson, curlOf } from '../../server/test/fuzz/wire-case.js';
import type { FuzzCase } from './case-mix.js';

export interface Failure {
  case: FuzzCase;
  problem: AnswerProblem;
  /** x-request-id of the answer: the key of the sandbox's log lines about it. */
  requestId?: string;
  /** What the sandbox logged (a crash's stderr, a 500's stack). */
  log?: string;
}

interface Group {
  signature: string;
  count: number;
  example: Failure;
  /** The kinds of case that showed it, and how often each. */
  kinds: Map<string, number>;
  file?: string;
}

const size = (one: FuzzCase) => one.wire?.body?.length ?? one.raw?.bytes.length ?? 0;

export class FuzzTally {
  readonly byEndpoint = new Map<string, number>();
  readonly byStatusClass = new Map<string, number>();
  readonly counts = { crashes: 0, '5xx': 0, envelope: 0, rule: 0, 'no-answer': 0, unsendable: 0, skipped: 0 };
  private readonly groups = new Map<string, Group>();

  countCase(one: FuzzCase, status: number | undefined): void {
    this.byEndpoint.set(one.endpoint, (this.byEndpoint.get(one.endpoint) ?? 0) + 1);
    const statusClass = status === undefined ? 'no answer' : `${Math.floor(status / 100)}xx`;
    this.byStatusClass.set(statusClass, (this.byStatusClass.get(statusClass) ?? 0) + 1);
  }

  /** Counts a failure; `signature` says which failures are the same one (the smallest example of each is kept). */
  fail(failure: Failure, signature: string): void {
    const kind = failure.problem.kind;
    if (kind === 'crash') this.counts.crashes++;
    else if (kind === '5xx' || kind === 'envelope' || kind === 'rule' || kind === 'no-answer') this.counts[kind]++;
    const group = this.groups.get(signature) ?? { signature, count: 0, example: failure, kinds: new Map<string, number>() };
    this.groups.set(signature, group);
    group.count++;
    const caseKind = `${failure.case.endpoint} [${failure.case.kind}]`;
    group.kinds.set(caseKind, (group.kinds.get(caseKind) ?? 0) + 1);
    if (size(failure.case) < size(group.example.case)) group.example = failure;
  }

  get failed(): boolean {
    const { crashes, envelope, rule } = this.counts;
    return crashes + this.counts['5xx'] + envelope + rule + this.counts['no-answer'] > 0;
  }

  /** Writes each group's example (case JSON, curl or raw bytes, the sandbox's log) under `dir`; returns the groups. */
  save(dir: string, replay: { baseUrl: string; howToStart: string }): Group[] {
    const groups = [...this.groups.values()].sort((a, b) => rank(a) - rank(b) || b.count - a.count);
    if (groups.length === 0) return groups;
    mkdirSync(dir, { recursive: true });
    groups.forEach((group, index) => {
      const name = `${String(index + 1).padStart(2, '0')}-${group.example.problem.kind}`;
      const { case: one, problem, log } = group.example;
      const files: Record<string, string | Buffer> = {
        [`${name}.txt`]: [
          group.signature,
          `seen ${group.count} time(s), in cases of these kinds:`,
          ...[...group.kinds].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `  ${n} × ${kind}`),
          '',
          `the smallest example (${name}.json): ${one.kind}`,
          `${problem.kind}: ${problem.detail}`,
          '',
          log ?? '',
        ].join('\n'),
      };
      if (one.wire) {
        files[`${name}.json`] = caseToJson(one.wire);
        files[`${name}.curl.sh`] = `#!/bin/sh\n# ${one.kind}\n# ${replay.howToStart}\n${curlOf(one.wire, replay.baseUrl, `${name}.body.bin`)}\n`;
        if (one.wire.body !== undefined) files[`${name}.body.bin`] = one.wire.body;
      }
      if (one.raw) files[`${name}.raw.bin`] = one.raw.bytes;
      for (const [file, content] of Object.entries(files)) writeFileSync(join(dir, file), content);
      group.file = name;
    });
    return groups;
  }
}

/** Crashes first, then 5xx, then the rest. */
function rank(group: Group): number {
  return ['crash', '5xx', 'no-answer', 'rule', 'envelope'].indexOf(group.example.problem.kind);
}

/** The printed summary: counts, then one line per distinct failure. */
export function summaryText(tally: FuzzTally, groups: Group[], run: { cases: number; seed: number; ms: number; dir: string; quarantined: string[] }): string {
  const list = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]).map(([key, n]) => `${key} ${n}`).join(', ');
  const { crashes, envelope, rule, unsendable, skipped } = tally.counts;
  const out = [
    '',
    `npm run fuzz: ${run.cases} cases, seed ${run.seed}, ${(run.ms / 1000).toFixed(1)} s (${Math.round(run.cases / (run.ms / 1000))} cases/s)`,
    `  cases by endpoint:   ${list(tally.byEndpoint)}`,
    `  statuses by class:   ${list(tally.byStatusClass)}`,
    `  crashes: ${crashes}   5xx: ${tally.counts['5xx']}   envelope violations: ${envelope}   rule violations: ${rule}   no answer: ${tally.counts['no-answer']}${unsendable ? `   unsendable (generator): ${unsendable}` : ''}`,
  ];
  if (skipped > 0) out.push(`  skipped: ${skipped} cases of groups that had crashed the sandbox twice (${run.quarantined.join('; ')})`);
  if (groups.length === 0) return [...out, '  no failures', ''].join('\n');
  out.push(`  ${groups.length} distinct failure(s), examples in ${run.dir}:`);
  for (const group of groups) {
    const kinds = group.kinds.size === 1 ? '' : `  (${group.kinds.size} kinds of case)`;
    out.push(`    ${group.file ?? ''}  ×${group.count}  ${group.signature}${kinds}`);
  }
  return [...out, ''].join('\n');
}
