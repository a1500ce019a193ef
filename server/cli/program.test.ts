import { describe, expect, it } from '@jest/globals';
import { Help, type Command } from 'commander';
import { buildProgram, namedSubcommand, SUBCOMMANDS } from './program.js';

const argv = (...args: string[]) => ['node', 'pos-sandbox', ...args];

describe('the pos-sandbox program', () => {
  it('prints the same top-level help from its stand-ins as from the loaded subcommands', async () => {
    const quick = await buildProgram(argv('--help'));
    const full = await buildProgram(argv('--help'), { loadAll: true });
    expect(quick.helpInformation()).toBe(full.helpInformation());
  });

  it('has a stand-in whose name, term and summary are those of each loaded subcommand', async () => {
    const help = new Help();
    const loaded: Array<readonly [(typeof SUBCOMMANDS)[number], Awaited<ReturnType<(typeof SUBCOMMANDS)[number]['load']>>]> = [];
    for (const subcommand of SUBCOMMANDS) loaded.push([subcommand, await subcommand.load()]);
    expect(loaded.map(([subcommand]) => [subcommand.name, subcommand.term, subcommand.summary])).toEqual(
      loaded.map(([, command]) => [command.name(), help.subcommandTerm(command), command.description()]),
    );
  });

  it.each([
    [['serve', '--port', '0'], 'serve'],
    [['help', 'checklist'], 'checklist'],
    [['export', 'postman'], 'export'],
    [['--help'], undefined],
    [['servee'], undefined],
    [['help'], undefined],
    [[], undefined],
  ])('loads only the subcommand %j names: %s', (args, name) => {
    expect(namedSubcommand(argv(...args))?.name).toBe(name);
  });

  it('builds the named subcommand whole and the others as stand-ins', async () => {
    const program = await buildProgram(argv('token', '--help'));
    const options = Object.fromEntries(program.commands.map((command) => [command.name(), command.options.length > 0]));
    expect(options).toEqual({ serve: false, token: true, 'validate-menu': false, checklist: false, certify: false, 'verify-report': false, stress: false, keys: false, reports: false, demo: false, export: false, status: false, orders: false, refunds: false, faults: false, journal: false, migration: false, reset: false });
  });

  it('shows no number default as a quoted string in any --help (commander quotes string defaults)', async () => {
    const program = await buildProgram(argv('--help'), { loadAll: true });
    const all = (command: Command): Command[] => [command, ...command.commands.flatMap(all)];
    const quotedNumbers = all(program).flatMap((command) =>
      command.options.filter((option) => typeof option.defaultValue === 'string' && /^\d+$/.test(option.defaultValue)).map((option) => `${command.name()} ${option.long}`),
    );
    expect(quotedNumbers).toEqual([]);
  });
});
