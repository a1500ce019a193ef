/** The pos-sandbox command: one file per subcommand under cli/. */
import { Command } from 'commander';
import { VERSION } from './version.js';
import { serveCommand } from './cli/serve.js';
import { tokenCommand } from './cli/token.js';
import { validateMenuCommand } from './cli/validate-menu.js';

const program = new Command('pos-sandbox')
  .description('A laptop sandbox of the POS integration interface (Open API v2)')
  .version(VERSION)
  .showHelpAfterError()
  .addCommand(serveCommand())
  .addCommand(tokenCommand())
  .addCommand(validateMenuCommand());

await program.parseAsync(process.argv);
