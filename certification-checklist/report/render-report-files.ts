/** Pure: the five files of a report folder, all from the one canonical report. */
import type { Report } from './report-model.js';
import { renderHar } from './render-har.js';
import { renderHtml } from './render-html.js';
import { renderJunit } from './render-junit.js';
import { renderMarkdown } from './render-markdown.js';

export const REPORT_FILES = ['report.json', 'report.md', 'report.html', 'junit.xml', 'evidence.har'] as const;
export type ReportFile = (typeof REPORT_FILES)[number];

export function renderReportFiles(report: Report): Record<ReportFile, string> {
  return {
    'report.json': `${JSON.stringify(report, null, 2)}\n`,
    'report.md': renderMarkdown(report),
    'report.html': renderHtml(report),
    'junit.xml': renderJunit(report),
    'evidence.har': renderHar(report),
  };
}
