/** A checklist run of the control API in a worker thread of its own (dist/ holds it as an entry), so a run's digests and reports never hold the sandbox's event loop. */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ItemStatus } from '../../certification-checklist/checklist-types.js';
import type { RunOutcome } from '../../certification-checklist/run-outcome.js';
import type { ItemResult, RunOptions } from '../../certification-checklist/run-options.js';
import type { PartnerIdentity } from '../config.js';
import type { ReportSigner } from '../../certification-checklist/report/signing-keys.js';
import type { ChecklistRunRequest } from './checklist-run-request.js';
import { egressFetch, grantOrigin, OPEN_EGRESS, partnerEgress } from '../hosted/egress.js';
import type { Fixtures } from '../fixtures/load-fixtures.js';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';


/** One run whole: the reference POS started when asked, the checklist calling the sandbox back over HTTP, the report written; what it tells the sandbox are structured-clonable messages. */

/** What a run needs, all of it plain data: it crosses to the worker as its workerData. */
export interface ChecklistJob {
  request: ChecklistRunRequest;
  sandboxUrl: string;
  adminToken: string | undefined;
  reportDir: string;
  /** Its private key crosses as a KeyObject (structured-clonable); nothing prints or stores it. */
  signer: ReportSigner;
  partner: PartnerIdentity;
  menus: Fixtures['menus'];
  locations: Fixtures['locations'];
  /** The partner's egress policy, in the partners file's words; undefined on a laptop (open). */
  egress: { partner: string; allow: readonly string[]; allowNetworks: readonly string[] } | undefined;
  /** The reference POS's ExternalIds: its own, since one started by hand may have numbered orders of the same locations. */
  externalIdPrefix: string;
}

export type JobMessage =
  /** The reference POS listens here: the sandbox opens its origin to the run's orders until the run ends. */
  | { type: 'driver'; url: string }
  | { type: 'item'; id: string; status: ItemStatus; message: string }
  | { type: 'done'; items: Array<{ id: string; status: ItemStatus; message: string }>; outcome: Pick<RunOutcome, 'verdict' | 'counts' | 'reason'>; reportId: string }
  | { type: 'failed'; error: string };

export async function runChecklistJob(job: ChecklistJob, tell: (message: JobMessage) => void): Promise<void> {
  const servers: Server[] = [];
  const egress = job.egress === undefined ? OPEN_EGRESS : partnerEgress(job.egress.partner, job.egress.allow, job.egress.allowNetworks);
  try {
    const [{ runChecklist }, { buildReport }, { writeReport }, { judgedItems, runOutcome }] = await Promise.all([
      import('../../certification-checklist/runner.js'),
      import('../../certification-checklist/report/report-model.js'),
      import('../../certification-checklist/report/write-report.js'),
      import('../../certification-checklist/run-outcome.js'),
    ]);
    const { request } = job;
    let driverUrl: string;
    let posOrderUrl: string | undefined;
    if ('referencePos' in request.driver) {
      driverUrl = await startReferencePos(job, request.driver.bugs, servers);
      posOrderUrl = `${driverUrl}/order`;
      // The sandbox's own reference POS, on loopback: callable for this run, whatever the partner's policy.
      grantOrigin(egress, driverUrl);
      tell({ type: 'driver', url: driverUrl });
    } else {
      driverUrl = request.driver.url;
      posOrderUrl = request.driver.posOrderUrl;
    }
    const options: RunOptions = {
      sandboxUrl: job.sandboxUrl,
      ...(posOrderUrl === undefined ? {} : { posOrderUrl }),
      mode: 'driver',
      driverUrl,
      capabilities: request.capabilities,
      ...(request.only === undefined ? {} : { only: request.only }),
      ...(request.windowMs === undefined ? {} : { windowMs: request.windowMs }),
      pos: { ...request.pos, ...('referencePos' in request.driver ? { referencePos: true } : {}) },
      ...(job.adminToken === undefined ? {} : { adminToken: job.adminToken }),
      out: { write: () => true },
      fetch: egressFetch(egress, 'the POS driver'),
      onItem: (result: ItemResult) => tell({ type: 'item', id: result.item.id, status: result.status, message: result.message }),
    };
    const result = await runChecklist(options);
    const outcome = runOutcome(judgedItems(result.results));
    const folder = await writeReport(job.reportDir, buildReport(result, outcome, job.signer), job.signer);
    tell({
      type: 'done',
      items: result.results.map((judged) => ({ id: judged.item.id, status: judged.status, message: judged.message })),
      outcome: { verdict: outcome.verdict, counts: outcome.counts, reason: outcome.reason },
      reportId: folder.split(/[\\/]/).at(-1)!,
    });
  } catch (error) {
    tell({ type: 'failed', error: (error as Error).message });
  } finally {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  }
}

async function startReferencePos(job: ChecklistJob, bugs: string[], servers: Server[]): Promise<string> {
  const [{ createReferencePos }, { createSandboxServer }] = await Promise.all([import('../../reference-pos/app.js'), import('../http/http-parser-errors.js')]);
  const pos = createReferencePos({
    identity: { posName: job.partner.name, key: job.partner.nonProdKey, apiKey: job.partner.apiKey },
    sandboxUrl: job.sandboxUrl,
    menus: job.menus,
    locations: job.locations,
    bugs: new Set(bugs) as Parameters<typeof createReferencePos>[0]['bugs'],
    externalIdPrefix: job.externalIdPrefix,
  });
  const server = createSandboxServer(pos);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A run's thread yields the CPU to the event loop that answers every partner (docs/hosting.md); on Linux setpriority on the thread's own task id sets its nice value alone. */

/** How much lower than the process a run's thread runs: nice 10, as `nice` gives a command by default. */
export const RUN_THREAD_NICE = 10;

/** Lowers the calling thread's priority (Linux); whether it could. */
export function lowerThisThreadsPriority(nice = RUN_THREAD_NICE): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}

// At a lower priority: the sandbox's event loop answers every partner, and a run takes the CPU only when it waits.
if (!isMainThread) {
  lowerThisThreadsPriority();
  await runChecklistJob(workerData as ChecklistJob, (message) => parentPort!.postMessage(message));
  process.exit(0);
}
