/** npm run bench:alloc: bytes allocated per clean refund against bare Express 5, and where; steadier than req/s on a shared machine (docs/performance.md). */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { PACKAGE_ROOT } from '../server/version.js';
import { freePort, pinLoadGenerator, refundHeaders, startPinnedServer } from './bench-process.js';
import { BARE, type Target } from './refund-table.js';

const WARMUP = Number(process.env.BENCH_ALLOC_WARMUP ?? 3000);
const REFUNDS = Number(process.env.BENCH_ALLOC_REFUNDS ?? 5000);
/** Each bundled chunk of the build: where its modules start, and their names. */
const sourceMarks = new Map<string, Array<[number, string]>>();
const PROBE = pathToFileURL(join(PACKAGE_ROOT, 'bench', 'allocation-probe.mjs')).href;

const TARGETS: Target[] = [
  BARE,
  { name: 'pos-sandbox serve --memory', args: () => [join('bin', 'pos-sandbox.js'), 'serve', '--memory', '--log-level', 'warn'] },
  { name: 'pos-sandbox serve (data file, the default)', args: (dir) => [join('bin', 'pos-sandbox.js'), 'serve', '--data', join(dir, 'db.json'), '--log-level', 'warn'] },
];

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

interface Allocations {
  bytesPerRefund: number;
  /** Bytes per refund by where they were allocated: a source file of the sandbox, a package, or Node's own. */
  bySource: Map<string, number>;
}

pinLoadGenerator();
const scratch = mkdtempSync(join(tmpdir(), 'pos-sandbox-alloc-'));
try {
  const measured: Array<[Target, Allocations]> = [];
  for (const target of TARGETS) {
    process.stderr.write(`${target.name}…\n`);
    measured.push([target, await allocationsOf(target)]);
  }
  const bare = measured[0]![1].bytesPerRefund;
  const out: string[] = [];
  out.push(`Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:alloc\`, Node ${process.version}: ${REFUNDS} clean refunds (a new ExternalId each, 20 connections) after ${WARMUP} of warm-up, and the second after them.`);
  out.push('');
  out.push('| server | bytes allocated per refund | × bare Express 5 |');
  out.push('|---|---|---|');
  for (const [target, allocations] of measured) out.push(`| ${target.name} | ${Math.round(allocations.bytesPerRefund)} | ${(allocations.bytesPerRefund / bare).toFixed(2)} |`);
  const [, dataFile] = measured.at(-1)!;
  out.push('');
  out.push('Where the data file\'s sandbox allocates them (the sources of the sandbox, the packages, Node itself), bytes per refund:');
  out.push('');
  out.push('| allocated in | bytes per refund |');
  out.push('|---|---|');
  for (const [source, bytes] of [...dataFile.bySource].sort((a, b) => b[1] - a[1]).slice(0, 20)) out.push(`| ${source} | ${Math.round(bytes)} |`);
  process.stdout.write(`${out.join('\n')}\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

async function allocationsOf(target: Target): Promise<Allocations> {
  const dir = mkdtempSync(join(scratch, 'server-'));
  const file = join(dir, 'allocations.json');
  const server = await startPinnedServer(['--import', PROBE, ...target.args(dir, await freePort())], { BENCH_ALLOCATION_FILE: file });
  try {
    let sent = 0;
    const send = (amount: number) =>
      autocannon({
        url: server.url,
        connections: 20,
        amount,
        requests: [{ method: 'POST', path: '/v2/order/refund', headers: refundHeaders(), setupRequest: (request) => ({ ...request, body: JSON.stringify({ ExternalId: `ALLOC-${++sent}` }) }) }],
      });
    await send(WARMUP);
    process.kill(server.child.pid!, 'SIGWINCH');
    await waitFor(`${file}.started`);
    await send(REFUNDS);
    // The refunds are decided a second after they were accepted: that work is theirs too.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    process.kill(server.child.pid!, 'SIGWINCH');
    await waitFor(file);
    return summarize(JSON.parse(readFileSync(file, 'utf8')) as { head: ProfileNode });
  } finally {
    server.child.kill('SIGKILL');
    await new Promise((resolve) => (server.child.exitCode !== null ? resolve(undefined) : server.child.once('exit', resolve)));
  }
}

/** Waits for a file the probe writes whole (at most 30 s), and a moment more for its write to end. */
async function waitFor(path: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !existsSync(path); ) {
    if (Date.now() > deadline) throw new Error(`the server's allocation probe wrote no ${path} in 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
}

function summarize(profile: { head: ProfileNode }): Allocations {
  const bySource = new Map<string, number>();
  let total = 0;
  // A builtin has no file: what it allocates counts to its caller.
  const walk = (node: ProfileNode, caller: string | undefined) => {
    total += node.selfSize;
    const source = node.callFrame.url === '' && caller !== undefined ? caller : sourceOf(node.callFrame.url, node.callFrame.lineNumber);
    if (node.selfSize > 0) bySource.set(source, (bySource.get(source) ?? 0) + node.selfSize / REFUNDS);
    for (const child of node.children) walk(child, node.callFrame.url === '' ? caller : source);
  };
  walk(profile.head, undefined);
  return { bytesPerRefund: total / REFUNDS, bySource };
}

/** esbuild marks where each module starts in a chunk; a package is named, not its file. */
function sourceOf(url: string, line: number): string {
  if (url === '') return 'V8 (outside any script)';
  if (url.startsWith('node:')) return `Node (${url})`;
  const path = url.startsWith('file://') ? new URL(url).pathname : url;
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (!path.includes('/dist/')) return inPackage ? `package ${inPackage[1]}` : path.replace(`${PACKAGE_ROOT}/`, '');
  if (!sourceMarks.has(path)) {
    const marks: Array<[number, string]> = [];
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((text, index) => {
        const mark = /^\/\/ ((?:server|certification-checklist|reference-pos|node_modules)\/\S+)$/.exec(text);
        if (mark) marks.push([index, mark[1]!]);
      });
    sourceMarks.set(path, marks);
  }
  let source = path.replace(`${PACKAGE_ROOT}/`, '');
  for (const [at, name] of sourceMarks.get(path)!) {
    if (at > line) break;
    source = name;
  }
  const bundled = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  return bundled ? `package ${bundled[1]}` : source;
}
