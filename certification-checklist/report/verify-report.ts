/** Pure: whether a report folder is as the runner wrote it: the layout of report.json, every digest, and the three renderings. */
import { sha256Of } from './canonical-json.js';
import { REPORT_FORMAT, sealReport, type Report } from './report-model.js';
import { renderReportFiles, REPORT_FILES } from './render-report-files.js';

export interface ReportCheck {
  intact: boolean;
  problems: string[];
}

/** `files` holds the texts of the report's files by name (report.json, report.md, report.html, junit.xml). */
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
  const problems: string[] = [];
  if (`${JSON.stringify(report, null, 2)}\n` !== text) problems.push('report.json is not laid out as the runner wrote it: spaces or line breaks were changed');
  for (const item of report.items ?? []) {
    for (const piece of item.evidence ?? []) {
      if (sha256Of(piece.excerpt) !== piece.sha256) problems.push(`${item.id}: evidence ${piece.journalId} does not match its sha256: the excerpt was edited`);
    }
  }
  const expected = sealReport(report).digest!.value;
  if (expected !== report.digest.value) problems.push(`the report's sha256 is ${expected}, not the ${report.digest.value} it states: its content was edited`);
  const rendered = renderReportFiles(report);
  for (const name of REPORT_FILES.filter((file) => file !== 'report.json')) {
    if (files[name] === undefined) problems.push(`${name} is missing`);
    else if (files[name] !== rendered[name]) problems.push(`${name} is not what report.json renders to: it was edited`);
  }
  return { intact: problems.length === 0, problems };
}

