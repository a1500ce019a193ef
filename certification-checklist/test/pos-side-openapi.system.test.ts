/**
 * openapi/pos-side.json, the document of what the POS serves, held to the truth: a whole checklist run against the
 * reference POS, and every order delivery the sandbox sent (body, headers) and every reply the POS gave, every call
 * the checklist made to the driver and every answer it got, judged against it. The file is what the generator writes.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from '@jest/globals';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import type AjvFormats from 'ajv-formats';
import { POS_SIDE_FILE, renderPosSide } from '../../scripts/generate-openapi.js';
import { closeServers } from '../../server/test/live.js';
import { contractCheck } from '../../server/test/contract/response-contract.js';
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import { isDelivery } from '../traffic.js';
import { runAgainst, sandboxAndPos } from './checklist-live.js';

afterAll(closeServers);

const load = createRequire(import.meta.url);
const document = JSON.parse(readFileSync(POS_SIDE_FILE, 'utf8')) as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: object }> } }>>; webhooks: object; components: object };
const ajv = new (load('ajv/dist/2020.js') as typeof Ajv2020Module).Ajv2020({ strict: false, allErrors: true });
(load('ajv-formats') as typeof AjvFormats).default(ajv);
ajv.addSchema({ paths: document.paths, webhooks: document.webhooks, components: document.components }, 'pos', undefined, false);
const webhook = '/webhooks/orderDelivery/post';

/** The violations of `value` against the schema at `pointer` of the document, as sentences. */
function violations(pointer: string, value: unknown, what: string): string[] {
  const validate = ajv.getSchema(`pos#${pointer}`)!;
  return validate(value) ? [] : (validate.errors ?? []).slice(0, 3).map((error) => `${what}: ${error.instancePath || 'body'} ${error.message ?? 'is invalid'}`);
}

interface DriverExchange {
  method: string;
  path: string;
  body: unknown;
  status: number;
  headers: Record<string, string>;
  text: string;
}

describe('openapi/pos-side.json', () => {
  it('is written exactly as the generator writes it (npm run generate:openapi)', () => {
    expect(readFileSync(POS_SIDE_FILE, 'utf8') === renderPosSide()).toBe(true);
  });

  it('describes every delivery and reply, and every driver call and answer, of a whole checklist run against the reference POS', async () => {
    const pair = await sandboxAndPos();
    const driver: DriverExchange[] = [];
    const seeing = async (input: string | URL, init?: RequestInit) => {
      const response = await fetch(input, init);
      const text = await response.clone().text();
      const url = new URL(String(input));
      driver.push({ method: init?.method ?? 'GET', path: url.pathname, body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined, status: response.status, headers: Object.fromEntries(response.headers), text });
      return response;
    };
    const run = await runAgainst(pair, { fetch: seeing });
    expect(run.results.filter((result) => result.status !== 'pass').map((result) => result.item.id)).toEqual([]);

    // Every try of every order the sandbox sent: the order it carried, its headers, and the POS's reply by its status.
    const seen = new Map<string, JournalEntry>();
    for (const step of run.steps) for (const entry of step.entries) if (isDelivery(entry)) seen.set(entry.id, entry);
    const deliveries = [...seen.values()];
    const problems: string[] = [];
    for (const entry of deliveries) {
      const at = `${entry.id} (order ${entry.orderId ?? '?'})`;
      problems.push(...violations(`${webhook}/requestBody/content/application~1json/schema`, entry.request.body, `${at} request`));
      for (const name of ['authorization', 'x-service-locationid', 'x-request-id']) if (!entry.request.headers[name]) problems.push(`${at}: no ${name} header`);
      if (!/^\d+ of \d+$/.test(entry.request.headers['x-sandbox-attempt'] ?? '')) problems.push(`${at}: x-sandbox-attempt is ${entry.request.headers['x-sandbox-attempt']}`);
      const status = entry.response.status;
      // status 0: no answer (a reply a fault withheld) has no body to judge.
      if (status === 0) continue;
      const key = status >= 200 && status < 300 ? '200' : status === 401 ? '401' : 'default';
      problems.push(...violations(`${webhook}/responses/${key}/content/application~1json/schema`, entry.response.body, `${at} reply ${status}`));
    }
    // Every call the checklist made to the driver: its body, and the answer by the document's own response check.
    const check = contractCheck(document as never);
    // The start check's GET of the order URL only asks whether it accepts a connection: not a call of the contract.
    const contract = driver.filter((one) => !(one.method === 'GET' && one.path === '/order'));
    for (const call of contract) {
      const operation = document.paths[call.path]?.[call.method.toLowerCase()];
      if (!operation) {
        problems.push(`${call.method} ${call.path}: not in the document`);
        continue;
      }
      if (operation.requestBody) problems.push(...violations(`/paths/${call.path.replace(/\//g, '~1')}/${call.method.toLowerCase()}/requestBody/content/application~1json/schema`, call.body, `${call.method} ${call.path} request`));
      problems.push(...check({ method: call.method, path: call.path, status: call.status, headers: call.headers, text: call.text }));
    }
    expect(problems).toEqual([]);
    // Something of each kind was judged: accepted and refused deliveries, and each driver call.
    expect({
      accepted: deliveries.some((entry) => entry.response.status === 200),
      refused401: deliveries.some((entry) => entry.response.status === 401),
      driverCalls: [...new Set(contract.map((call) => `${call.method} ${call.path}`))].sort(),
    }).toEqual({ accepted: true, refused401: true, driverCalls: ['GET /health', 'POST /decide', 'POST /menu', 'POST /refund'] });
  }, 60_000);
});
