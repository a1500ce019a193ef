/** `pos-sandbox faults`: the fault rules in force, added from flags or a file, listed with their counters, removed, reset. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { PACKAGE_ROOT } from '../version.js';
import { ControlError } from './control-client.js';
import { faultLines, type FaultRow } from './control-format.js';
import { ident, jsonOption, paint, print, printJson, sandboxOption, wholeNumber, withSandbox, type Common } from './control-command-kit.js';

interface FaultFlags extends Common {
  rule?: string;
  id?: string;
  kind?: string;
  path?: string;
  method?: string;
  location?: string;
  direction?: string;
  status?: number;
  ms?: number;
  times?: number;
}

/** A rules file by path, or a ready script of fixtures/faults/ by its name (`slow-service`). */
function readRules(file: string): unknown {
  const ready = join(PACKAGE_ROOT, 'fixtures', 'faults', file.endsWith('.json') ? file : `${file}.json`);
  const path = existsSync(file) ? file : existsSync(ready) ? ready : undefined;
  if (path === undefined) throw new ControlError(`no file ${file}, and no ready script of that name in ${join(PACKAGE_ROOT, 'fixtures', 'faults')}`);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ControlError(`${path} is not JSON: ${(error as Error).message}`);
  }
}

export function faultsCommand(): Command {
  const faults = new Command('faults').description('the fault rules in force: add, list, remove, load a file of them, reset');
  faults
    .command('list')
    .description('the fault rules in force, in the order they are tried (newest first), with their counters')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((flags: Common) =>
      withSandbox(flags, async (client) => {
        const list = await client.call<FaultRow[]>('GET', '/_sandbox/faults');
        if (flags.json) return printJson(list);
        print(faultLines(list, paint));
      }),
    );
  faults
    .command('add')
    .description('add a fault rule: whole with --rule JSON, or from --kind and the flags below')
    .option('--rule <json>', 'a rule (or a list of rules) as JSON, as POST /_sandbox/faults takes it')
    .option('--id <id>', 'the rule id (default: one the sandbox makes)')
    .option('--kind <kind>', 'status, delay, drop, hang, malformed, rate-limit, bad-signature, expired-token, wrong-audience, duplicate')
    .option('--path <path>', 'match: requests to this path (any mount)')
    .option('--method <method>', 'match: this method')
    .option('--location <id>', 'match: this location')
    .addOption(new Option('--direction <direction>', 'match: inbound (POS → sandbox) or outbound (sandbox → POS)').choices(['inbound', 'outbound']))
    .option('--status <code>', 'with --kind status (or malformed): the status to answer', wholeNumber('--status', 100))
    .option('--ms <ms>', 'with --kind delay: how long', wholeNumber('--ms', 0))
    .option('--times <n>', 'fire this many times, then stop (default: no limit)', wholeNumber('--times'))
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((flags: FaultFlags, command: Command) =>
      withSandbox(flags, async (client) => {
        let rule: unknown;
        if (flags.rule !== undefined) {
          try {
            rule = JSON.parse(flags.rule);
          } catch (error) {
            command.error(`error: --rule is not JSON: ${(error as Error).message}`, { exitCode: 2 });
          }
        } else if (flags.kind !== undefined) {
          const match = Object.fromEntries(Object.entries({ path: flags.path, method: flags.method, location: flags.location, direction: flags.direction }).filter(([, value]) => value !== undefined));
          const action = { kind: flags.kind, ...(flags.status === undefined ? {} : { status: flags.status }), ...(flags.ms === undefined ? {} : { ms: flags.ms }) };
          rule = { ...(flags.id === undefined ? {} : { id: flags.id }), match, action, ...(flags.times === undefined ? {} : { times: flags.times }) };
        } else {
          command.error('error: say the rule: --kind KIND [--path …] or --rule JSON', { exitCode: 2 });
        }
        const added = await client.call<FaultRow | FaultRow[]>('POST', '/_sandbox/faults', rule);
        if (flags.json) return printJson(added);
        print(faultLines(Array.isArray(added) ? added : [added], paint));
      }),
    );
  faults
    .command('remove')
    .description('remove one fault rule')
    .argument('<id>', 'the rule id')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((id: string, flags: Common) =>
      withSandbox(flags, async (client) => {
        const answer = await client.call<unknown>('DELETE', `/_sandbox/faults/${ident(id)}`);
        if (flags.json) return printJson(answer ?? { removed: id });
        print([`removed fault rule ${id}`]);
      }),
    );
  faults
    .command('load')
    .description('add every rule of a JSON file (a list of rules), or of a ready script of fixtures/faults/ by name')
    .argument('<file>', 'a file, or a ready script: duplicate-deliveries, flaky-network, forged-tokens-to-pos, rate-limited, service-outage, slow-service')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((file: string, flags: Common) =>
      withSandbox(flags, async (client) => {
        const added = await client.call<FaultRow | FaultRow[]>('POST', '/_sandbox/faults', readRules(file));
        if (flags.json) return printJson(added);
        print(faultLines(Array.isArray(added) ? added : [added], paint));
      }),
    );
  faults
    .command('reset')
    .description('remove every fault rule')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((flags: Common) =>
      withSandbox(flags, async (client) => {
        const answer = await client.call<unknown>('DELETE', '/_sandbox/faults');
        if (flags.json) return printJson(answer ?? {});
        print(['every fault rule removed']);
      }),
    );
  return faults;
}
