/** `pos-sandbox checklist`, `verify-report` and `demo` as real processes, as a partner runs them. */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, referencePos, serve, stopServers } from '../../server/test/processes.js';
import { closedPort } from '../../server/test/live.js';
import { sealReport, type Report } from '../report/report-model.js';
import { FOLDER_FILES, signedFolderFiles } from '../report/write-report.js';
import { selfSigner } from '../report/signing-keys.js';
import { generateKeyPairSync } from 'node:crypto';
import { PACKAGE_ROOT } from '../../server/version.js';
import { PARTNER } from '../../server/test/test-identity.js';

const REPORT_FILES_SORTED = [...FOLDER_FILES].sort();

// Each test starts real processes; with two test files running at once on two cores, 5 s was not always enough.
jest.setTimeout(30_000);
afterEach(stopServers);

const tempDir = () => mkdtempSync(join(tmpdir(), 'pos-sandbox-reports-'));

describe('pos-sandbox checklist', () => {
  it('exits 2 naming the sandbox URL when the sandbox cannot be reached', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const run = await cli(['checklist', '--sandbox', url, '--driver', 'http://127.0.0.1:2']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`pos-sandbox checklist: the run could not start: the sandbox at ${url} did not answer GET /_sandbox/health: ECONNREFUSED`);
    expect(run.stderr.split(url).length - 1).toBe(1);
    // SANDBOX_URL points it there as --sandbox does.
    const fromEnv = await cli(['checklist', '--driver', 'http://127.0.0.1:2'], { SANDBOX_URL: `${url}/` });
    expect({ code: fromEnv.code, said: fromEnv.stderr.includes(`the sandbox at ${url} did not answer GET /_sandbox/health`) }).toEqual({ code: 2, said: true });
  });

  it('exits 2 naming the driver URL when nothing listens there', async () => {
    const sandbox = await serve([]);
    const driver = `http://127.0.0.1:${await closedPort()}`;
    const run = await cli(['checklist', '--sandbox', sandbox.baseUrl, '--driver', driver]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the run could not start: cannot reach the POS driver at ${driver}/health: ECONNREFUSED`);
  });

  it("exits 2 before anything is sent when --pos-name holds the partner's key, and writes no report", async () => {
    const sandbox = await serve([]);
    const reports = tempDir();
    const run = await cli(['checklist', '--sandbox', sandbox.baseUrl, '--passive', '--pos-name', `acme ${PARTNER.nonProdKey}`, '--report-dir', reports]);
    expect([run.code, run.stderr]).toEqual([
      2,
      "pos-sandbox checklist: the run could not start: --pos-name holds the partner's non-prod key or a token, and a report is shared: write the report's fields without it (§5: the key is kept confidential)\n",
    ]);
    expect(readdirSync(reports)).toEqual([]);
  });

  it.each([
    [['--driver', 'http://127.0.0.1:2', '--passive'], 'choose exactly one of --driver URL, --interactive, --passive (got driver and passive)'],
    [[], 'choose exactly one of --driver URL, --interactive, --passive'],
    [['--passive', '--capabilities', 'refund,hubs'], "unknown capability 'hubs'; the capabilities are refund, hub, kiosk, menu-form-b"],
    [['--passive', '--only', 'AUTH-99'], "unknown item 'AUTH-99'; the items are AUTH-01,"],
    [['--passive', '--pos-version', '4.2\n0'], '--pos-version must be 1 to 100 printable characters (no control, bidirectional or invisible one), starting with a non-space, got "4.2\\n0"'],
  ])('refuses the command line %j with exit 2', async (args, message) => {
    const run = await cli(['checklist', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`pos-sandbox checklist: ${message}`);
  });

  it('fails the item a broken POS breaks, with its hint, writes the report and exits 1', async () => {
    const sandbox = await serve([]);
    const pos = await referencePos(['--sandbox', sandbox.baseUrl, '--bug', 'accept-bad-signature']);
    const reports = tempDir();
    const run = await cli(['checklist', '--sandbox', sandbox.baseUrl, '--driver', pos.url, '--only', 'AUTH-10', '--report-dir', reports], { SANDBOX_POS_ORDER_URL: `${pos.url}/order` });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('  FAIL     AUTH-10      An order whose token has a bad signature is refused and creates nothing: the POS accepted an order delivered with a token with a bad signature (answered 200)');
    expect(run.stdout).toContain('           fix: Verify the signature of the service’s token with the partner key (HS256)');
    expect(run.stdout).toContain('NOT A CERTIFICATION (demo run: the POS under test is the bundled reference POS). FAILED: required item AUTH-10 (fail) did not pass.');
    const [folder] = readdirSync(reports);
    expect(readdirSync(join(reports, folder!)).sort()).toEqual(REPORT_FILES_SORTED);
    // Items left out with --only are not printed, not even those whose capability was not declared.
    expect(run.stdout).not.toMatch(/N\/A|SKIP/);
  }, 30_000);
});

describe('two runs in a row on one data file', () => {
  it('give the second run the verdicts of the first, with the POS restarted between them (its ExternalIds begun again)', async () => {
    const sandbox = await serve(['--data', join(tempDir(), 'sandbox.json'), '--refund-delay-ms', '200']);
    const only = ['ORDER-01', 'ORDER-02', 'ORDER-03', 'REFUND-01'];
    const runOnce = async () => {
      const pos = await referencePos(['--sandbox', sandbox.baseUrl]);
      const run = await cli(['checklist', '--sandbox', sandbox.baseUrl, '--driver', pos.url, '--only', only.join(','), '--capabilities', 'refund', '--report-dir', tempDir()], { SANDBOX_POS_ORDER_URL: `${pos.url}/order` });
      pos.child.kill('SIGKILL');
      await once(pos.child, 'exit');
      return { code: run.code, verdicts: [...run.stdout.matchAll(/^ {2}(\S+) +([A-Z]+-\d\d) /gm)].map(([, status, id]) => `${status} ${id}`).sort(), stdout: run.stdout };
    };
    const first = await runOnce();
    expect(first.verdicts).toEqual(only.map((id) => `PASS ${id}`));
    const second = await runOnce();
    expect({ code: second.code, verdicts: second.verdicts, out: second.code === 0 ? '' : second.stdout }).toEqual({ code: first.code, verdicts: first.verdicts, out: '' });
  }, 60_000);
});

/** `demo --keep ARGS`: once the run is over and the sandbox stays up, `whileUp(dashboard URL)`; then SIGINT. */
async function keptDemo(args: string[], whileUp: (dashboard: string) => Promise<void>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin', 'pos-sandbox.js'), 'demo', '--keep', ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit');
  try {
    while (!stdout.includes('The sandbox stays up')) {
      if (child.exitCode !== null) throw new Error(`demo exited before the end of its run: ${stdout}${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await whileUp(/dashboard: +(http:\/\/127\.0\.0\.1:\d+)\/ /.exec(stdout)![1]!);
  } finally {
    child.kill('SIGINT');
  }
  const [code] = (await exited) as [number | null];
  return { code, stdout, stderr };
}

describe('npm run demo and verify-report', () => {
  it('passes every required item against the reference POS, stays up for the dashboard with --keep, says in every file it is not a certification, and verify-report --rejudge catches a forged verdict', async () => {
    const reports = tempDir();
    // Windows of 300 ms, as the in-process runs of checklist-run.test.ts: at the default 3 s, four steps' windows
    // were 12 s of this test's time, and the correct reference POS sends no retry to watch for. Refunds decided
    // after 50 ms, not 1 s: the four refunds waited for were 4 s of it. Refused orders tried again after 50 ms:
    // the three forged-token steps each waited 1 s for the retry.
    // --keep: the sandbox and its dashboard stay up after the run, with the report listed, until SIGINT.
    const demo = await keptDemo(['--window-ms', '300', '--refund-delay-ms', '50', '--retry-delays-ms', '50', '--report-dir', reports], async (dashboard) => {
      expect((await fetch(`${dashboard}/`, { redirect: 'manual' })).headers.get('location')).toBe('/_sandbox/ui/');
      expect((await fetch(`${dashboard}/_sandbox/ui/`)).status).toBe(200);
      const listed = (await (await fetch(`${dashboard}/_sandbox/reports`)).json()) as Array<{ verdict: string; title: string }>;
      expect(listed).toEqual([expect.objectContaining({ verdict: 'passed', title: 'Demo run, not a certification: demo-pos (the bundled reference POS)' })]);
    });
    expect(demo.stderr).toBe('');
    expect(demo.code).toBe(0);
    expect(demo.stdout).toMatch(/^ {2}dashboard: +http:\/\/127\.0\.0\.1:\d+\/ {2}\(open it to watch the run; it stays up after the run, until Ctrl-C\)$/m);
    expect(demo.stdout).toMatch(/NOT A CERTIFICATION \(demo run: the POS under test is the bundled reference POS\)\. PASSED: every required item in scope passed \(30 required; optional items do not count\)\.\n {2}36 pass\n {2}report: /);
    expect(demo.stdout).toMatch(/^ {2}step order-accepted: \d+\.\d s$/m);
    const folder = join(reports, readdirSync(reports)[0]!);
    expect(readdirSync(folder).sort()).toEqual(REPORT_FILES_SORTED);
    for (const file of ['report.json', 'report.md', 'report.html', 'junit.xml']) expect(readFileSync(join(folder, file), 'utf8')).toContain('Demo run, not a certification: demo-pos (the bundled reference POS)');

    const intact = await cli(['verify-report', '--rejudge', folder]);
    expect(intact).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(
        /^signature: valid, kid \S+, checked with the key it carries\n {2}signer: self-signed [^\n]+\n {2}it proves integrity only[^\n]+\nPOS build: demo-pos \(no version\), partner demo-pos\nintact: [^\n]+\n {2}Demo run, not a certification[^\n]+\n[^\n]+\nrejudged: 36 verdicts, the outcome and the kind of run all follow from the report's evidence \(checklist 2\.3\.0\)\n$/,
      ),
    });

    // One character: the digests catch it.
    const json = join(folder, 'report.json');
    const text = readFileSync(json, 'utf8');
    const at = text.indexOf('"REF-00001"') + 5;
    writeFileSync(json, `${text.slice(0, at)}9${text.slice(at + 1)}`);
    const edited = await cli(['verify-report', folder]);
    expect(edited.code).toBe(1);
    expect(edited.stdout).toContain('EDITED:');
    expect(edited.stdout).toMatch(/its content was edited/);

    // A verdict turned, with every digest and rendering made again: only --rejudge can tell.
    const report = JSON.parse(text) as Report;
    const item = report.items.find((candidate) => candidate.id === 'ORDER-02')!;
    Object.assign(item, { status: 'fail', message: 'order was never accepted' });
    // Re-signed on the forger's own machine: intact and self-signed, by another key; only --rejudge can tell.
    const forger = selfSigner(generateKeyPairSync('ed25519').privateKey).signer;
    const forged = signedFolderFiles(sealReport({ ...report, signer: { kind: 'self-signed', kid: forger.kid } }), forger);
    for (const [name, content] of Object.entries(forged)) writeFileSync(join(folder, name), content);
    expect((await cli(['verify-report', folder])).code).toBe(0);
    const rejudged = await cli(['verify-report', '--rejudge', folder]);
    expect(rejudged.code).toBe(1);
    expect(rejudged.stdout).toContain('VERDICTS DO NOT FOLLOW FROM THE EVIDENCE:\n  - ORDER-02: the report says fail: "order was never accepted"; its evidence gives pass: "order chk-');
  }, 60_000);

  it.each(['--window-ms', '--refund-delay-ms', '--delivery-timeout-ms'])('refuses a %s that is not a whole number with exit 2', async (flag) => {
    const run = await cli(['demo', flag, '1.5']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^pos-sandbox demo: ${flag} must be a whole number( from 1)?, got '1\\.5'\n$`));
  });

  it('exits 2 for a folder that holds no report', async () => {
    const run = await cli(['verify-report', tempDir()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/holds no report.json, so it is no report folder/);
  });
});
