/** The pos-sandbox command: one file per subcommand under cli/. */
import { Command } from 'commander';
import { VERSION } from './version.js';

// Each subcommand's file is imported only when it is the one run: loading all of them (Express, ajv, the
// checklist) costs about a second per start, which `pos-sandbox token` and every test that spawns the CLI paid.
const SUBCOMMANDS: Array<[name: string, load: () => Promise<Command>]> = [
  ['serve', async () => (await import('./cli/serve.js')).serveCommand()],
  ['token', async () => (await import('./cli/token.js')).tokenCommand()],
  ['validate-menu', async () => (await import('./cli/validate-menu.js')).validateMenuCommand()],
  ['checklist', async () => (await import('./cli/checklist.js')).checklistCommand()],
  ['verify-report', async () => (await import('./cli/verify-report.js')).verifyReportCommand()],
  ['demo', async () => (await import('./cli/demo.js')).demoCommand()],
  ['export', async () => (await import('./cli/export.js')).exportCommand()],
];

/** The subcommands to build: the one named first on the command line, or all of them (for help, --version, a typo). */
function subcommandsFor(argv: string[]): Array<() => Promise<Command>> {
  const named = SUBCOMMANDS.find(([name]) => name === argv[2]);
  return named ? [named[1]] : SUBCOMMANDS.map(([, load]) => load);
}

const program = new Command('pos-sandbox')
  .description('A laptop sandbox of the POS integration interface (Open API v2)')
  .version(VERSION)
  .showHelpAfterError();
for (const command of await Promise.all(subcommandsFor(process.argv).map((load) => load()))) program.addCommand(command);

await program.parseAsync(process.argv);
