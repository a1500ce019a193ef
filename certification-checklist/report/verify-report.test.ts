import { describe, expect, it } from '@jest/globals';
import { canonicalJson } from './canonical-json.js';
import { sealReport, type Report } from './report-model.js';
import { renderReportFiles } from './render-report-files.js';
import { verifyReport } from './verify-report.js';

const excerpt = { journalId: 'j-000001', method: 'POST', path: '/v2/order/refund', response: { status: 200 } };
const report = sealReport({
  format: 'pos-sandbox/certification-report',
  formatVersion: 1,
  runId: 'run-1',
  checklistVersion: '1.0.0',
  sandboxVersion: '0.1.0',
  sandbox: { url: 'http://127.0.0.1:4100', partner: 'demo-pos' },
  pos: { driverUrl: 'http://127.0.0.1:4200' },
  mode: 'driver',
  capabilities: ['refund'],
  startedAt: '2026-11-21T10:00:00.000Z',
  finishedAt: '2026-11-21T10:00:05.000Z',
  durationMs: 5000,
  outcome: { counts: { pass: 1, fail: 0, warn: 0, blocked: 0, not_applicable: 0, skipped: 0, error: 0 }, verdict: 'passed', exitCode: 0, reason: 'every required item in scope passed (1)' },
  items: [
    {
      id: 'REFUND-01',
      title: 'A refund names the order <by> its ExternalId & "more"',
      section: '§4.1',
      category: 'REFUND',
      required: false,
      capabilities: ['refund'],
      status: 'pass',
      message: 'refund of REF-1 accepted and PROCESSED',
      remediation: 'Send the ExternalId.',
      evidence: [{ journalId: 'j-000001', sha256: '0'.repeat(64), excerpt }],
    },
  ],
} as Report);
report.items[0]!.evidence[0]!.sha256 = (await import('./canonical-json.js')).sha256Of(excerpt);
const sealed = sealReport(report);
const files = renderReportFiles(sealed);

describe('canonicalJson', () => {
  it('sorts keys at every level and leaves no whitespace, so one value has one text', () => {
    expect(canonicalJson({ b: [2, { d: 1, c: 'x' }], a: true, skip: undefined })).toBe('{"a":true,"b":[2,{"c":"x","d":1}]}');
  });
});

describe('verifyReport', () => {
  it('finds a report as it was written intact', () => {
    expect(verifyReport(files)).toEqual({ intact: true, problems: [] });
  });

  it('detects a one-character edit of report.json, naming the evidence and the report digest', () => {
    const edited = files['report.json'].replace('"status": 200', '"status": 201');
    expect(verifyReport({ ...files, 'report.json': edited }).problems).toEqual([
      'REFUND-01: evidence j-000001 does not match its sha256: the excerpt was edited',
      expect.stringMatching(/^the report's sha256 is [0-9a-f]{64}, not the [0-9a-f]{64} it states: its content was edited$/),
      'report.html is not what report.json renders to: it was edited',
    ]);
  });

  it('detects a changed verdict, a space added, a cut file, and an edited rendering', () => {
    expect(verifyReport({ ...files, 'report.json': files['report.json'].replace('"pass"', '"fail"') }).intact).toBe(false);
    expect(verifyReport({ ...files, 'report.json': files['report.json'].replace('"mode": "driver"', '"mode":  "driver"') }).problems).toEqual([
      'report.json is not laid out as the runner wrote it: spaces or line breaks were changed',
    ]);
    expect(verifyReport({ ...files, 'report.json': files['report.json'].slice(0, -5) }).problems[0]).toMatch(/^report.json is not valid JSON \(.+\): it was edited or cut$/);
    expect(verifyReport({ ...files, 'report.md': files['report.md'].replace('PASS', 'FAIL') }).problems).toEqual(['report.md is not what report.json renders to: it was edited']);
    expect(verifyReport({ 'report.json': files['report.json'] }).problems).toEqual(['report.md is missing', 'report.html is missing', 'junit.xml is missing']);
  });

  it('renders a self-contained HTML page and escapes what the report holds', () => {
    expect(files['report.html']).toContain('A refund names the order &lt;by&gt; its ExternalId &amp; &quot;more&quot;');
    expect(files['report.html']).not.toMatch(/<script|<link|src=|href="http/);
    expect(files['junit.xml']).toContain('name="REFUND-01 A refund names the order &lt;by&gt; its ExternalId &amp; &quot;more&quot; (optional)"');
  });
});
