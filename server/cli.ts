/** The pos-sandbox command: one file per subcommand under cli/. */
import { Command } from 'commander';
import { VERSION } from './version.js';
import { serveCommand } from './cli/serve.js';
import { tokenCommand } from './cli/token.js';
import { validateMenuCommand } from './cli/validate-menu.js';
import { checklistCommand } from './cli/checklist.js';
import { verifyReportCommand } from './cli/verify-report.js';
import { demoCommand } from './cli/demo.js';
import { exportCommand } from './cli/export.js';

const program = new Command('pos-sandbox')
  .description('A laptop sandbox of the POS integration interface (Open API v2)')
  .version(VERSION)
  .showHelpAfterError()
  .addCommand(serveCommand())
  .addCommand(tokenCommand())
  .addCommand(validateMenuCommand())
  .addCommand(checklistCommand())
  .addCommand(verifyReportCommand())
  .addCommand(demoCommand())
  .addCommand(exportCommand());

await program.parseAsync(process.argv);
