/** I/O: writes a report folder (--report-dir/<run-id>/, or --report-dir itself for certify) and reads one back for verify-report. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from './report-model.js';
import { renderReportFiles, REPORT_FILES } from './render-report-files.js';

/**
 * Writes the report's files into `reportDir`/<run-id>/, or, `asIs`, into `reportDir` itself (a CI job names the
 * folder it collects `junit.xml` from); answers the folder.
 */
export async function writeReport(reportDir: string, report: Report, options: { asIs?: boolean } = {}): Promise<string> {
  const folder = options.asIs === true ? reportDir : join(reportDir, report.runId);
  await mkdir(folder, { recursive: true });
  const files = renderReportFiles(report);
  for (const name of REPORT_FILES) await writeFile(join(folder, name), files[name], 'utf8');
  return folder;
}

/** The texts of a report folder's files; a missing file is left out. */
export async function readReportFiles(folder: string): Promise<Partial<Record<string, string>>> {
  const files: Partial<Record<string, string>> = {};
  for (const name of REPORT_FILES) {
    try {
      files[name] = await readFile(join(folder, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return files;
}
