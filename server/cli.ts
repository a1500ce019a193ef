/** The pos-sandbox command: one file per subcommand under cli/, only the one run is loaded (cli/program.ts). */
import { buildProgram } from './cli/program.js';

await (await buildProgram(process.argv)).parseAsync(process.argv);
