/**
 * The last guard of everything the pos-sandbox command prints: each chunk written to stdout and stderr passes through
 * terminalSafe (domain/printable-text.ts), which keeps the command's own colours and line ends and escapes every
 * other control character, whatever path the text took (an error message quoting a server, a report read back).
 * Data is made printable before it is formatted too; this catches what no formatter thought of.
 */
import { terminalSafe } from '../http/messages.js';

export function guardTerminalOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => write(typeof chunk === 'string' ? terminalSafe(chunk) : Buffer.isBuffer(chunk) ? terminalSafe(chunk.toString('utf8')) : chunk, ...rest)) as typeof stream.write;
  }
}

/**
 * A reader that stops early (`| head -5`, `| grep -m1`) closes the pipe while the command still writes: the write
 * fails with EPIPE, which unhandled ended the command with a stack trace. The reader has what it wanted, so the
 * command ends quietly, as `cat` and `git log` do.
 */
export function endQuietlyWhenThePipeCloses(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
}
