/** How long each `pos-sandbox` command takes before it does anything (every --help, token, status), the median of 7 runs on the server core. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SUBCOMMANDS } from '../server/cli/program.js';
import { PACKAGE_ROOT } from '../server/version.js';
import { SERVER_CORE, startServer } from './bench-process.js';

export const CLI_TARGET_MS = 300;

/** The median wall time of `node <bin> ...args` over `runs`, the first (disk cache) not counted. */
export function commandMs(bin: string, args: string[], runs = 7): number {
  const times: number[] = [];
  for (let run = 0; run <= runs; run++) {
    const started = performance.now();
    const done = spawnSync('taskset', ['-c', SERVER_CORE, process.execPath, join('bin', bin), ...args], { cwd: PACKAGE_ROOT, stdio: 'ignore' });
    if (done.status !== 0) throw new Error(`${bin} ${args.join(' ')} exited with ${done.status}`);
    if (run > 0) times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

export interface CliStart {
  command: string;
  ms: number;
}

export async function cliStarts(): Promise<CliStart[]> {
  const commands: Array<[label: string, bin: string, args: string[]]> = [
    ['pos-sandbox --help', 'pos-sandbox.js', ['--help']],
    ...SUBCOMMANDS.map(({ name }): [string, string, string[]] => [`pos-sandbox ${name} --help`, 'pos-sandbox.js', [name, '--help']]),
    ['pos-sandbox token --location loc-std-001', 'pos-sandbox.js', ['token', '--location', 'loc-std-001']],
    ['pos-sandbox-reference-pos --help', 'reference-pos.js', ['--help']],
  ];
  const starts = commands.map(([command, bin, args]) => ({ command, ms: commandMs(bin, args) }));
  // A control command's time includes its request, answered by a sandbox left unpinned (the command is on SERVER_CORE).
  const sandbox = await startServer([join('bin', 'pos-sandbox.js'), 'serve', '--memory']);
  try {
    starts.push({ command: 'pos-sandbox status (a running sandbox answers)', ms: commandMs('pos-sandbox.js', ['status', '--sandbox', sandbox.url]) });
  } finally {
    sandbox.child.kill('SIGKILL');
  }
  return starts;
}

/** The Markdown table `npm run bench` and `npm run bench:cli` print. */
export function cliStartTable(starts: CliStart[]): string[] {
  return [
    `| command | ms (median of 7) | under ${CLI_TARGET_MS} ms |`,
    '|---|---|---|',
    ...starts.map(({ command, ms }) => `| \`${command}\` | ${ms.toFixed(0)} | ${ms < CLI_TARGET_MS ? 'yes' : '**no**'} |`),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(`Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:cli\`, Node ${process.version}, on core ${SERVER_CORE}.\n`);
  console.log(cliStartTable(await cliStarts()).join('\n'));
}
