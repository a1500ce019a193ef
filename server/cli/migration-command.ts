/** `pos-sandbox migration`: the seven steps of §9 as GET /_sandbox/migration builds them from the journal and reports (docs/migrating-from-v1.md). */
import { Command } from 'commander';
import type { MigrationReport, MigrationStepReport } from '../migration/migration-report.js';
import { jsonOption, paint, print, printJson, sandboxOption, withSandbox, type Common } from './control-command-kit.js';
import { printable } from '../http/messages.js';

export function migrationCommand(): Command {
  return new Command('migration')
    .description("where the POS stands on §9's migration from v1: the seven steps, done, in progress (with the calls) or not yet exercised")
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((flags: Common) =>
      withSandbox(flags, async (client) => {
        // The sandbox builds the report (GET /_sandbox/migration), as for the dashboard's Migration page: one source.
        const report = await client.call<MigrationReport>('GET', '/_sandbox/migration');
        if (flags.json) return printJson(report);
        print([`${report.calls} call(s) of the POS read from the journal`, ...report.steps.flatMap(stepLines)]);
      }),
    );
}

const MARK: Record<MigrationStepReport['state'], string> = { done: paint.green('done'), 'in progress': paint.yellow('in progress'), 'not yet exercised': paint.dim('not yet exercised') };

function stepLines(step: MigrationStepReport): string[] {
  return [
    `${step.number}. ${step.step.padEnd(30)} ${MARK[step.state]}`,
    ...(step.v1Calls.length > 0 ? [`   v1 calls${step.v1CallCount > step.v1Calls.length ? ` (the first ${step.v1Calls.length} of ${step.v1CallCount})` : ''}: ${step.v1Calls.join(', ')}`] : []),
    `   next: ${printable(step.next)}`,
  ];
}
