/** Pure: evidence.har, the run's traffic (every journal entry the report holds) as HAR 1.2, for a network panel or Postman. */
import { toHar } from '../../server/journal/har.js';
import type { Report } from './report-model.js';
import { signerWords } from './render-statement.js';

export function renderHar(report: Report): string {
  const har = toHar(
    report.evidence.map((piece) => piece.entry),
    { name: 'pos-sandbox certification checklist', version: report.checklistVersion },
    report.sandbox.url,
  );
  return `${JSON.stringify({ log: { ...har.log, comment: `${report.title} (${report.runId}); signed by ${signerWords(report.signer).who}; the signature proves ${signerWords(report.signer).proves}` } }, null, 2)}\n`;
}
