/** npm run check:doc-commands: every `sh` block of docs/install.md run as written, in order, in one shell as a reader types them (docs/install.md says how). */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../server/version.js';
import { pathWithoutNode } from './package-check/path-without-node.js';
import { run } from './package-check/processes.js';

interface Block {
  heading: string;
  lines: string[];
}

/** The page's `sh` blocks, each with the heading it sits under. */
function shellBlocks(page: string): Block[] {
  const blocks: Block[] = [];
  let heading = '';
  let block: Block | undefined;
  for (const line of page.split('\n')) {
    if (block) {
      if (line.startsWith('```')) block = void blocks.push(block);
      else block.lines.push(line);
    } else if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    else if (line === '```sh') block = { heading, lines: [] };
  }
  return blocks;
}

/** The port a command serves on, when its comment says it listens `on http://127.0.0.1:N`. */
function servedPort(line: string): number | undefined {
  const said = /#.*\bon http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
  return said ? Number(said[1]) : undefined;
}

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** The blocks as one bash script: servers in the background (each its own process group) and waited for, stopped when their block ends. */
function script(blocks: Block[], placeholders: Record<string, string>, noNodePath: string): string {
  const out = [
    'set -eu',
    'set -m',
    'servers=()',
    // Polls the port until it answers; fails when the server ended first or after two minutes.
    'listening() { local port=$1 pid=$2 until=$((SECONDS + 120)); until (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; do kill -0 "$pid" 2>/dev/null || { echo "check: the server for port $port ended:"; cat "$3"; return 1; }; [ $SECONDS -lt $until ] || { echo "check: nothing listens on $port after 120 s"; return 1; }; sleep 0.1; done; }',
    'stop_servers() { local pid; for pid in "${servers[@]}"; do kill -- -"$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; servers=(); }',
    'trap stop_servers EXIT',
  ];
  blocks.forEach((block, index) => {
    const withoutNode = /where Node is not/.test(block.heading);
    out.push(`echo ${quote(`== block ${index + 1}, under "${block.heading}"${withoutNode ? ', no node on the PATH' : ''}`)}`);
    if (withoutNode) out.push('saved_path=$PATH', `PATH=${quote(noNodePath)}`, 'hash -r');
    block.lines.forEach((written, at) => {
      const line = Object.entries(placeholders).reduce((text, [placeholder, value]) => text.replaceAll(placeholder, value), written);
      if (line.trim() === '') return;
      out.push(`echo ${quote(`$ ${written}`)}`);
      const port = servedPort(line);
      if (port === undefined) return void out.push(line);
      const log = `"$LOGS/${index + 1}-${at + 1}.log"`;
      out.push(`( ${line.replace(/#.*$/, '').replace(/&\s*$/, '')} ) > ${log} 2>&1 &`, 'servers+=($!)', `listening ${port} $! ${log}`);
    });
    out.push('stop_servers');
    if (withoutNode) out.push('PATH=$saved_path', 'hash -r');
  });
  out.push('echo "check: every command ran"');
  return out.join('\n') + '\n';
}

/** Whether something answers on 127.0.0.1:`port`. */
function taken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => resolve(!socket.destroy()));
    socket.once('error', () => resolve(false));
  });
}

async function main(): Promise<void> {
  const page = readFileSync(join(PACKAGE_ROOT, 'docs', 'install.md'), 'utf8');
  const blocks = shellBlocks(page);
  const ports = [...new Set(blocks.flatMap((block) => block.lines.map(servedPort).filter((port) => port !== undefined)))];
  for (const port of ports) if (await taken(port)) throw new Error(`port ${port}, which the page's commands serve on, is taken: stop what listens there`);
  const folder = mkdtempSync(join(tmpdir(), 'pos-sandbox-doc-commands-'));
  try {
    const [reader, prefix, home, logs] = ['reader', 'global', 'home', 'logs'].map((name) => join(folder, name)) as [string, string, string, string];
    [reader, home, logs].forEach((dir) => mkdirSync(dir));
    // npm's own cache is kept, so the clone's install reads the registry no more than a reader's second install would.
    const npmCache = (await run('npm', ['config', 'get', 'cache'], { env: process.env })).stdout.trim();
    const text = script(blocks, { '<the pos-sandbox repository>': quote(PACKAGE_ROOT) }, pathWithoutNode(join(folder, 'bin-without-node')));
    // The machine's own settings (a proxy's certificates among them) are kept; the prefix and HOME are the check's.
    const env = { ...process.env, PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`, HOME: home, LOGS: logs, npm_config_prefix: prefix, npm_config_cache: npmCache, npm_config_update_notifier: 'false', NO_COLOR: '1' };
    const child = spawn('bash', ['-c', text], { cwd: reader, env, stdio: ['ignore', 'inherit', 'inherit'] });
    const code = await new Promise<number>((resolve) => child.on('close', (exit) => resolve(exit ?? 1)));
    process.stdout.write(code === 0 ? '\nEvery command of docs/install.md ran as written.\n' : `\nFAILED: the commands of docs/install.md stopped with exit ${code}\n`);
    process.exitCode = code === 0 ? 0 : 1;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
