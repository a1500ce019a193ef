/** npm run bench:soak: refunds for BENCH_SOAK_SECONDS against a data file; is the last window as fast as the first? */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinLoadGenerator } from './bench-process.js';
import { fillState } from './soak-and-memory.js';

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const dir = mkdtempSync(join(tmpdir(), 'soak-'));
try {
  pinLoadGenerator();
  const { soak, state } = await fillState(join(dir, 'db.json'), [], 0, SECONDS);
  console.log(`POST /v2/order/refund, data file, 10 connections, ${SECONDS} s after 5 s of warm-up; server on core 0, load on core 1`);
  console.log(`first ${soak!.seconds} s: ${soak!.first.toFixed(0)} req/s   last ${soak!.seconds} s: ${soak!.last.toFixed(0)} req/s   ratio last/first: ${(soak!.last / soak!.first).toFixed(2)}`);
  console.log(`p99 ${soak!.p99} ms, non-2xx ${soak!.non2xx}; refunds sent ${state.sent}, kept ${state.kept}; RSS ${state.rssMb.toFixed(0)} MB; data folder ${state.folderMb.toFixed(1)} MB in ${state.files} files`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
