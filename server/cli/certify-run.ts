/**
 * What `pos-sandbox certify` runs once its options are checked (certify.ts): the sandbox first, so a POS that calls
 * it while it starts finds it; then the POS waited for; then the checklist. Resolves with the exit code.
 */
import { DEFAULT_REFUND_DELAY_MS, deliveryPolicy } from '../config.js';
import type { CertifyOptions } from './certify.js';
import { runAndReport } from './checklist.js';
import { startInProcessSandbox, type InProcessSandbox } from './in-process-sandbox.js';
import { waitForPos } from './wait-for-pos.js';

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
