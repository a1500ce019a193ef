/** `pos-sandbox certify` once its options are checked: the sandbox first (a POS may call it while it starts), then the POS waited for, then the checklist; resolves with the exit code. */
import { DEFAULT_REFUND_DELAY_MS, deliveryPolicy } from '../config.js';
import { runAndReport } from './checklist.js';
import { startInProcessSandbox, type InProcessSandbox } from './in-process-sandbox.js';
import { causeOf } from '../../certification-checklist/sandbox-control.js';
import type { Capability } from '../../certification-checklist/checklist-types.js';

export interface CertifyOptions {
  driverUrl: string;
  posOrderUrl: string;
  port: number;
  capabilities: Capability[];
  only?: string[];
  pos: { name?: string; version?: string; build?: string };
  reportDir: string;
  posTimeoutMs: number;
  waitMs?: number;
  windowMs: number;
}

export async function runCertify(options: CertifyOptions): Promise<number> {
  let running: InProcessSandbox;
  try {
    running = await startInProcessSandbox({ port: options.port, refundDelayMs: DEFAULT_REFUND_DELAY_MS, dispatch: deliveryPolicy({}), reportDir: options.reportDir, posOrderUrl: options.posOrderUrl });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
    process.stderr.write(`pos-sandbox certify: port ${options.port} on 127.0.0.1 is ${code === 'EADDRINUSE' ? 'in use' : 'not open to this user'}: stop what listens there, or pass --port (the POS must send its calls to that port)\n`);
    return 2;
  }
  try {
    process.stdout.write(`pos-sandbox certify: sandbox ${running.url} (in memory, partner ${running.partner.name}: the iss of the POS's tokens, SANDBOX_PARTNER); waiting for the POS at ${options.driverUrl}/health\n`);
    // --pos-name only names the POS in the report: a POS that signs as that name would fail every call.
    if (options.pos.name !== undefined && options.pos.name !== running.partner.name) {
      process.stdout.write(`  note: the report names the POS '${options.pos.name}', but the sandbox plays partner '${running.partner.name}': the POS's tokens must carry iss '${running.partner.name}' and its key. For your own, set SANDBOX_PARTNER and SANDBOX_NONPROD_KEY\n`);
    }
    const pos = await waitForPos(options.driverUrl, options.posTimeoutMs);
    if (!pos.ok) {
      process.stderr.write(`pos-sandbox certify: ${pos.problem}\n`);
      return 2;
    }
    return await runAndReport(
      {
        sandboxUrl: running.url,
        posOrderUrl: options.posOrderUrl,
        mode: 'driver',
        driverUrl: options.driverUrl,
        capabilities: options.capabilities,
        ...(options.only ? { only: options.only } : {}),
        ...(options.waitMs ? { waitMs: options.waitMs } : {}),
        windowMs: options.windowMs,
        ...(Object.keys(options.pos).length > 0 ? { pos: options.pos } : {}),
        out: process.stdout,
      },
      options.reportDir,
      // Its own sandbox, in memory, with a key of the run's own: the report carries the key and says self-signed.
      running.sandbox.reportKeys,
      process.stdout,
      true,
    );
  } finally {
    await running.close();
  }
}

/** Waits for the POS's driver to answer GET /health with 2xx, as a CI job starts both side by side; else one sentence naming the URL and the last thing seen. */

const POLL_MS = 250;

export async function waitForPos(driverUrl: string, timeoutMs: number, fetchImpl: typeof fetch = fetch): Promise<{ ok: true } | { ok: false; problem: string }> {
  const url = new URL('health', driverUrl.endsWith('/') ? driverUrl : `${driverUrl}/`).href;
  const deadline = Date.now() + timeoutMs;
  let last: string;
  for (;;) {
    const left = deadline - Date.now();
    try {
      const response = await fetchImpl(url, { signal: AbortSignal.timeout(Math.max(1, Math.min(2_000, left))) });
      await response.body?.cancel();
      if (response.ok) return { ok: true };
      last = `answered ${response.status}`;
    } catch (error) {
      last = (error as Error).name === 'TimeoutError' ? 'no answer' : causeOf(error);
    }
    if (Date.now() + POLL_MS > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { ok: false, problem: `the POS did not answer GET ${url} within ${Math.round(timeoutMs / 1000)} s (last: ${last}): start the POS test build first, point --driver at its driver's base URL (the one serving GET /health), or give it longer with --pos-timeout-s` };
}
