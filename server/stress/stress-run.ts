/**
 * I/O: a stress run against a running sandbox, as `pos-sandbox stress` runs it: the partner's locations and menus
 * read from the sandbox, then the hunt (hunt.ts) or the lunch rush (lunch-rush.ts), every order sent and judged as
 * delivery-verdict.ts says, and each failure saved as a file `orders replay` sends again.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ControlClient } from '../cli/control-client.js';
import type { Location, Menu } from '../fixtures/fixture-schemas.js';
import type { OrderRecord } from '../domain/order-record.js';
import { deliverCase, type StressCase } from './deliver-case.js';
import { judgeDelivery, type Deadlines, type DeliveredOrder, type Verdict } from './delivery-verdict.js';
import type { Finding } from './hunt.js';

export const FAILURE_FORMAT = 'pos-sandbox/stress-failure';

/** A saved failure: what `orders replay FILE` sends again, and what a POS team copies into its own tests. */
export interface FailureFile {
  format: typeof FAILURE_FORMAT;
  formatVersion: 1;
  kind: Finding['kind'];
  message: string;
  seed: number;
  /** The smallest order found that fails this way (without OrderId, RequestId and CreatedAt, which each delivery sets). */
  order: StressCase['order'];
  /** Whether it fails when delivered twice (an outbound duplicate). */
  duplicate: boolean;
}

export interface Target {
  client: ControlClient;
  locations: Location[];
  menus: Record<string, Menu>;
}

/** The partner's locations and their menus, as the sandbox holds them now. */
export async function readTarget(client: ControlClient): Promise<Target> {
  const locations = await client.call<Location[]>('GET', '/_sandbox/locations');
  const menus: Record<string, Menu> = {};
  for (const location of locations) menus[location.id] = await client.call<Menu>('GET', `/_sandbox/locations/${encodeURIComponent(location.id)}/menu`);
  return { client, locations: locations.map(({ id, kind, name, currency, timezone, hub }) => ({ id, kind, name, currency, timezone, ...(hub ? { hub } : {}) }) as Location), menus };
}

/** Sends cases and judges them against the ExternalIds the run has seen so far. */
export class CaseRunner {
  /** Every ExternalId the POS gave an order of this run, with the order. */
  readonly seen = new Map<string, string>();

  constructor(
    private readonly client: ControlClient,
    private readonly statusWindowMs: number,
    private readonly deadlines: Deadlines,
    private readonly posOrderUrl?: string,
  ) {}

  async run(testCase: StressCase): Promise<Verdict> {
    return (await this.send(testCase)).verdict;
  }

  /** Sends and judges one case; what it answers is this case's own, however many run at once (a rush). */
  async send(testCase: StressCase): Promise<{ verdict: Verdict; orderId: string; decidedMs: number; record: OrderRecord }> {
    const delivered = await deliverCase(this.client, testCase, this.statusWindowMs, this.posOrderUrl);
    return { verdict: this.judge(delivered), orderId: delivered.record.OrderId, decidedMs: delivered.decidedMs, record: delivered.record };
  }

  judge(delivered: DeliveredOrder): Verdict {
    const verdict = judgeDelivery(delivered, this.seen, this.deadlines);
    for (const attempt of delivered.record.Deliveries ?? []) if (attempt.externalId !== undefined && !this.seen.has(attempt.externalId)) this.seen.set(attempt.externalId, delivered.record.OrderId);
    return verdict;
  }
}

/** Writes each finding's smallest order as <folder>/failures/<kind>.json; answers the files. */
export async function saveFailures(folder: string, seed: number, findings: readonly Finding[]): Promise<string[]> {
  if (findings.length === 0) return [];
  await mkdir(join(folder, 'failures'), { recursive: true });
  const files: string[] = [];
  for (const finding of findings) {
    const file = join(folder, 'failures', `${finding.kind}.json`);
    const saved: FailureFile = { format: FAILURE_FORMAT, formatVersion: 1, kind: finding.kind, message: finding.message, seed, order: finding.minimal.order, duplicate: finding.minimal.duplicate };
    await writeFile(file, `${JSON.stringify(saved, null, 2)}\n`, 'utf8');
    files.push(file);
  }
  return files;
}
