/** `npm run bench:dashboard`: the dashboard in Chromium against a real sandbox: its load with an empty and a full journal, and its frames and lag under 200 refunds a second. */
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../server/test/browser.js';
import { refundHeaders, startServer, uniqueRefund } from './bench-process.js';

const LOADS = 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0;

async function fill(url: string, amount: number): Promise<void> {
  const refund = uniqueRefund('fill');
  await autocannon({ url: `${url}${refund.path}`, connections: 10, amount, headers: refundHeaders(), requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: refund.body() }) }] });
}

/** Milliseconds from navigation to the Traffic rows drawn (as many as the journal has, up to 200) and the stream live. */
async function loadTime(page: Page, url: string, rows: number): Promise<number> {
  const started = performance.now();
  await page.goto(`${url}/#/traffic`);
  await page.locator('#stream-state', { hasText: 'live' }).waitFor();
  if (rows > 0) await page.waitForFunction(`document.querySelectorAll('#traffic tbody tr').length >= ${Math.min(rows, 200)}`);
  return performance.now() - started;
}

/** Frame gaps (ms) for `seconds`, measured in the page with requestAnimationFrame. */
function frameGaps(page: Page, seconds: number): Promise<number[]> {
  // A string, not a function: tsx names functions with a helper the page does not have.
  return page.evaluate(`new Promise((resolve) => {
    const gaps = [];
    let last = performance.now();
    const end = last + ${seconds * 1000};
    const tick = (now) => {
      gaps.push(now - last);
      last = now;
      if (now < end) requestAnimationFrame(tick);
      else resolve(gaps);
    };
    requestAnimationFrame(tick);
  })`);
}

/** Clicks a row near the top and waits for its detail: ms. Rows move as they arrive, so the one clicked is read from the URL. */
async function clickToDetail(page: Page): Promise<number> {
  const started = performance.now();
  await page.locator('#traffic tbody tr').nth(2).click();
  await page.waitForFunction(`(() => {
    const id = decodeURIComponent(location.hash.split('/')[2] ?? '');
    return id !== '' && document.querySelector('[aria-label="request detail"] .muted')?.textContent?.startsWith(id) === true;
  })()`);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const server = await startServer(['bin/pos-sandbox.js', 'serve', '--memory', '--refund-delay-ms', '50'], { env: { LOG_LEVEL: 'warn' } });
  const browser = await launchBrowser('full');
  try {
    // bypassCSP: the page's policy forbids eval, which waitForFunction with a string uses; the bench's own probes only.
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
    const empty: number[] = [];
    for (let i = 0; i < LOADS; i++) empty.push(await loadTime(page, server.url, 0));
    await fill(server.url, 5000);
    const full: number[] = [];
    for (let i = 0; i < LOADS; i++) full.push(await loadTime(page, server.url, 5000));

    await loadTime(page, server.url, 5000);
    const idle = await frameGaps(page, 5);
    const refund = uniqueRefund('flow');
    const load = autocannon({
      url: `${server.url}${refund.path}`,
      connections: 4,
      overallRate: 200,
      duration: 10,
      headers: refundHeaders(),
      requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: refund.body() }) }],
    });
    const busyGaps = frameGaps(page, 8);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const clicks: number[] = [];
    const lags: number[] = [];
    for (let i = 0; i < 5; i++) {
      // Read at the same moment, since autocannon sends each second's calls in a burst.
      const [newest, drawn] = await Promise.all([
        fetch(`${server.url}/_sandbox/journal?limit=1`).then(async (response) => ((await response.json()) as Array<{ time: string }>)[0]!.time),
        page.evaluate<string>(`new Date().toISOString().slice(0, 11) + (document.querySelector('#traffic tbody tr td')?.textContent ?? '') + 'Z'`),
      ]);
      lags.push(Math.max(0, Date.parse(newest) - Date.parse(drawn)));
      clicks.push(await clickToDetail(page));
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
    const busy = await busyGaps;
    const result = await load;

    const stalls = (gaps: number[]) => gaps.filter((gap) => gap > 50).length;
    const lines = [
      `Dashboard bench, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}`,
      '',
      '| measure | baseline (same run) | measured | ratio |',
      '|---|---|---|---|',
      `| page load to Traffic drawn, median of ${LOADS} | ${median(empty).toFixed(0)} ms, empty journal | ${median(full).toFixed(0)} ms, 5,000 entries | ${(median(full) / median(empty)).toFixed(2)}× |`,
      `| frame gap p99 | ${quantile(idle, 0.99).toFixed(1)} ms idle | ${quantile(busy, 0.99).toFixed(1)} ms at ${result.requests.average.toFixed(0)} req/s | ${(quantile(busy, 0.99) / quantile(idle, 0.99)).toFixed(2)}× |`,
      `| frames over 50 ms | ${stalls(idle)} of ${idle.length} idle | ${stalls(busy)} of ${busy.length} under load | |`,
      `| click on a row to its detail drawn, median of 5 | | ${median(clicks).toFixed(0)} ms under load | |`,
      `| newest row drawn trails the newest call journaled, median of 5 samples | | ${median(lags)} ms (samples ${lags.join(', ')}) | |`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await browser.close();
    server.child.kill('SIGKILL');
  }
}

await main();
