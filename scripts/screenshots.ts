/** `npm run screenshots`: the dashboard's pages from a real run into docs/screenshots/ (needs Chromium). */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../server/test/browser.js';
import { PARTNER, signHs256 } from '../server/test/helpers.js';
import { closedPort } from '../server/test/loopback.js';
import { referencePos, serve, stopServers } from '../server/test/processes.js';
import { PACKAGE_ROOT } from '../server/version.js';

const OUT = join(PACKAGE_ROOT, 'docs', 'screenshots');

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const reportDir = join(PACKAGE_ROOT, '.sandbox', 'screenshot-reports');
  const port = await closedPort();
  const pos = await referencePos(['--sandbox', `http://127.0.0.1:${port}`]);
  const { baseUrl } = await serve(['--port', String(port), '--pos-order-url', `${pos.url}/order`, '--refund-delay-ms', '200', '--retry-delays-ms', '100', '--report-dir', reportDir]);
  const browser = await launchBrowser('full');
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
    const shot = async (name: string) => {
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(OUT, `${name}.png`) });
      process.stdout.write(`  docs/screenshots/${name}.png\n`);
    };
    const go = async (hash: string) => {
      await page.goto(`${baseUrl}/${hash}`);
      await page.locator('#stream-state', { hasText: 'live' }).waitFor();
    };

    // The checklist first: its traffic fills the other pages, as after a demo.
    await go('#/checklist');
    await page.locator('#checklist-window').fill('300');
    await page.locator('#start-checklist').click();
    await page.locator('#checklist-outcome').waitFor({ timeout: 60_000 });
    await shot('checklist');

    await traffic(baseUrl);
    await go('#/traffic');
    await page.locator('#traffic tbody tr', { hasText: '/v2/order/refund' }).first().click();
    await page.getByLabel('request detail').locator('#token-checks').waitFor();
    await shot('traffic');

    await go('#/orders');
    await page.locator('#order-template').selectOption('hub');
    await page.locator('#create-order').click();
    await page.locator('#orders tr.expanded li', { hasText: 'ACCEPTED' }).waitFor({ timeout: 10_000 });
    await shot('orders');

    await go('#/refunds');
    await page.locator('#refunds tbody tr').first().waitFor();
    await shot('refunds');

    await go('#/menus');
    await page.locator('.diff').first().waitFor();
    await shot('menus');

    await go('#/faults');
    await page.locator('#fault-input').fill(JSON.stringify({ id: 'refund-503', description: 'The next 3 refunds answer 503', match: { path: '/order/refund' }, action: { kind: 'status', status: 503 }, times: 3 }));
    await page.locator('#add-fault').click();
    await page.locator('#faults tr[data-id=refund-503]').waitFor();
    await refund(baseUrl, 'POS-STD-1002', {});
    await page.locator('#faults tr[data-id=refund-503] td.fired', { hasText: '1' }).waitFor();
    await shot('faults');

    await go('#/tokens');
    const now = Math.floor(Date.now() / 1000);
    await page.locator('#token-input').fill(signHs256({ alg: 'HS256', typ: 'JWT' }, { sub: 'loc-std-001', jti: 'j-1', nbf: now - 7200, exp: now - 3600, iss: PARTNER.name, aud: PARTNER.name }, 'a-production-key'));
    await page.locator('#check-token').click();
    await page.locator('#token-rules').waitFor();
    await shot('tokens');

    // A POS half-way through §9's migration: v1's location header, then v1's UpdateOrderState.
    await refund(baseUrl, 'POS-STD-1003', {}, { companyprofileid: 'loc-std-001', 'x-service-locationid': '' });
    await fetch(`${baseUrl}/v2/order/UpdateOrderState`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ExternalId":"POS-STD-1003","State":"Accepted"}' });
    await go('#/migration');
    await page.locator('#migration tr[data-step="4"][data-state="in progress"]').waitFor();
    await shot('migration');
  } finally {
    await browser.close();
    stopServers();
  }
}

async function refund(baseUrl: string, externalId: string, extra: Record<string, unknown>, headers: Record<string, string> = {}): Promise<void> {
  const minted = (await (await fetch(`${baseUrl}/_sandbox/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"locationId":"loc-std-001"}' })).json()) as { token: string };
  await fetch(`${baseUrl}/v2/order/refund`, {
    method: 'POST',
    headers: { authorization: `Bearer ${minted.token}`, 'x-service-locationid': 'loc-std-001', 'x-api-version': '2', 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ ExternalId: externalId, ...extra }),
  });
}

/** What a POS under development sends: a refund with an unknown field, one for an order that does not exist, a menu update. */
async function traffic(baseUrl: string): Promise<void> {
  await refund(baseUrl, 'POS-STD-1001', { Amount: 1290 });
  await refund(baseUrl, 'POS-STD-9999', {});
  const minted = (await (await fetch(`${baseUrl}/_sandbox/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"locationId":"loc-std-001"}' })).json()) as { token: string };
  await fetch(`${baseUrl}/v2/menu`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${minted.token}`, 'x-service-locationid': 'loc-std-001', 'x-api-version': '2', 'content-type': 'application/json' },
    body: JSON.stringify({ LocationId: 'loc-std-001', Items: [{ Id: 'itm-carbonara', Name: 'Spaghetti alla Carbonara', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1450 }] }] }),
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
}

await main();
