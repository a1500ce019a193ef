/** `pos-sandbox reports`: a running sandbox's report folders listed, and one fetched whole, signed, for `verify-report`. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { FOLDER_FILES } from '../../certification-checklist/report/write-report.js';
import type { ReportListing } from '../checklist/report-folders.js';
import { REPORT_ID } from '../checklist/report-folders.js';
import { printable } from '../http/messages.js';
import { ControlError } from './control-client.js';
import { ident, jsonOption, print, printJson, sandboxOption, withSandbox, type Common } from './control-command-kit.js';

export function reportsCommand(): Command {
  const reports = new Command('reports').description('the checklist reports of a running sandbox: list them, fetch one whole and signed');
  reports
    .command('list')
    .description('the report folders of the sandbox, newest first, with who signed each')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((flags: Common) =>
      withSandbox(flags, async (client) => {
        const listed = await client.call<ReportListing[]>('GET', '/_sandbox/reports');
        if (flags.json) return printJson(listed);
        if (listed.length === 0) return print(['no reports yet']);
        print(listed.map((report) => `${printable(report.id)}  ${printable(report.verdict).padEnd(7)}  ${printable(signedBy(report.signer))}  ${printable(report.title)}`));
      }),
    );
  reports
    .command('get')
    .description("fetch a report folder (its renderings, statement, manifest and signatures) into --to, to check with verify-report and hand to the service's team")
    .argument('<id>', 'the report id (reports list)')
    .option('--to <dir>', 'where to write it (default: ./<id>)')
    .addOption(sandboxOption())
    .action((id: string, flags: Common & { to?: string }) =>
      withSandbox(flags, async (client) => {
        if (!REPORT_ID.test(id)) throw new ControlError(`'${printable(id)}' is no report id (letters, digits, . _ -): pos-sandbox reports list shows them`);
        const folder = flags.to ?? id;
        const files: Array<[string, string]> = [];
        for (const name of FOLDER_FILES) {
          const answer = await client.open(`/_sandbox/reports/${ident(id)}/${name}`).catch((error: unknown) => {
            // A folder written before reports were signed has no manifest or signatures: fetched without them, verify-report says so.
            if (error instanceof ControlError && / answered 404/.test(error.message) && name !== 'report.json') return undefined;
            throw error;
          });
          if (answer !== undefined) files.push([name, await answer.text()]);
        }
        await mkdir(folder, { recursive: true });
        for (const [name, text] of files) await writeFile(join(folder, name), text, 'utf8');
        print([`fetched ${files.length} files of ${id} into ${folder}`, `check it: pos-sandbox verify-report --keys ${client.baseUrl}/.well-known/jwks.json ${folder}`]);
      }),
    );
  return reports;
}

const signedBy = (signer: ReportListing['signer']) => (signer === null ? 'unsigned' : signer.kind === 'operator' ? `signed: ${signer.deployment ?? 'operator'}` : 'self-signed');
