/** I/O: a report folder written, signed, and read back for verify-report. */
import { readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { readPlainFile } from '../../server/store/read-plain-file.js';
import { join } from 'node:path';
import type { Report } from './report-model.js';
import { renderReportFiles, REPORT_FILES } from './render-report-files.js';
import { manifestOf, manifestText, signDetached, SIGNATURE_FILES } from './report-signature.js';
import type { ReportSigner } from './signing-keys.js';

/** Every file of a signed report folder. */
export const FOLDER_FILES = [...REPORT_FILES, ...SIGNATURE_FILES] as const;

/** The texts of a signed report folder: the renderings, the manifest over them, its signature and the statement's. */
export function signedFolderFiles(report: Report, signer: ReportSigner): Record<(typeof FOLDER_FILES)[number], string> {
  if (report.signer?.kid !== signer.kid) throw new Error(`the report names signer ${report.signer?.kid ?? '(none)'}, not the key ${signer.kid} given to sign it`);
  const files = renderReportFiles(report);
  const manifest = manifestText(manifestOf(report, files));
  return { ...files, 'manifest.json': manifest, 'signature.jws': `${signDetached(manifest, signer)}\n`, 'statement.jws': `${signDetached(files['statement.json'], signer)}\n` };
}

/** Into `reportDir`/<run-id>/, or `asIs` into `reportDir` itself; the signatures last, so a folder cut short by a crash fails its check. */
export async function writeReport(reportDir: string, report: Report, signer: ReportSigner, options: { asIs?: boolean } = {}): Promise<string> {
  const folder = options.asIs === true ? reportDir : join(reportDir, report.runId);
  await mkdir(folder, { recursive: true });
  const files = signedFolderFiles(report, signer);
  for (const name of FOLDER_FILES) await writeFile(join(folder, name), files[name], 'utf8');
  return folder;
}

/** The most of one file of a report folder that is read: a whole run's evidence is megabytes, not hundreds. */
export const MAX_REPORT_FILE_BYTES = 256 * 1024 * 1024;

export interface ReportFolder {
  /** The texts of its files by name; a missing file is left out. */
  files: Partial<Record<string, string>>;
  /** Why a file of the folder could not be read (not a regular file, too large). */
  unreadable: string[];
  /** Names in the folder that are none of its files: nothing signs them. */
  others: string[];
}

/** A report folder read for verify-report; undefined when `folder` is no folder. */
export function readReportFolder(folder: string): ReportFolder | undefined {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return undefined;
  }
  const result: ReportFolder = { files: {}, unreadable: [], others: names.filter((name) => !(FOLDER_FILES as readonly string[]).includes(name)).sort() };
  for (const name of FOLDER_FILES) {
    const read = readPlainFile(join(folder, name), MAX_REPORT_FILE_BYTES, 'a report file');
    if ('text' in read) result.files[name] = read.text;
    else if (read.missing !== true) result.unreadable.push(read.problem);
  }
  return result;
}
