/**
 * The report folders of a sandbox's report directory (what `pos-sandbox checklist` and the runs of the control API
 * write): listed newest first, each report.html read, and a folder removed when its run is past its retention.
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FOLDER_FILES } from '../../certification-checklist/report/write-report.js';

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
  /**
   * What each report.json said, by folder, with the file's time: a report.json holds the run's whole evidence
   * (megabytes), and the Checklist page lists the reports again while a run goes on.
   */
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
