/**
 * The dashboard in a real Chromium against a real sandbox process and the reference POS, as a presenter uses it:
 * traffic sent by curl shows up live, a bad token is explained rule by rule, a Hub order travels to ACCEPTED, a
 * fault's counter moves. One sandbox, one POS and one browser for the file; each test opens its own page.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { SERVICE_AUDIENCE } from '../tokens/pos-token-rules.js';
import { launchBrowser, RUN_BROWSER_TESTS } from './browser.js';
import { PARTNER, signHs256 } from './helpers.js';
import { closedPort } from './loopback.js';
import { cli, referencePos, serve, serveHosted, stopServers } from './processes.js';
import type { MigrationReport } from '../migration/migration-report.js';
import { writeFileSync } from 'node:fs';

const run = promisify(execFile);
const suite = RUN_BROWSER_TESTS ? describe : describe.skip;

suite('the dashboard, in Chromium', () => {
  let browser: Browser;
  let baseUrl: string;
  let reportDir: string;
  let posUrl: string;

  beforeAll(async () => {
    reportDir = mkdtempSync(join(tmpdir(), 'dashboard-reports-'));
    const port = await closedPort();
    const pos = await referencePos(['--sandbox', `http://127.0.0.1:${port}`]);
    posUrl = pos.url;
    [browser, { baseUrl }] = await Promise.all([
      launchBrowser(),
      serve(['--port', String(port), '--pos-order-url', `${pos.url}/order`, '--refund-delay-ms', '50', '--retry-delays-ms', '50', '--report-dir', reportDir]),
    ]);
  }, 20_000);

  afterAll(async () => {
    await browser?.close();
    stopServers();
    rmSync(reportDir, { recursive: true, force: true });
  });

  /** A page on the dashboard, once its event stream is live (nothing sent before that is missed). */
  async function open(hash = '#/traffic'): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    await page.goto(`${baseUrl}/${hash}`);
    await page.locator('#stream-state', { hasText: 'live' }).waitFor();
    (page as Page & { problems: string[] }).problems = problems;
    return page;
  }
  const problemsOf = (page: Page) => (page as Page & { problems: string[] }).problems;

  async function mint(locationId: string): Promise<string> {
    const response = await fetch(`${baseUrl}/_sandbox/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ locationId }) });
    return ((await response.json()) as { token: string }).token;
  }

  it('shows a refund sent by curl in Traffic within a second, findings and token checks included', async () => {
    const page = await open();
    const token = await mint('loc-std-001');
    await run('curl', [
      '-s', '-X', 'POST', `${baseUrl}/v2/order/refund`,
      '-H', `Authorization: Bearer ${token}`,
      '-H', 'x-service-locationid: loc-std-001',
      '-H', `x-api-key: ${PARTNER.apiKey}`,
      '-H', 'Content-Type: application/json',
      '-d', '{"ExternalId":"POS-STD-1001","Comment":"refund by curl"}',
    ]);
    // A second from the moment curl has its answer: the stream carries the entry, the page draws it.
    const row = page.locator('#traffic tbody tr', { hasText: '/v2/order/refund' }).first();
    await row.waitFor({ timeout: 1000 });
    // Comment is an unknown field, and the call lacks x-api-version: two findings.
    await expect(row.locator('td.findings').textContent()).resolves.toBe('2');
    await row.click();
    const detail = page.getByLabel('request detail');
    await detail.locator('text=UNKNOWN_FIELD').waitFor();
    await expect(detail.locator('.findings-list li').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^VERSION_HEADER_MISSING §5 migration notes/),
      expect.stringMatching(/^UNKNOWN_FIELD §2\.1Comment is not a field of/),
    ]);
    await expect(detail.locator('#token-checks tr.pass').count()).resolves.toBe(10);

    await detail.locator('#copy-curl').click();
    const curl = await detail.locator('#curl').textContent();
    expect(curl).toContain(`curl -i -X POST '${baseUrl}/v2/order/refund'`);
    expect(curl).not.toContain(token);
    expect(curl).toContain('-H "x-api-key: ${POS_API_KEY:-your-x-api-key}"');
    // No secret on the page: neither the partner's key nor the x-api-key the call sent.
    const shown = await page.content();
    expect([shown.includes(PARTNER.nonProdKey), shown.includes(PARTNER.apiKey!)]).toEqual([false, false]);
    // The copied command works as it is: a fresh token, the same body.
    const { stdout } = await run('sh', ['-c', curl!.replace('curl -i', 'curl -s -o /dev/null -w %{http_code}')]);
    expect(stdout).toBe('200');
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it("explains a bad token rule by rule, in the debugger and in a refused call's entry", async () => {
    const page = await open('#/tokens');
    const now = Math.floor(Date.now() / 1000);
    const bad = signHs256({ alg: 'HS256', typ: 'JWT' }, { sub: 'loc-std-001', jti: 'j-debugger', nbf: now - 7200, exp: now - 3600, iss: PARTNER.name, aud: PARTNER.name }, 'not-the-partner-key');
    await page.locator('#token-input').fill(bad);
    await page.locator('#check-token').click();
    await page.locator('#token-rules').waitFor();
    const verdicts = await page.locator('#token-rules tr').evaluateAll((rows) => rows.map((row) => `${row.getAttribute('data-rule')} ${row.className}`));
    expect(verdicts).toEqual(['format pass', 'alg pass', 'payload pass', 'signature fail', 'sub pass', 'jti pass', 'iss pass', 'aud fail', 'nbf pass', 'exp fail']);
    await expect(page.locator('.answer.bad').textContent()).resolves.toContain('token signature does not verify');
    await expect(page.locator('#token-rules tr[data-rule=aud]').textContent()).resolves.toContain(`must be '${SERVICE_AUDIENCE}'`);

    // The same token sent to the POS API: its entry in Traffic shows where the sandbox stopped.
    await fetch(`${baseUrl}/v2/order/refund`, { method: 'POST', headers: { authorization: `Bearer ${bad}`, 'x-service-locationid': 'loc-std-001', 'content-type': 'application/json' }, body: '{"ExternalId":"POS-STD-1002"}' });
    await page.locator('nav a[data-page=traffic]').click();
    await page.locator('#traffic tbody tr', { hasText: '401' }).first().click();
    const checks = page.locator('#token-checks');
    await checks.waitFor();
    await expect(checks.locator('tr.fail').textContent()).resolves.toContain('signature');
    await expect(checks.locator('tr.not-judged').count()).resolves.toBe(6);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it('creates a Hub order that the reference POS takes to ACCEPTED, with every state and try', async () => {
    const page = await open('#/orders');
    await page.locator('#order-template').selectOption('hub');
    await page.locator('#order-location').selectOption('loc-hub-001-noodles');
    await page.locator('#create-order').click();
    // The new order opens as it is created; its timeline fills in as the POS replies and then calls back.
    const timeline = page.locator('#orders tr.expanded');
    await timeline.locator('li', { hasText: 'ACCEPTED' }).waitFor({ timeout: 10_000 });
    await expect(page.locator('#orders tr:has(+ tr.expanded) td').allTextContents()).resolves.toEqual(
      expect.arrayContaining([expect.stringMatching(/^ord-/), 'hub', 'loc-hub-001-noodles', 'ACCEPTED']),
    );
    expect(await timeline.textContent()).toMatch(/NEW.*DISPATCHED.*ACCEPTED.*by pos-status/s);
    expect(await timeline.textContent()).toContain('dispatch 1, try 1');
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it('shows a stress run live as it goes, then its verdict and where its report is', async () => {
    const page = await open('#/stress');
    await page.locator('#stress-runs, .page p.muted', { hasText: /stress|No stress run/ }).first().waitFor();
    // Its report apart from the checklist's folder, which another test counts.
    const stressDir = mkdtempSync(join(tmpdir(), 'dashboard-stress-'));
    const running = cli(['stress', '--sandbox', baseUrl, '--orders', '60', '--seed', '5', '--report-dir', stressDir]);
    // Seen while it runs: the counts come as the orders go, not at the end.
    await page.locator('#stress-run[data-state="running"]').waitFor({ timeout: 10_000 });
    const during = await page.locator('#stress-counts').textContent();
    await page.locator('#stress-run[data-state="done"]').waitFor({ timeout: 30_000 });
    const result = await running;
    expect([result.code, result.stderr]).toEqual([0, '']);
    const id = /live on the dashboard: \S+\/_sandbox\/ui\/#\/stress\/(stress-\d+)/.exec(result.stdout)![1]!;
    expect(await page.locator('#stress-run').getAttribute('data-id')).toBe(id);
    expect(during).toMatch(/^\d+ of 60 orders sent, \d+ passed$/);
    await expect(page.locator('#stress-counts').textContent()).resolves.toBe('60 of 60 orders sent, 60 passed');
    await expect(page.locator('#stress-verdict').textContent()).resolves.toBe('NOTHING FOUND: the POS took all 60 orders as it should.');
    await expect(page.locator('#stress-recent tbody tr').count()).resolves.toBe(50);
    // The list of runs is fetched apart from the run itself: its row may say done a moment after the run does.
    await page.locator(`#stress-runs tr[data-id="${id}"] td`, { hasText: /^done$/ }).waitFor({ timeout: 10_000 });
    await expect(page.locator(`#stress-runs tr[data-id="${id}"] td`).allTextContents()).resolves.toEqual([id, expect.any(String), 'hunt', '5', 'done', '60 of 60', '0']);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
    rmSync(stressDir, { recursive: true, force: true });
  }, 60_000);

  it("adds a fault rule and shows its counters move as calls meet it", async () => {
    const page = await open('#/faults');
    await page.locator('#fault-input').fill(JSON.stringify({ id: 'dash-503', match: { path: '/order/status' }, action: { kind: 'status', status: 503 }, times: 2 }));
    await page.locator('#add-fault').click();
    const rule = page.locator('#faults tr[data-id=dash-503]');
    await expect(rule.locator('td.fired').textContent()).resolves.toBe('0');
    const token = await mint('loc-std-001');
    await fetch(`${baseUrl}/v2/order/status`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-service-locationid': 'loc-std-001', 'content-type': 'application/json' }, body: '{"ExternalId":"nope","Status":"ACCEPTED"}' });
    await rule.locator('td.fired', { hasText: '1' }).waitFor();
    await expect(rule.locator('td.left').textContent()).resolves.toBe('1');
    await rule.locator('button', { hasText: 'Remove' }).click();
    await rule.waitFor({ state: 'detached' });

    // A ready script of fixtures/faults/ fills the form, and is added as it is.
    await page.locator('#fault-script').selectOption('rate-limited');
    await expect(page.locator('#fault-input').inputValue()).resolves.toContain('"id": "rate-limit-every-5th"');
    await page.locator('#add-fault').click();
    await page.locator('#faults tr[data-id=rate-limit-every-5th]').waitFor();
    await page.locator('button', { hasText: 'Remove all rules' }).click();
    await page.locator('#faults tbody tr').first().waitFor({ state: 'detached' });
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it('runs the checklist against the reference POS from the page, item by item, and opens its report', async () => {
    const page = await open('#/checklist');
    const updates: number[] = [];
    // Every checklist event the page's stream carries: the run is followed as it goes, not fetched at its end.
    await page.exposeFunction('noteUpdate', (judged: number) => updates.push(judged));
    await page.locator('#checklist-window').fill('300');
    // Three items, one of each kind of step: the whole checklist runs in the demo's and the checklist's own tests.
    await page.locator('#checklist-only').fill('auth-01, ORDER-02,REFUND-01');
    await page.locator('#start-checklist').click();
    await page.locator('#checklist-items tr[data-id=AUTH-01]').waitFor();
    await page.evaluate(() => {
      new MutationObserver(() => (window as unknown as { noteUpdate: (n: number) => void }).noteUpdate(document.querySelectorAll('#checklist-items tr.pass').length)).observe(
        document.querySelector('#checklist-items')!,
        { subtree: true, attributes: true, childList: true },
      );
    });
    await page.locator('#checklist-outcome').waitFor({ timeout: 30_000 });
    const failures = await page.locator('#checklist-items tr:not(.pass)').allTextContents();
    expect([await page.locator('#checklist-outcome').textContent(), failures]).toEqual([expect.stringMatching(/^passed: /), []]);
    await expect(page.locator('#checklist-items tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')))).resolves.toEqual(['AUTH-01', 'ORDER-02', 'REFUND-01']);
    await expect(page.locator('#checklist-items tr.pass').count()).resolves.toBe(3);
    // The page showed the run part judged on its way: the verdicts reached it as they came, not at the end.
    expect(updates.some((passed) => passed > 0 && passed < 3)).toBe(true);

    const [report] = await Promise.all([page.waitForEvent('popup'), page.locator('#open-report').click()]);
    await report.waitForLoadState();
    await expect(report.title()).resolves.toMatch(/not a certification/);
    expect(readdirSync(reportDir)).toHaveLength(1);
    // The report folder is listed for later, each opening its report.html, with the run's verdict (not a refund's word).
    await page.locator('#reports a', { hasText: 'not a certification' }).waitFor();
    await expect(page.locator('#reports tr').first().locator('.badge').textContent()).resolves.toBe('passed');
    // Who signed it: this laptop sandbox, with its own key.
    await expect(page.locator('#reports tr').first().locator('td').last().textContent()).resolves.toBe('self-signed');
    await expect(report.locator('table.statement').textContent()).resolves.toMatch(/Signed byself-signed \(kid [^)]+\): signed on the partner's machine/);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  }, 40_000);

  it("fills the checklist form from the sandbox's own order URL, asks for the POS version, and says what makes a certification", async () => {
    const page = await open('#/checklist');
    await expect(page.locator('#checklist-kind-note').textContent()).resolves.toMatch(/^A run against the bundled reference POS is a demo/);
    await page.getByLabel("a POS test build's driver").check();
    // The sandbox delivers to the reference POS (serve --pos-order-url): the driver is that POS, and a blank order URL is the sandbox's.
    await expect(page.locator('#checklist-driver').inputValue()).resolves.toBe(posUrl);
    await expect(page.locator('#checklist-order-url').getAttribute('placeholder')).resolves.toBe(`POS order URL (blank: the sandbox's, ${posUrl}/order)`);
    await page.locator('#checklist-pos-version').waitFor();
    await expect(page.locator('#checklist-kind-note').textContent()).resolves.toMatch(/without a version, or with items left out, it is a practice run/);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it("shows the migration report as the CLI prints it, a v1 call in progress with a link to its entry", async () => {
    const page = await open('#/migration');
    const token = await mint('loc-std-001');
    // v1's CompanyProfileId as a header: a refusal that belongs to step 3 of §9, refactor payloads.
    const response = await fetch(`${baseUrl}/v2/order/refund`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, companyprofileid: 'loc-std-001', 'x-api-key': PARTNER.apiKey!, 'x-api-version': '2', 'content-type': 'application/json' },
      body: '{"ExternalId":"POS-STD-1001"}',
    });
    const v1Call = response.headers.get('x-sandbox-journal-id')!;
    await page.locator(`#migration tr[data-step="3"] a[data-journal-id="${v1Call}"]`).waitFor();
    await expect(page.locator('#migration tr[data-step="3"]').getAttribute('data-state')).resolves.toBe('in progress');
    // One source: the page's rows are the CLI's report, step for step.
    const said = await cli(['migration', '--json'], { SANDBOX_URL: baseUrl });
    const { steps } = JSON.parse(said.stdout) as MigrationReport;
    const rows = await page.locator('#migration tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({ number: Number(tr.getAttribute('data-step')), state: tr.getAttribute('data-state'), v1Calls: [...tr.querySelectorAll('a')].map((a) => a.getAttribute('data-journal-id')), next: tr.lastElementChild!.textContent })),
    );
    expect(rows).toEqual(steps.map(({ number, state, v1Calls, next }) => ({ number, state, v1Calls, next })));
    expect(steps[2]!.next).toContain("v1's CompanyProfileId");
    await page.locator(`a[data-journal-id="${v1Call}"]`).first().click();
    await page.getByLabel('request detail').locator('text=companyprofileid').first().waitFor();
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it('behind --admin-token, asks for the token, keeps it for the tab, and sends it with every call and the stream', async () => {
    const guardedReports = mkdtempSync(join(tmpdir(), 'dashboard-guarded-reports-'));
    const guarded = await serve(['--admin-token', 'dashboard-admin-token-0001', '--refund-delay-ms', '50', '--report-dir', guardedReports]);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${guarded.baseUrl}/`);
    // The page holds no data: it asks for the token before anything else.
    await page.locator('#admin-token').fill('dashboard-admin-token-0001');
    await page.locator('.token-prompt button').click();
    await page.locator('#stream-state', { hasText: 'live' }).waitFor();
    const token = ((await (await fetch(`${guarded.baseUrl}/_sandbox/tokens`, { method: 'POST', headers: { authorization: 'Bearer dashboard-admin-token-0001', 'content-type': 'application/json' }, body: '{"locationId":"loc-std-001"}' })).json()) as { token: string }).token;
    await fetch(`${guarded.baseUrl}/v2/order/refund`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-service-locationid': 'loc-std-001', 'content-type': 'application/json' }, body: '{"ExternalId":"POS-STD-1001"}' });
    await page.locator('#traffic tbody tr', { hasText: '/v2/order/refund' }).waitFor();
    // Kept in sessionStorage, never in the URL; another tab of another session is asked again.
    expect(page.url()).not.toContain('dashboard-admin-token');
    const other = await (await browser.newContext()).newPage();
    await other.goto(`${guarded.baseUrl}/`);
    await other.locator('#admin-token').waitFor();

    // A report cannot be opened by a plain link behind the token: the page fetches it with the token and opens that.
    await page.locator('nav a[data-page=checklist]').click();
    await page.locator('#checklist-only').fill('AUTH-01');
    await page.locator('#checklist-window').fill('0');
    await page.locator('#start-checklist').click();
    await page.locator('#checklist-outcome', { hasText: 'open the report' }).waitFor({ timeout: 20_000 });
    const [report] = await Promise.all([page.waitForEvent('popup'), page.locator('#open-report').click()]);
    await report.waitForLoadState();
    await expect(report.title()).resolves.toMatch(/not a certification/);
    rmSync(guardedReports, { recursive: true, force: true });
    await context.close();
    await other.context().close();
  }, 30_000);

  it("of a hosted sandbox, opened with one partner's token, shows that partner's traffic and refunds only", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-hosted-'));
    const otherKey = 'other-pos-nonprod-key-'.padEnd(40, 'o');
    writeFileSync(
      join(dir, 'partners.json'),
      JSON.stringify({
        partners: [
          { name: PARTNER.name, nonProdKey: PARTNER.nonProdKey, adminToken: 'demo-admin-token-000001' },
          { name: 'other-pos', nonProdKey: otherKey, adminToken: 'other-admin-token-00001', locations: ['loc-kiosk-001'] },
        ],
      }),
    );
    const hosted = await serveHosted(['--partners', join(dir, 'partners.json'), '--memory', '--report-dir', join(dir, 'reports')]);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${hosted.baseUrl}/`);
    await page.locator('#admin-token').fill('demo-admin-token-000001');
    await page.locator('.token-prompt button').click();
    await page.locator('#stream-state', { hasText: 'live' }).waitFor();
    const now = Math.floor(Date.now() / 1000);
    const send = (iss: string, key: string, location: string, externalId: string) =>
      fetch(`${hosted.baseUrl}/v2/order/refund`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${signHs256({ alg: 'HS256', typ: 'JWT' }, { sub: location, jti: `hosted-${externalId}`, nbf: now - 5, exp: now + 600, iss, aud: SERVICE_AUDIENCE }, key)}`,
          'x-service-locationid': location,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ ExternalId: externalId }),
      });
    // The other partner's call first: when the partner's own row is drawn, the other's would have been too.
    expect((await send('other-pos', otherKey, 'loc-kiosk-001', 'OTHER-ONLY-1')).status).toBe(200);
    expect((await send(PARTNER.name, PARTNER.nonProdKey, 'loc-std-001', 'DEMO-ONLY-1')).status).toBe(200);
    await page.locator('#traffic tbody tr', { hasText: '/v2/order/refund' }).waitFor();
    expect(await page.locator('#traffic tbody tr').count()).toBe(1);
    await page.locator('nav a[data-page=refunds]').click();
    await page.locator('main', { hasText: 'DEMO-ONLY-1' }).waitFor();
    expect(await page.locator('main').innerText()).not.toContain('OTHER-ONLY-1');
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);
});
