import { describe, expect, it } from '@jest/globals';
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import { CHECKLIST } from '../items/all-items.js';
import { judgedItems, runOutcome } from '../run-outcome.js';
import { runKind } from '../run-kind.js';
import type { RunResult, StepRecord } from '../runner.js';
import type { ItemResult } from '../run-options.js';
import { ONLY_SKIPPED } from '../scope.js';
import { trafficOf } from '../traffic.js';
import { canonicalJson, sha256Of } from './canonical-json.js';
import { buildReport, sealReport, type Report } from './report-model.js';
import { rejudgeReport } from './rejudge.js';
import { verifyReport } from './verify-report.js';
import { signedFolderFiles } from './write-report.js';
import { selfSigner } from './signing-keys.js';
import { TEST_SIGNER } from '../test/test-signer.js';
import { generateKeyPairSync } from 'node:crypto';

/** A status call the POS made with a token of this audience, answered `status`. */
function call(id: string, aud: string, status = 200): JournalEntry {
  return {
    id,
    requestId: id,
    time: '2026-11-21T10:00:00.000Z',
    direction: 'inbound',
    method: 'POST',
    path: '/v2/order/status',
    query: {},
    locationId: 'loc-1',
    token: { header: { alg: 'HS256' }, claims: { aud, sub: 'loc-1' }, sha256: `sha-${id}` },
    request: { headers: {}, body: { ExternalId: 'A <b>&"x"' }, bodyBytes: 2 },
    response: { status, headers: {} },
    latencyMs: 1,
    findings: [],
  };
}

/** A partial run of AUTH-02 over two calls, the second with another audience: a fail. */
function sampleRun(entries = [call('j-000001', 'io.service.pos.brokers.openapi'), call('j-000002', 'wrong')]): RunResult {
  const step: StepRecord = { id: 'all-traffic', startedAt: '2026-11-21T10:00:00.000Z', durationMs: 5, waits: [], asked: { posName: 'demo-pos' }, entries, orders: [], refunds: [] };
  const results: ItemResult[] = CHECKLIST.map((item) => {
    if (item.id !== 'AUTH-02') return { item, status: 'skipped', message: ONLY_SKIPPED, evidence: [] };
    const verdict = item.judge(trafficOf(step));
    return { item, status: verdict.status, message: verdict.message, evidence: entries.filter((entry) => verdict.evidence.includes(entry.id)), judgedOver: 'all-traffic' };
  });
  const pos = { name: 'acme-pos', version: '4.2.0' };
  return {
    runId: 'run-1',
    startedAt: '2026-11-21T10:00:00.000Z',
    finishedAt: '2026-11-21T10:00:05.000Z',
    mode: 'driver',
    capabilities: ['refund'],
    only: ['AUTH-02'],
    sandbox: { url: 'http://127.0.0.1:4100', version: '0.1.0', partner: 'demo-pos' },
    pos,
    kind: runKind({ mode: 'driver', only: ['AUTH-02'], pos }),
    driverUrl: 'http://127.0.0.1:4200',
    results,
    steps: [step],
  };
}

const reportOf = (run: RunResult) => buildReport(run, runOutcome(judgedItems(run.results)), TEST_SIGNER);
const report = reportOf(sampleRun());
const files = signedFolderFiles(report, TEST_SIGNER);
/** Someone else's machine: a key of its own, as a forger who re-signs an edited folder has. */
const FORGER = selfSigner(generateKeyPairSync('ed25519').privateKey).signer;

/** A report edited by someone who then recomputed every sha256 and re-rendered every file: only --rejudge can tell. */
function forged(edit: (copy: Report) => void): Report {
  const copy = JSON.parse(JSON.stringify(report)) as Report;
  edit(copy);
  for (const piece of copy.evidence) piece.sha256 = sha256Of(piece.entry);
  copy.signer = { kind: 'self-signed', kid: FORGER.kid };
  return sealReport(copy);
}

describe('canonicalJson', () => {
  it('sorts keys at every level and leaves no whitespace, so one value has one text', () => {
    expect(canonicalJson({ b: [2, { d: 1, c: 'x' }], a: true, skip: undefined })).toBe('{"a":true,"b":[2,{"c":"x","d":1}]}');
  });
});

describe('verifyReport', () => {
  it('finds a report as it was written intact, with its six files, the manifest and two signatures', () => {
    expect(Object.keys(files).sort()).toEqual(['evidence.har', 'junit.xml', 'manifest.json', 'report.html', 'report.json', 'report.md', 'signature.jws', 'statement.json', 'statement.jws']);
    expect(verifyReport(files)).toMatchObject({ intact: true, problems: [], signature: { valid: true, kind: 'self-signed', kid: TEST_SIGNER.kid, checkedWith: 'its own key', problems: [] } });
  });

  it('detects a one-character edit of report.json, naming the evidence, the report digest and every rendering it changes', () => {
    const edited = files['report.json'].replace('"status": 200', '"status": 201');
    expect(verifyReport({ ...files, 'report.json': edited }).problems).toEqual([
      'report.json does not match its sha256 in manifest.json: it was changed after signing',
      'evidence j-000001 does not match its sha256: the entry was edited',
      expect.stringMatching(/^the report's sha256 is [0-9a-f]{64}, not the [0-9a-f]{64} it states: its content was edited$/),
      'report.html does not match what report.json renders to: one of the two was edited',
      'evidence.har does not match what report.json renders to: one of the two was edited',
    ]);
  });

  it('detects a changed verdict, a space added, a cut file, an edited rendering and missing files', () => {
    expect(verifyReport({ ...files, 'report.json': files['report.json'].replace('"status": "fail"', '"status": "pass"') }).intact).toBe(false);
    expect(verifyReport({ ...files, 'report.json': files['report.json'].replace('"mode": "driver"', '"mode":  "driver"') }).problems).toEqual([
      'report.json does not match its sha256 in manifest.json: it was changed after signing',
      'report.json is not laid out as the runner wrote it: spaces or line breaks were changed',
    ]);
    expect(verifyReport({ ...files, 'report.json': files['report.json'].slice(0, -5) }).problems[0]).toMatch(/^report.json is not valid JSON \(.+\): it was edited or cut$/);
    expect(verifyReport({ ...files, 'report.md': files['report.md'].replace('FAIL', 'PASS') }).problems).toEqual([
      'report.md does not match its sha256 in manifest.json: it was changed after signing',
      'report.md does not match what report.json renders to: one of the two was edited',
    ]);
    expect(verifyReport({ 'report.json': files['report.json'], 'manifest.json': files['manifest.json'], 'signature.jws': files['signature.jws'] }).problems).toEqual([
      'report.md is missing',
      'report.html is missing',
      'junit.xml is missing',
      'evidence.har is missing',
      'statement.json is missing',
    ]);
    expect(verifyReport({ ...files, 'signature.jws': undefined })).toMatchObject({
      intact: true,
      signature: { valid: false, checkedWith: 'nothing', problems: ['signature.jws is missing: the folder is not signed as the sandbox wrote it'] },
    });
  });

  it('names a report of the earlier format instead of calling it edited', () => {
    const old = JSON.stringify({ ...report, formatVersion: 1 }, null, 2);
    expect(verifyReport({ 'report.json': `${old}\n` })).toMatchObject({ intact: false, unsupported: 'report.json is report format 1; this pos-sandbox reads format 3: verify it with the pos-sandbox 0.1.0 that wrote it' });
  });

  it('shows in report.html everything report.md shows: the notice, the result of each item, what to fix first, the steps', () => {
    const message = report.items.find((item) => item.id === 'AUTH-02')!.message;
    for (const file of ['report.md', 'report.html'] as const) {
      expect(files[file]).toContain('NOT A CERTIFICATION: partial run, only AUTH-02 was run (--only).');
      expect(files[file]).toContain('What to fix first');
      expect(files[file]).toContain('all-traffic');
    }
    expect(files['report.md']).toContain(message);
    expect(files['report.html']).toContain(message.replace(/"/g, '&quot;'));
    expect(files['report.html']).toContain('<th>Result</th>');
  });

  it('renders self-contained HTML and escapes what the report holds, evidence included', () => {
    expect(files['report.html']).toContain('A &lt;b&gt;&amp;\\&quot;x\\&quot;');
    expect(files['report.html']).not.toMatch(/<script|<link|src=|href="http/);
    expect(files['junit.xml']).toContain('<testsuites name="Partial run, not a certification: acme-pos 4.2.0 (run-1)"');
  });
});

describe('rejudgeReport', () => {
  it('finds every verdict of an untouched report where its evidence puts it', () => {
    expect(rejudgeReport(report)).toEqual({ judged: 1, problems: [] });
  });

  it.each([
    [
      'a verdict turned from fail to pass, digests recomputed',
      (copy: Report) => {
        copy.items.find((item) => item.id === 'AUTH-02')!.status = 'pass';
      },
      [
        'AUTH-02: the report says pass, its evidence gives fail: "1 of 2 calls broke the rule; POST /v2/order/status (j-000002): aud is \\"wrong\\""',
      ],
    ],
    [
      'an entry edited so the wrong audience reads right, digests recomputed',
      (copy: Report) => {
        copy.evidence[1]!.entry.token!.claims!.aud = 'io.service.pos.brokers.openapi';
      },
      [
        'AUTH-02: the report says fail: "1 of 2 calls broke the rule; POST /v2/order/status (j-000002): aud is \\"wrong\\""; its evidence gives pass: "aud is io.service.pos.brokers.openapi: all 2 calls"',
      ],
    ],
    [
      'a failing item moved out of scope',
      (copy: Report) => {
        Object.assign(copy.items.find((item) => item.id === 'AUTH-02')!, { status: 'not_applicable', message: 'needs the capability hub, which was not declared (--capabilities)' });
      },
      ['AUTH-02: the report says not_applicable: "needs the capability hub, which was not declared (--capabilities)"; its evidence gives fail: "1 of 2 calls broke the rule; POST /v2/order/status (j-000002): aud is \\"wrong\\""'],
    ],
    [
      'a partial run stamped a certification',
      (copy: Report) => {
        copy.kind = 'certification';
      },
      ['the kind of run: the report says certification, its scope and POS make it partial (only AUTH-02 was run (--only))'],
    ],
    [
      'an entry the step names taken out',
      (copy: Report) => {
        copy.evidence.pop();
      },
      ['AUTH-02: its step all-traffic names journal entries the report does not hold (j-000002)'],
    ],
  ])('names the mismatch when %s', (_case, edit, problems) => {
    const edited = forged(edit);
    // Re-signed on the forger's machine: intact, and self-signed by a key that is not the sandbox's.
    expect(verifyReport(signedFolderFiles(edited, FORGER))).toMatchObject({ intact: true, signature: { valid: true, kid: FORGER.kid } });
    expect((rejudgeReport(edited) as { problems: string[] }).problems).toEqual(expect.arrayContaining(problems));
  });

  it('says it cannot judge a report of another checklist version, and which pos-sandbox can', () => {
    expect(rejudgeReport({ ...report, checklistVersion: '1.0.0' })).toEqual({
      unsupported: 'the report was judged by checklist 1.0.0; this pos-sandbox has checklist 2.3.0. Judge it again with the pos-sandbox that wrote it (sandbox 0.1.0)',
    });
  });
});
