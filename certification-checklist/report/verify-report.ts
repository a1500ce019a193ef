/** Pure: whether a report folder is as the runner wrote it: the layout of report.json, every digest, and the renderings. */
import { sha256Of } from './canonical-json.js';
import { REPORT_FORMAT, REPORT_FORMAT_VERSION, sealReport, type Report } from './report-model.js';
import { renderReportFiles, REPORT_FILES } from './render-report-files.js';

export interface ReportCheck {
  intact: boolean;
  problems: string[];
  /** The report, when report.json could be read as one (it may still have been edited). */
  report?: Report;
  /** Set when the folder holds a report this pos-sandbox cannot check (another format): why, and what can. */
  unsupported?: string;
}

/** `files` holds the texts of the report's files by name (report.json, report.md, report.html, junit.xml, evidence.har). */
export function verifyReport(files: Partial<Record<string, string>>): ReportCheck {
  const text = files['report.json'];
  if (text === undefined) return { intact: false, problems: ['report.json is missing'] };
  let report: Report;
  try {
    report = JSON.parse(text) as Report;
  } catch (error) {
    return { intact: false, problems: [`report.json is not valid JSON (${(error as Error).message}): it was edited or cut`] };
  }
  if (report?.format !== REPORT_FORMAT || !report.digest) return { intact: false, problems: [`report.json is not a ${REPORT_FORMAT} with a digest`] };
  if (report.formatVersion !== REPORT_FORMAT_VERSION) {
    const unsupported = `report.json is report format ${String(report.formatVersion)}; this pos-sandbox reads format ${REPORT_FORMAT_VERSION}: verify it with the pos-sandbox ${String((report as { sandboxVersion?: unknown }).sandboxVersion ?? '')} that wrote it`;
    return { intact: false, problems: [unsupported], unsupported };
  }
  const problems: string[] = [];
  if (`${JSON.stringify(report, null, 2)}\n` !== text) problems.push('report.json is not laid out as the runner wrote it: spaces or line breaks were changed');
  for (const piece of report.evidence ?? []) {
    if (sha256Of(piece.entry) !== piece.sha256) problems.push(`evidence ${piece.journalId} does not match its sha256: the entry was edited`);
  }
  const expected = sealReport(report).digest!.value;
  if (expected !== report.digest.value) problems.push(`the report's sha256 is ${expected}, not the ${report.digest.value} it states: its content was edited`);
  let rendered: Record<string, string>;
  try {
    rendered = renderReportFiles(report);
  } catch (error) {
    return { intact: false, problems: [...problems, `report.json cannot be rendered (${(error as Error).message}): it was edited`], report };
  }
  for (const name of REPORT_FILES.filter((file) => file !== 'report.json')) {
    if (files[name] === undefined) problems.push(`${name} is missing`);
    else if (files[name] !== rendered[name]) problems.push(`${name} does not match what report.json renders to: one of the two was edited`);
  }
  return { intact: problems.length === 0, problems, report };
}
