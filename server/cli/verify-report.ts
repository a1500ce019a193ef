/** `pos-sandbox verify-report DIR [--rejudge]`: recomputes a report's digests and renderings and, asked to, its verdicts. */
import { Command } from 'commander';
import { readReportFiles } from '../../certification-checklist/report/write-report.js';
import { verifyReport } from '../../certification-checklist/report/verify-report.js';
import { rejudgeReport } from '../../certification-checklist/report/rejudge.js';
import { REPORT_FILES } from '../../certification-checklist/report/render-report-files.js';
import { printable } from '../domain/printable-text.js';

export function verifyReportCommand(): Command {
  return new Command('verify-report')
    .description('check that a report folder is as the checklist wrote it: every sha256, and each rendering against report.json')
    .argument('<dir>', 'the report folder (certification-reports/<run-id>)')
    .option('--rejudge', "also judge every item again from the report's own evidence, with this checklist, and compare the verdicts")
    .addHelpText('after', '\nExit codes: 0 intact (and, with --rejudge, every verdict follows from the evidence), 1 edited or a verdict differs, 2 not a report folder or a report of another checklist version.')
    .action(async (dir: string, flags: { rejudge?: boolean }) => {
      const files = await readReportFiles(dir);
      if (Object.keys(files).length === 0) {
        process.stderr.write(`pos-sandbox verify-report: ${dir} holds no report files (${REPORT_FILES.join(', ')})\n`);
        process.exit(2);
      }
      const check = verifyReport(files);
      if (check.unsupported) {
        process.stderr.write(`pos-sandbox verify-report: ${check.unsupported}\n`);
        process.exit(2);
      }
      const report = check.report;
      // What a report holds is data, and an edited one may hold anything: shown, never sent to the terminal as it is.
      if (check.intact) process.stdout.write(`intact: ${dir}\n  ${printable(report!.title)}\n  run ${printable(report!.runId)}, ${printable(report!.outcome.verdict)}, sha256 ${printable(report!.digest!.value)}\n`);
      else process.stdout.write(`EDITED: ${dir} is not as the checklist wrote it\n${check.problems.map((problem) => `  - ${printable(problem)}\n`).join('')}`);
      if (!check.intact) process.exitCode = 1;
      if (!flags.rejudge) return;
      if (!report) {
        process.stderr.write('pos-sandbox verify-report: report.json cannot be read, so there is nothing to judge again\n');
        process.exit(2);
      }
      const rejudged = rejudgeReport(report);
      if ('unsupported' in rejudged) {
        process.stderr.write(`pos-sandbox verify-report: cannot judge again: ${rejudged.unsupported}\n`);
        process.exit(2);
      }
      if (rejudged.problems.length === 0) {
        process.stdout.write(`rejudged: ${rejudged.judged} verdicts, the outcome and the kind of run all follow from the report's evidence (checklist ${report.checklistVersion})\n`);
        return;
      }
      process.stdout.write(`VERDICTS DO NOT FOLLOW FROM THE EVIDENCE:\n${rejudged.problems.map((problem) => `  - ${printable(problem)}\n`).join('')}`);
      process.exitCode = 1;
    });
}
