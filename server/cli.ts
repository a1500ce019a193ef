/** The pos-sandbox command: one file per subcommand under cli/, only the one run is loaded (cli/program.ts). */
import { CommanderError } from 'commander';
import { buildProgram, exitCode } from './cli/program.js';
import { endQuietlyWhenThePipeCloses, guardTerminalOutput } from './cli/cli-output.js';

guardTerminalOutput();
endQuietlyWhenThePipeCloses();

try {
  await (await buildProgram(process.argv)).parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  process.exit(exitCode(error));
}
