/** Which subcommands one command line builds: a subcommand's file is imported only when it runs, so `--help` loads none of them; the stand-ins carry what the top-level help prints. */
import { Command, Help, type CommanderError } from 'commander';
import { VERSION } from '../version.js';

export interface Subcommand {
  name: string;
  /** How the top-level help names it, as commander would from the loaded command: `name [options] <args>`. */
  term: string;
  summary: string;
  load: () => Promise<Command>;
}

export const SUBCOMMANDS: Subcommand[] = [
  {
    name: 'serve',
    term: 'serve [options]',
    summary: 'start the sandbox (defaults: 127.0.0.1:4100, the fixtures in fixtures/)',
    load: async () => (await import('./serve.js')).serveCommand(),
  },
  {
    name: 'token',
    term: 'token [options]',
    summary: 'print a POS → service token (HS256, the partner key, the six §5 claims) on stdout',
    load: async () => (await import('./token.js')).tokenCommand(),
  },
  {
    name: 'validate-menu',
    term: 'validate-menu [options] <file>',
    summary: 'check a PUT /menu payload offline: the same checks and messages as the server; exit 1 on errors',
    load: async () => (await import('./validate-menu.js')).validateMenuCommand(),
  },
  {
    name: 'checklist',
    term: 'checklist [options]',
    summary: 'run the certification checklist against a POS through a running sandbox, and write the report',
    load: async () => (await import('./checklist.js')).checklistCommand(),
  },
  {
    name: 'certify',
    term: 'certify [options]',
    summary: 'for CI: start a sandbox in this process, wait for the POS, run the whole checklist against its driver, write the report into one folder, exit with the verdict',
    load: async () => (await import('./certify.js')).certifyCommand(),
  },
  {
    name: 'verify-report',
    term: 'verify-report [options] <dir>',
    summary: "check a report folder: its signature, that every file is as the sandbox wrote it (every sha256, each rendering against report.json), and, asked to, every verdict",
    load: async () => (await import('./verify-report.js')).verifyReportCommand(),
  },
  {
    name: 'stress',
    term: 'stress [options]',
    summary: 'hunt for the orders that break the POS: generated orders through the running sandbox, each failure shrunk and saved; --rush for a lunch rush',
    load: async () => (await import('./stress-command.js')).stressCommand(),
  },
  {
    name: 'keys',
    term: 'keys',
    summary: 'the keys reports are signed with: export the public ones (a JWKS)',
    load: async () => (await import('./keys-command.js')).keysCommand(),
  },
  {
    name: 'reports',
    term: 'reports',
    summary: 'the checklist reports of a running sandbox: list them, fetch one whole and signed',
    load: async () => (await import('./reports-command.js')).reportsCommand(),
  },
  {
    name: 'demo',
    term: 'demo [options]',
    summary: 'start a sandbox and the reference POS, run the whole checklist in driver mode, write the report',
    load: async () => (await import('./demo.js')).demoCommand(),
  },
  {
    name: 'export',
    term: 'export',
    summary: 'write files that let another tool use the sandbox (postman)',
    load: async () => (await import('./export-postman.js')).exportCommand(),
  },
  {
    name: 'status',
    term: 'status [options]',
    summary: 'is the sandbox up: its address, version, partner, store, POS order URL, journal and fault counts',
    load: async () => (await import('./control-commands.js')).statusCommand(),
  },
  {
    name: 'orders',
    term: 'orders',
    summary: 'create, list, show and resend the orders the sandbox sends to the POS',
    load: async () => (await import('./control-commands.js')).ordersCommand(),
  },
  {
    name: 'refunds',
    term: 'refunds',
    summary: 'the refunds the POS asked for, and what became of them',
    load: async () => (await import('./control-commands.js')).refundsCommand(),
  },
  {
    name: 'faults',
    term: 'faults',
    summary: 'the fault rules in force: add, list, remove, load a file of them, reset',
    load: async () => (await import('./fault-commands.js')).faultsCommand(),
  },
  {
    name: 'journal',
    term: 'journal',
    summary: 'the requests the sandbox saw and sent, one line per exchange',
    load: async () => (await import('./journal-command.js')).journalCommand(),
  },
  {
    name: 'migration',
    term: 'migration [options]',
    summary: "where the POS stands on §9's migration from v1: the seven steps, done, in progress (with the calls) or not yet exercised",
    load: async () => (await import('./migration-command.js')).migrationCommand(),
  },
  {
    name: 'reset',
    term: 'reset [options]',
    summary: 'put the sandbox back to its fixtures: refunds, journal, fault rules and seen token ids cleared',
    load: async () => (await import('./control-commands.js')).resetCommand(),
  },
];

/** The subcommand a command line runs (`pos-sandbox NAME …` or `pos-sandbox help NAME`), if it names one. */
export function namedSubcommand(argv: readonly string[]): Subcommand | undefined {
  const name = argv[2] === 'help' ? argv[3] : argv[2];
  return SUBCOMMANDS.find((subcommand) => subcommand.name === name);
}

/** A subcommand that is not run: its name and summary, for the help, a typo's suggestion and --version. */
function standIn(subcommand: Subcommand): Command {
  return new Command(subcommand.name).description(subcommand.summary);
}

/** The program for `argv`: the subcommand it names loaded, or every one a stand-in. `loadAll` loads them all. */
export async function buildProgram(argv: readonly string[], options: { loadAll?: boolean } = {}): Promise<Command> {
  const named = namedSubcommand(argv);
  const terms = new Map<Command, string>();
  // One after another: jest's ES module loader fails imports that run side by side and share a module.
  const commands: Command[] = [];
  for (const subcommand of SUBCOMMANDS) {
    if (options.loadAll === true || subcommand === named) {
      commands.push(await subcommand.load());
      continue;
    }
    const command = standIn(subcommand);
    terms.set(command, subcommand.term);
    commands.push(command);
  }
  const program = new Command('pos-sandbox')
    .description('A laptop sandbox of the POS integration interface (Open API v2)')
    .version(VERSION)
    .showHelpAfterError()
    .configureHelp({ subcommandTerm: (command) => terms.get(command) ?? new Help().subcommandTerm(command) });
  for (const command of commands) program.addCommand(command);
  // The standalone executable starts the reference POS itself, before this program is built.
  if (process.env.POS_SANDBOX_STANDALONE === '1') program.addHelpText('after', '\nIn this executable, pos-sandbox reference-pos [options] runs the bundled reference POS (pos-sandbox reference-pos --help).');
  throwInsteadOfExit(program);
  return program;
}

/** commander exits by itself on a usage error; made to throw instead, on every command, so `exitCode` decides. */
function throwInsteadOfExit(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) throwInsteadOfExit(sub);
}

/** 0 for --help and --version, 2 for a command line commander could not take, as for every start-up problem. */
export function exitCode(error: CommanderError): number {
  if (error.exitCode === 0 || error.code === 'commander.error' || error.code === 'commander.help') return error.exitCode;
  return 2;
}
