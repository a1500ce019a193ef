/** The last guard of all the command prints: every chunk passes terminalSafe, whatever path its text took. */
import { terminalSafe } from '../http/messages.js';
import { StartupError } from '../errors.js';

export function guardTerminalOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => write(typeof chunk === 'string' ? terminalSafe(chunk) : Buffer.isBuffer(chunk) ? terminalSafe(chunk.toString('utf8')) : chunk, ...rest)) as typeof stream.write;
  }
}

/** A reader that stops early (`| head -5`) closes the pipe: the command then ends quietly, as `cat` does, not with EPIPE's stack. */
export function endQuietlyWhenThePipeCloses(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
}

/** Turns a known start-up failure into a message on stderr and exit code 2; anything else is a crash with its stack. */

export async function exitWith(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof StartupError) {
      process.stderr.write(`pos-sandbox: ${error.message}\n`);
    } else if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      process.stderr.write(`pos-sandbox: cannot listen: ${(error as Error).message}; pick another --port (or PORT) or --host\n`);
    } else {
      throw error;
    }
    process.exit(2);
  }
}
