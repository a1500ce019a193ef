/** `pos-sandbox verify-report DIR`: recomputes a report's digests and renderings, and says whether it was edited. */
import { Command } from 'commander';
import { readReportFiles } from '../../certification-checklist/report/write-report.js';
import { verifyReport } from '../../certification-checklist/report/verify-report.js';

export function verifyReportCommand(): Command {
  return new Command('verify-report')
    .description('check that a report folder is as the checklist wrote it: every sha256, and report.md, report.html, junit.xml against report.json')
    .argument('<dir>', 'the report folder (certification-reports/<run-id>)')
    .addHelpText('after', '\nExit codes: 0 intact, 1 edited, 2 not a report folder.')
    .action(async (dir: string) => {
      const files = await readReportFiles(dir);
      if (Object.keys(files).length === 0) {
        process.stderr.write(`pos-sandbox verify-report: ${dir} holds no report files (report.json, report.md, report.html, junit.xml)\n`);
        process.exit(2);
      }
      const check = verifyReport(files);
      if (check.intact) {
        const report = JSON.parse(files['report.json']!) as { runId: string; digest: { value: string }; outcome: { verdict: string } };
        process.stdout.write(`intact: ${dir}\n  run ${report.runId}, ${report.outcome.verdict}, sha256 ${report.digest.value}\n`);
        return;
      }
      process.stdout.write(`EDITED: ${dir} is not as the checklist wrote it\n${check.problems.map((problem) => `  - ${problem}\n`).join('')}`);
      process.exitCode = 1;
    });
}
