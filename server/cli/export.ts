/** `pos-sandbox export`: files that let other tools use the sandbox; one subcommand per tool. */
import { Command } from 'commander';
import { exportPostmanCommand } from './export-postman.js';

export function exportCommand(): Command {
  return new Command('export').description('write files that let another tool use the sandbox (postman)').addCommand(exportPostmanCommand());
}
