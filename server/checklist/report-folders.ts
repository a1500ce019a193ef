/** The report folders of the report directory: listed newest first, each report.html read, a folder removed when past retention. */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FOLDER_FILES } from '../../certification-checklist/report/write-report.js';
import type { Quotas } from '../hosted/quotas.js';

/** An earlier report found in the report directory. */
export interface ReportListing {
  id: string;
  title: string;
  startedAt: string;
  verdict: string;
  pos: string;
  html: string;
  /** Whose key signed it, as report.json says (verify-report checks it); null for a folder written before reports were signed. */
  signer: { kind: string; deployment?: string; kid: string } | null;
}

/** Report folder names the control API takes: what runChecklist makes (a time and a tag), nothing with a slash. */
export const REPORT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export const reportHtmlPath = (id: string): string => `/_sandbox/reports/${encodeURIComponent(id)}/report.html`;

export class ReportFolders {
  /** What each report.json said, by folder and time: the file holds a run's whole evidence, and the Checklist page lists again and again. */
  private readonly listings = new Map<string, { mtimeMs: number; listing: ReportListing | undefined }>();

  constructor(readonly directory: string) {}

  /** The report folders, newest first. */
  async list(): Promise<ReportListing[]> {
    let names: string[];
    try {
      names = (await readdir(this.directory, { withFileTypes: true })).filter((entry) => entry.isDirectory() && REPORT_ID.test(entry.name)).map((entry) => entry.name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const listed = await Promise.all(names.map((name) => this.readListing(name)));
    return listed.filter((listing): listing is ReportListing => listing !== undefined).sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id));
  }

  /** A file of a report folder (FOLDER_FILES only), or undefined when there is none. */
  async file(id: string, name: string): Promise<string | undefined> {
    if (!REPORT_ID.test(id) || !(FOLDER_FILES as readonly string[]).includes(name)) return undefined;
    try {
      return await readFile(join(this.directory, id, name), 'utf8');
    } catch {
      return undefined;
    }
  }

  /** Removes a report folder whole. */
  async remove(id: string): Promise<void> {
    if (!REPORT_ID.test(id)) return;
    this.listings.delete(id);
    await rm(join(this.directory, id), { recursive: true, force: true });
  }

  private async readListing(id: string): Promise<ReportListing | undefined> {
    const file = join(this.directory, id, 'report.json');
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
      const report = JSON.parse(await readFile(file, 'utf8')) as { title?: unknown; startedAt?: unknown; outcome?: { verdict?: unknown }; pos?: { name?: unknown }; signer?: { kind?: unknown; deployment?: unknown; kid?: unknown } };
      const text = (value: unknown) => (typeof value === 'string' ? value : '');
      const { signer } = report;
      listing = {
        id,
        title: text(report.title),
        startedAt: text(report.startedAt),
        verdict: text(report.outcome?.verdict),
        pos: text(report.pos?.name),
        html: reportHtmlPath(id),
        signer: signer === undefined || signer === null ? null : { kind: text(signer.kind), ...(typeof signer.deployment === 'string' ? { deployment: signer.deployment } : {}), kid: text(signer.kid) },
      };
    } catch {
      // A report.json that does not parse is not a report.
      listing = undefined;
    }
    this.listings.set(id, { mtimeMs, listing });
    return listing;
  }
}

/** Pure: which runs a sandbox keeps; a run's report folder and its orders (`chk-<tag>-NN`) go together, so no kept report names an order that is gone. */

/** A run as the sandbox finds it: its tag, and the latest time it left (a report's start, an order's creation). */
export interface FoundRun {
  tag: string;
  at: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The tag of a report folder (its six hex digits after the time, `<time>-a1b2c3`), or undefined for a folder of another shape. */
export const tagOfReport = (id: string): string | undefined => /-([0-9a-f]{6})$/.exec(id)?.[1];

/** The tag of a checklist order (`chk-a1b2c3-07`), or undefined for any other order. */
export const tagOfOrder = (orderId: string): string | undefined => /^chk-([0-9a-f]{6})-\d+$/.exec(orderId)?.[1];

/** The tags kept: the newest `reportsKept` runs, none older than `reportMaxAgeDays`. A run found twice counts once, at its latest. */
export function keptRuns(runs: readonly FoundRun[], quotas: Pick<Quotas, 'reportsKept' | 'reportMaxAgeDays'>, now: number): Set<string> {
  const latest = new Map<string, number>();
  for (const run of runs) latest.set(run.tag, Math.max(latest.get(run.tag) ?? -Infinity, run.at));
  const oldest = quotas.reportMaxAgeDays === null ? -Infinity : now - quotas.reportMaxAgeDays * DAY_MS;
  const fresh = [...latest].filter(([, at]) => Number.isNaN(at) || at >= oldest).sort((a, b) => b[1] - a[1] || b[0].localeCompare(a[0]));
  return new Set((quotas.reportsKept === null ? fresh : fresh.slice(0, quotas.reportsKept)).map(([tag]) => tag));
}
