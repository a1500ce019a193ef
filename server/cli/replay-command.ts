/** `pos-sandbox orders replay FILE`: a failure stress saved, sent again through the running sandbox and judged alike: exit 1 while it fails, 0 once the POS takes it. */
import { Command } from 'commander';
import { readPlainFile } from '../store/read-plain-file.js';
import { printable } from '../http/messages.js';
import { FAILURE_FORMAT, type FailureFile, CaseRunner } from '../stress/stress-run.js';
import { DEFAULT_DEADLINES } from '../stress/delivery-verdict.js';
import { ControlError } from './control-client.js';
import { print, sandboxOption, withSandbox, type Common } from './control-command-kit.js';

const MAX_FILE_BYTES = 16 * 1024 * 1024;

export function replayCommand(): Command {
  return new Command('replay')
    .description('send an order `pos-sandbox stress` saved (failures/<kind>.json) to the POS again, and say whether it still fails the same way')
    .argument('<file>', 'the saved failure')
    .option('--pos-order-url <url>', "where the order goes (default: the sandbox's --pos-order-url)")
    .option('--status-window-ms <ms>', 'how long to wait for the POS to decide the order (default: 2000)')
    .addOption(sandboxOption())
    .addHelpText('after', '\nExit codes: 0 the POS takes the order now; 1 it still fails (the same way, or another, said); 2 not a saved failure.')
    .action((file: string, flags: Common & { posOrderUrl?: string; statusWindowMs?: string }) => {
      const read = readPlainFile(file, MAX_FILE_BYTES, 'a saved failure');
      let saved: FailureFile;
      try {
        if ('problem' in read) throw new Error(read.problem);
        saved = JSON.parse(read.text) as FailureFile;
        if (saved?.format !== FAILURE_FORMAT || typeof saved.order !== 'object' || saved.order === null) throw new Error(`it is not a ${FAILURE_FORMAT} file (what pos-sandbox stress writes into failures/)`);
      } catch (error) {
        process.stderr.write(`pos-sandbox orders replay: ${file}: ${(error as Error).message}\n`);
        process.exit(2);
      }
      const windowMs = Number(flags.statusWindowMs ?? 2000);
      return withSandbox(flags, async (client) => {
        const runner = new CaseRunner(client, windowMs, DEFAULT_DEADLINES, flags.posOrderUrl);
        let verdict, sent;
        try {
          ({ verdict, record: sent } = await runner.send({ order: saved.order, duplicate: saved.duplicate === true }));
        } catch (error) {
          if (error instanceof ControlError && / answered 400/.test(error.message)) throw new ControlError(`the sandbox does not take the saved order: ${error.message}`);
          throw error;
        }
        if (verdict.ok) {
          print([`passes now: order ${sent.OrderId} was taken (${sent.Status}) in ${Math.round(verdict.decidedMs)} ms; it failed with ${saved.kind} when saved`]);
          return;
        }
        // The same failure: the same kind, and for a refusing answer the same answer (numbers and ids aside).
        const same = verdict.kind === saved.kind && (typeof saved.signature !== 'string' || verdict.signature === saved.signature);
        print([`${same ? 'still fails' : 'fails another way'}: ${verdict.kind}: ${printable(verdict.message)}`, `  order ${sent.OrderId}; pos-sandbox orders show ${sent.OrderId} shows every try`, ...(same ? [] : [`  it failed with ${saved.kind} when saved: ${printable(saved.message)}`])]);
        process.exitCode = 1;
      });
    });
}
