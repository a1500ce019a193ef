/**
 * I/O: a stress run against a running sandbox, as `pos-sandbox stress` runs it: the partner's locations and menus
 * read from the sandbox, then the hunt (hunt.ts) or the lunch rush (lunch-rush.ts), every order sent and judged as
 * delivery-verdict.ts says, and each failure saved as a file `orders replay` sends again.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ControlClient } from '../cli/control-client.js';
import type { Location, Menu } from '../fixtures/fixture-schemas.js';
import type { OrderRecord } from '../orders/order-rules.js';
import { deliverCase, type StressCase } from './deliver-case.js';
import { judgeDelivery, type Deadlines, type DeliveredOrder, type Verdict } from './delivery-verdict.js';
import type { Finding, Sending } from './hunt.js';

/** An order sent as any order is: the sandbox's retries, not a shrink. */
const SENT_AS_ANY: Sending = { shrinking: false, oneTry: false };

export const FAILURE_FORMAT = 'pos-sandbox/stress-failure';

/** A saved failure: what `orders replay FILE` sends again, and what a POS team copies into its own tests. */
export interface FailureFile {
  format: typeof FAILURE_FORMAT;
  formatVersion: 1;
  kind: Finding['kind'];
  /** What tells it from another failure of its kind (absent in files of the first runs: the kind alone then). */
  signature?: string;
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

  async run(testCase: StressCase, sending: Sending = SENT_AS_ANY): Promise<Verdict> {
    return (await this.send(testCase, sending)).verdict;
  }

  /** Told of every case sent, with its verdict (a live view). */
  onSent?: (sent: { testCase: StressCase; verdict: Verdict; orderId: string; decidedMs: number; shrinking: boolean }) => void;

  /** Sends and judges one case; what it answers is this case's own, however many run at once (a rush). */
  async send(testCase: StressCase, sending: Sending = SENT_AS_ANY): Promise<{ verdict: Verdict; orderId: string; decidedMs: number; record: OrderRecord }> {
    const delivered = await deliverCase(this.client, testCase, this.statusWindowMs, this.posOrderUrl, sending.oneTry ? 1 : undefined);
    // What the POS said to the first try that did not deliver it tells this failure from another of its kind.
    const refused = delivered.record.Deliveries?.find((attempt) => attempt.problem !== undefined && attempt.httpStatus !== undefined);
    if (refused !== undefined) {
      const entry = await this.client.call<{ response?: { body?: unknown } }>('GET', `/_sandbox/journal/${encodeURIComponent(refused.journalId)}`);
      delivered.answers = { [refused.journalId]: entry.response?.body };
    }
    const sent = { verdict: this.judge(delivered), orderId: delivered.record.OrderId, decidedMs: delivered.decidedMs, record: delivered.record };
    this.onSent?.({ testCase, verdict: sent.verdict, orderId: sent.orderId, decidedMs: sent.decidedMs, shrinking: sending.shrinking });
    return sent;
  }

  judge(delivered: DeliveredOrder): Verdict {
    const verdict = judgeDelivery(delivered, this.seen, this.deadlines);
    for (const attempt of delivered.record.Deliveries ?? []) if (attempt.externalId !== undefined && !this.seen.has(attempt.externalId)) this.seen.set(attempt.externalId, delivered.record.OrderId);
    return verdict;
  }
}

/** Writes each finding's smallest order as <folder>/failures/<kind>.json (the second of a kind <kind>-2.json …); answers the files. */
export async function saveFailures(folder: string, seed: number, findings: readonly Finding[]): Promise<string[]> {
  if (findings.length === 0) return [];
  await mkdir(join(folder, 'failures'), { recursive: true });
  const files: string[] = [];
  const ofKind = new Map<string, number>();
  for (const finding of findings) {
    const nth = (ofKind.get(finding.kind) ?? 0) + 1;
    ofKind.set(finding.kind, nth);
    const file = join(folder, 'failures', `${finding.kind}${nth === 1 ? '' : `-${nth}`}.json`);
    const saved: FailureFile = { format: FAILURE_FORMAT, formatVersion: 1, kind: finding.kind, signature: finding.signature, message: finding.message, seed, order: finding.minimal.order, duplicate: finding.minimal.duplicate };
    await writeFile(file, `${JSON.stringify(saved, null, 2)}\n`, 'utf8');
    files.push(file);
  }
  return files;
}
