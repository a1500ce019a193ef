/** Checklist runs started from the control API: one at a time, each in a worker thread, in driver mode against this sandbox, each verdict emitted as it comes and the report written as `pos-sandbox checklist` writes it. */
import type { ReportKeys } from '../../certification-checklist/report/signing-keys.js';
import { EventEmitter, once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ItemStatus } from '../../certification-checklist/checklist-types.js';
import type { RunOutcome } from '../../certification-checklist/run-outcome.js';
import { PACKAGE_ROOT } from '../version.js';
import type { ChecklistJob, JobMessage } from './checklist-worker.js';
import type { ChecklistRunRequest } from './checklist-run-request.js';
import type { PartnerIdentity } from '../config.js';
import type { Fixtures } from '../fixtures/load-fixtures.js';
import { grantOrigin, OPEN_EGRESS, type EgressPolicy } from '../hosted/egress.js';
import type { OrderRecord } from '../orders/order-rules.js';
import { keptRuns, tagOfOrder, tagOfReport, ReportFolders, reportHtmlPath, type ReportListing } from './report-folders.js';
import type { QuotaBook } from '../hosted/quotas.js';

export type { ReportListing } from './report-folders.js';

export interface ChecklistRunItem {
  id: string;
  title: string;
  section: string;
  required: boolean;
  status: 'pending' | ItemStatus;
  message?: string;
}

export interface ChecklistRun {
  id: string;
  status: 'running' | 'finished' | 'failed';
  startedAt: string;
  finishedAt?: string;
  driver: { url?: string; referencePos: boolean; bugs?: string[] };
  capabilities: string[];
  items: ChecklistRunItem[];
  outcome?: Pick<RunOutcome, 'verdict' | 'counts' | 'reason'>;
  /** The report folder's name under the report directory, and where the dashboard opens it. */
  report?: { id: string; html: string };
  /** Why the run could not start or stopped (the sandbox's address unknown, the driver unreachable …). */
  error?: string;
}


export interface ChecklistRunsOptions {
  reportDir: string;
  /** What the runs' reports are signed with. */
  reportKeys: ReportKeys;
  fixtures: Fixtures;
  partner: PartnerIdentity;
  adminToken: string | undefined;
  clock: () => number;
  /** Which addresses a run may call for the partner (hosted/egress.ts); open on a laptop. */
  egress?: EgressPolicy;
  /** The partner's quotas: runs an hour, and how many runs' reports and orders are kept. */
  quota?: QuotaBook;
  /** The sandbox's orders: those of runs past their retention are forgotten. */
  orders?: { all(): OrderRecord[]; forget(orderIds: readonly string[]): Promise<string[]> };
}

const HOUR_MS = 60 * 60 * 1000;

/** The checklist's worker, as the build writes it (the sources run it from there too: a worker starts from JavaScript). */
const CHECKLIST_WORKER = join(PACKAGE_ROOT, 'dist', 'server', 'checklist', 'checklist-worker.js');

/** A run cannot start now: another is running, or the sandbox does not listen yet. The message says which. */
export class ChecklistRunRefused extends Error {}

export class ChecklistRuns extends EventEmitter<{ changed: [ChecklistRun] }> {
  private readonly runs: ChecklistRun[] = [];
  private readonly folders: ReportFolders;
  /** When each run of the last hour started (checklistRunsPerHour). */
  private readonly startTimes: number[] = [];
  private sequence = 0;
  /** Where this sandbox listens: known once it does (serve, demo); a run needs it, since the checklist calls the sandbox over HTTP. */
  sandboxUrl: string | undefined;

  constructor(readonly options: ChecklistRunsOptions) {
    super();
    this.folders = new ReportFolders(options.reportDir);
  }

  list(): ChecklistRun[] {
    return [...this.runs].reverse();
  }

  get(id: string): ChecklistRun | undefined {
    return this.runs.find((run) => run.id === id);
  }

  /** Answers the run once its items are listed, or ChecklistRunRefused while another runs; the checklist's code is loaded only then. */
  async start(request: ChecklistRunRequest): Promise<ChecklistRun> {
    const running = this.runs.find((run) => run.status === 'running');
    if (running) {
      throw new ChecklistRunRefused(
        `checklist run '${running.id}' is still running, and a run changes the sandbox's state (orders, faults): wait for it to finish (GET /_sandbox/checklist/runs/${running.id})`,
      );
    }
    if (this.sandboxUrl === undefined) {
      throw new ChecklistRunRefused('this sandbox does not know its own address yet (it is not listening), and the checklist calls it over HTTP; start it with pos-sandbox serve');
    }
    this.takeRunQuota();
    const run: ChecklistRun = {
      id: `run-${++this.sequence}`,
      status: 'running',
      startedAt: new Date(this.options.clock()).toISOString(),
      driver: 'referencePos' in request.driver ? { referencePos: true, bugs: request.driver.bugs } : { url: request.driver.url, referencePos: false },
      capabilities: request.capabilities,
      items: [],
    };
    // In the list before the first await: a second start made meanwhile finds it running.
    this.runs.push(run);
    if (this.runs.length > 50) this.runs.shift();
    const { CHECKLIST } = await import('../../certification-checklist/items/all-items.js');
    run.items = CHECKLIST.filter((item) => request.only === undefined || request.only.includes(item.id)).map((item) => ({
      id: item.id,
      title: item.title,
      section: item.section,
      required: item.required,
      status: 'pending',
    }));
    this.changed(run);
    void this.execute(run, request);
    return run;
  }

  /** Counts the run against checklistRunsPerHour, or throws its 429, with the seconds until one of the hour's runs is an hour old. */
  private takeRunQuota(): void {
    const quota = this.options.quota;
    const limit = quota?.quotas.checklistRunsPerHour ?? null;
    if (quota === undefined || limit === null) return;
    const now = this.options.clock();
    while (this.startTimes.length > 0 && this.startTimes[0]! <= now - HOUR_MS) this.startTimes.shift();
    if (this.startTimes.length >= limit) {
      const waitS = Math.max(1, Math.ceil((this.startTimes[0]! + HOUR_MS - now) / 1000));
      throw quota.refuseChecklistRun(`partner '${quota.partner}' started ${this.startTimes.length} checklist runs in the last hour, the most it may (checklistRunsPerHour: ${limit}); the next may start in ${waitS} s`, waitS);
    }
    this.startTimes.push(now);
  }

  private changed(run: ChecklistRun): void {
    this.emit('changed', structuredClone(run));
  }

  /** Runs the checklist in a worker thread (checklist-worker.ts) and follows it; resolves once it ended, however. */
  private async execute(run: ChecklistRun, request: ChecklistRunRequest): Promise<void> {
    const egress = this.options.egress ?? OPEN_EGRESS;
    const { partner, fixtures } = this.options;
    const job: ChecklistJob = {
      request,
      sandboxUrl: this.sandboxUrl!,
      adminToken: this.options.adminToken,
      reportDir: this.options.reportDir,
      signer: this.options.reportKeys.signer,
      partner,
      menus: fixtures.menus,
      locations: fixtures.locations,
      egress: egress.kind === 'open' ? undefined : { partner: egress.partner, ...egress.source },
      externalIdPrefix: `REF-${this.options.clock().toString(36).slice(-5).toUpperCase()}-`,
    };
    let revoke: () => void = () => undefined;
    const update = (id: string, status: ChecklistRunItem['status'], message: string) => {
      const item = run.items.find((candidate) => candidate.id === id);
      if (item) Object.assign(item, { status, message });
    };
    try {
      if (!existsSync(CHECKLIST_WORKER)) throw new Error(`the checklist's worker is not built (${CHECKLIST_WORKER}): run npm run build`);
      // A run's memory is bounded apart from the sandbox's: a partner's run can fail, never take the process down.
      const worker = new Worker(CHECKLIST_WORKER, { workerData: job, resourceLimits: { maxOldGenerationSizeMb: 512 } });
      let ended = false;
      worker.on('message', (message: JobMessage) => {
        if (message.type === 'driver') {
          run.driver.url = message.url;
          // Its orders go there, from the sandbox: the origin is open to them until the run ends.
          revoke = grantOrigin(egress, message.url);
        } else if (message.type === 'item') {
          update(message.id, message.status, message.message);
        } else if (message.type === 'done') {
          ended = true;
          for (const item of message.items) update(item.id, item.status, item.message);
          // finishedAt with the status that ends the run, so no reader sees a finished run without it.
          Object.assign(run, { status: 'finished', outcome: message.outcome, report: { id: message.reportId, html: reportHtmlPath(message.reportId) }, finishedAt: new Date(this.options.clock()).toISOString() });
        } else {
          ended = true;
          Object.assign(run, { status: 'failed', error: message.error, finishedAt: new Date(this.options.clock()).toISOString() });
        }
        this.changed(run);
      });
      const [code] = (await Promise.race([once(worker, 'exit'), once(worker, 'error').then(([error]) => Promise.reject(error as Error))])) as [number];
      if (!ended) Object.assign(run, { status: 'failed', error: `the run's worker stopped (exit code ${code}) before the run ended` });
      if (run.status === 'finished') await this.keepNewestRuns();
    } catch (error) {
      Object.assign(run, { status: 'failed', error: (error as Error).message });
    } finally {
      run.finishedAt ??= new Date(this.options.clock()).toISOString();
      revoke();
      this.changed(run);
    }
  }

  /** The report folders of the report directory, newest first: what `pos-sandbox checklist` and these runs wrote. */
  /** Whether a run is under way. */
  get running(): boolean {
    return this.runs.some((run) => run.status === 'running');
  }

  reports(): Promise<ReportListing[]> {
    return this.folders.list();
  }

  /** A file of a report folder (report.html, manifest.json, signature.jws …), or undefined when there is none. */
  reportFile(id: string, name: string): Promise<string | undefined> {
    return this.folders.file(id, name);
  }

  /** Only the newest runs are kept (reportsKept, reportMaxAgeDays): the others' report folders go, with the orders they made; after each run and at start. */
  async keepNewestRuns(): Promise<void> {
    const quotas = this.options.quota?.quotas;
    if (quotas === undefined || (quotas.reportsKept === null && quotas.reportMaxAgeDays === null)) return;
    const reports = await this.folders.list();
    const orders = (this.options.orders?.all() ?? []).flatMap((order) => {
      const tag = tagOfOrder(order.OrderId);
      return tag === undefined ? [] : [{ tag, id: order.OrderId, at: Date.parse(order.CreatedAt) }];
    });
    const found = [
      ...reports.flatMap((report) => {
        const tag = tagOfReport(report.id);
        return tag === undefined ? [] : [{ tag, at: Date.parse(report.startedAt) }];
      }),
      ...orders,
    ];
    // A run under way (one from the CLI, say) is among the newest: its orders stay.
    const kept = keptRuns(found, quotas, this.options.clock());
    const dropped = reports.filter((report) => tagOfReport(report.id) !== undefined && !kept.has(tagOfReport(report.id)!));
    for (const report of dropped) await this.folders.remove(report.id);
    await this.options.orders?.forget(orders.filter((order) => !kept.has(order.tag)).map((order) => order.id));
  }
}

