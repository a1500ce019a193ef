/**
 * Checklist runs started from the control API (the dashboard's Checklist page): one at a time, in this process,
 * against this sandbox's own address, in driver mode, with the bundled reference POS started for the run when asked.
 * Each item's verdict is emitted as it comes; at the end the report is written to the report folder, as
 * `pos-sandbox checklist` writes it, and the run says where.
 */
import { EventEmitter, once } from 'node:events';
import { readdir, readFile, stat } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ItemStatus } from '../../certification-checklist/checklist-types.js';
import type { RunOutcome } from '../../certification-checklist/run-outcome.js';
import type { ItemResult, RunOptions } from '../../certification-checklist/runner.js';
import type { ChecklistRunRequest } from '../domain/checklist-run-request.js';
import type { PartnerIdentity } from '../config.js';
import type { Fixtures } from '../fixtures/load-fixtures.js';

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

/** An earlier report found in the report directory. */
export interface ReportListing {
  id: string;
  title: string;
  startedAt: string;
  verdict: string;
  pos: string;
  html: string;
}

export interface ChecklistRunsOptions {
  reportDir: string;
  fixtures: Fixtures;
  partner: PartnerIdentity;
  adminToken: string | undefined;
  clock: () => number;
}

/** Report folder names the control API takes: what runChecklist makes (a time and a tag), nothing with a slash. */
export const REPORT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A run cannot start now: another is running, or the sandbox does not listen yet. The message says which. */
export class ChecklistRunRefused extends Error {}

export class ChecklistRuns extends EventEmitter<{ changed: [ChecklistRun] }> {
  private readonly runs: ChecklistRun[] = [];
  /**
   * What each report.json said, by folder, with the file's time: a report.json holds the run's whole evidence
   * (megabytes), and the Checklist page lists the reports again while a run goes on.
   */
  private readonly listings = new Map<string, { mtimeMs: number; listing: ReportListing | undefined }>();
  private sequence = 0;
  /** Where this sandbox listens: known once it does (serve, demo); a run needs it, since the checklist calls the sandbox over HTTP. */
  sandboxUrl: string | undefined;

  constructor(readonly options: ChecklistRunsOptions) {
    super();
  }

  list(): ChecklistRun[] {
    return [...this.runs].reverse();
  }

  get(id: string): ChecklistRun | undefined {
    return this.runs.find((run) => run.id === id);
  }

  /**
   * Starts a run and answers it (running) once its items are listed; refuses (ChecklistRunRefused) while another
   * runs. The checklist's code is loaded then, not when the sandbox starts: a start that runs no checklist does
   * not pay for it.
   */
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

  private changed(run: ChecklistRun): void {
    this.emit('changed', structuredClone(run));
  }

  private async execute(run: ChecklistRun, request: ChecklistRunRequest): Promise<void> {
    const servers: Server[] = [];
    try {
      const [{ runChecklist }, { buildReport }, { writeReport }, { judgedItems, runOutcome }] = await Promise.all([
        import('../../certification-checklist/runner.js'),
        import('../../certification-checklist/report/report-model.js'),
        import('../../certification-checklist/report/write-report.js'),
        import('../../certification-checklist/run-outcome.js'),
      ]);
      let driverUrl: string;
      let posOrderUrl: string | undefined;
      if ('referencePos' in request.driver) {
        driverUrl = await this.startReferencePos(request.driver.bugs, servers);
        posOrderUrl = `${driverUrl}/order`;
        run.driver.url = driverUrl;
      } else {
        driverUrl = request.driver.url;
        posOrderUrl = request.driver.posOrderUrl;
      }
      const options: RunOptions = {
        sandboxUrl: this.sandboxUrl!,
        ...(posOrderUrl === undefined ? {} : { posOrderUrl }),
        mode: 'driver',
        driverUrl,
        capabilities: request.capabilities,
        ...(request.only === undefined ? {} : { only: request.only }),
        ...(request.windowMs === undefined ? {} : { windowMs: request.windowMs }),
        pos: { ...request.pos, ...('referencePos' in request.driver ? { referencePos: true } : {}) },
        ...(this.options.adminToken === undefined ? {} : { adminToken: this.options.adminToken }),
        out: { write: () => true },
        onItem: (result: ItemResult) => {
          const item = run.items.find((candidate) => candidate.id === result.item.id);
          if (item) Object.assign(item, { status: result.status, message: result.message });
          this.changed(run);
        },
      };
      const result = await runChecklist(options);
      const outcome = runOutcome(judgedItems(result.results));
      for (const judged of result.results) {
        const item = run.items.find((candidate) => candidate.id === judged.item.id);
        if (item) Object.assign(item, { status: judged.status, message: judged.message });
      }
      const folder = await writeReport(this.options.reportDir, buildReport(result, outcome));
      const id = folder.split(/[\\/]/).at(-1)!;
      Object.assign(run, { status: 'finished', outcome: { verdict: outcome.verdict, counts: outcome.counts, reason: outcome.reason }, report: { id, html: reportHtmlPath(id) } });
    } catch (error) {
      Object.assign(run, { status: 'failed', error: (error as Error).message });
    } finally {
      run.finishedAt = new Date(this.options.clock()).toISOString();
      for (const server of servers) {
        server.closeAllConnections();
        server.close();
      }
      this.changed(run);
    }
  }

  private async startReferencePos(bugs: string[], servers: Server[]): Promise<string> {
    const [{ createReferencePos }, { createSandboxServer }] = await Promise.all([import('../../reference-pos/app.js'), import('../http-parser-errors.js')]);
    const { partner, fixtures } = this.options;
    const pos = createReferencePos({
      identity: { posName: partner.name, key: partner.nonProdKey, apiKey: partner.apiKey },
      sandboxUrl: this.sandboxUrl!,
      menus: fixtures.menus,
      locations: fixtures.locations,
      bugs: new Set(bugs) as Parameters<typeof createReferencePos>[0]['bugs'],
      // Its own ExternalIds: a reference POS started by hand may have numbered orders of the same locations.
      externalIdPrefix: `REF-${this.options.clock().toString(36).slice(-5).toUpperCase()}-`,
    });
    const server = createSandboxServer(pos);
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** The report folders of the report directory, newest first: what `pos-sandbox checklist` and these runs wrote. */
  async reports(): Promise<ReportListing[]> {
    let names: string[];
    try {
      names = (await readdir(this.options.reportDir, { withFileTypes: true })).filter((entry) => entry.isDirectory() && REPORT_ID.test(entry.name)).map((entry) => entry.name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const listed = await Promise.all(names.map((name) => this.readListing(name)));
    return listed.filter((listing): listing is ReportListing => listing !== undefined).sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id));
  }

  private async readListing(id: string): Promise<ReportListing | undefined> {
    const file = join(this.options.reportDir, id, 'report.json');
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(file)).mtimeMs;
    } catch {
      // A folder without report.json is not a report.
      return undefined;
    }
    const known = this.listings.get(id);
    if (known?.mtimeMs === mtimeMs) return known.listing;
    let listing: ReportListing | undefined;
    try {
      const report = JSON.parse(await readFile(file, 'utf8')) as { title?: unknown; startedAt?: unknown; outcome?: { verdict?: unknown }; pos?: { name?: unknown } };
      const text = (value: unknown) => (typeof value === 'string' ? value : '');
      listing = { id, title: text(report.title), startedAt: text(report.startedAt), verdict: text(report.outcome?.verdict), pos: text(report.pos?.name), html: reportHtmlPath(id) };
    } catch {
      // A report.json that does not parse is not a report.
      listing = undefined;
    }
    this.listings.set(id, { mtimeMs, listing });
    return listing;
  }

  /** report.html of a report folder, or undefined when there is none. */
  async reportHtml(id: string): Promise<string | undefined> {
    if (!REPORT_ID.test(id)) return undefined;
    try {
      return await readFile(join(this.options.reportDir, id, 'report.html'), 'utf8');
    } catch {
      return undefined;
    }
  }
}

export const reportHtmlPath = (id: string): string => `/_sandbox/reports/${encodeURIComponent(id)}/report.html`;
