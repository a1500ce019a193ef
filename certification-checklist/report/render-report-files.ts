/** Pure: the six files of a report folder, all from the one canonical report (manifest.json and the signatures sign them). */
import type { Report } from './report-model.js';
import { renderHar } from './render-har.js';
import { renderHtml } from './render-html.js';
import { renderJunit } from './render-junit.js';
import { renderMarkdown } from './render-markdown.js';
import { renderStatement } from './render-statement.js';

export const REPORT_FILES = ['report.json', 'report.md', 'report.html', 'junit.xml', 'evidence.har', 'statement.json'] as const;
export type ReportFile = (typeof REPORT_FILES)[number];

export function renderReportFiles(report: Report): Record<ReportFile, string> {
  return {
    'report.json': `${JSON.stringify(report, null, 2)}\n`,
    'report.md': renderMarkdown(report),
    'report.html': renderHtml(report),
    'junit.xml': renderJunit(report),
    'evidence.har': renderHar(report),
    'statement.json': renderStatement(report),
  };
}
