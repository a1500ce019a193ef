/** `pos-sandbox demo` once its options are checked: a sandbox and the reference POS in this process and the whole checklist against them; resolves with the exit code. */
import { createReferencePos } from '../../reference-pos/app.js';
import type { Bug } from '../../reference-pos/bugs.js';
import type { Capability } from '../../certification-checklist/checklist-types.js';
import type { ServeConfig } from '../config.js';
import { runAndReport } from './checklist.js';
import { startInProcessSandbox } from './in-process-sandbox.js';

export interface DemoRun {
  bugs: Set<Bug>;
  capabilities: Capability[];
  windowMs: number;
  refundDelayMs: number;
  dispatch: ServeConfig['dispatch'];
  reportDir: string;
  /** Leave the sandbox and the reference POS listening after the run, for the dashboard. */
  keep?: boolean;
  /** The sandbox's port; 0 picks a free one. */
  port?: number;
}

export async function runDemo({ bugs, capabilities, windowMs, refundDelayMs, dispatch, reportDir, keep = false, port = 0 }: DemoRun): Promise<number> {
  const running = await startInProcessSandbox({ port, refundDelayMs, dispatch, reportDir });
  const { url: sandboxUrl, fixtures, partner } = running;
  const pos = createReferencePos({
    identity: { posName: partner.name, key: partner.nonProdKey, apiKey: partner.apiKey },
    sandboxUrl,
    menus: fixtures.menus,
    locations: fixtures.locations,
    bugs,
    // --bug slow-ack replies past the delivery timeout, whatever --delivery-timeout-ms made it (12 s for 10 s).
    slowAckMs: Math.round(dispatch.attemptTimeoutMs * 1.2),
  });
  const posUrl = await running.listen(pos);
  process.stdout.write(
    [
      'POS Sandbox demo',
      `  sandbox:        ${sandboxUrl}  (in memory, partner ${partner.name})`,
      `  reference POS:  ${posUrl}  (bugs: ${bugs.size > 0 ? [...bugs].join(', ') : 'none, a correct POS'})`,
      `  dashboard:      ${sandboxUrl}/  (open it to watch the run${keep ? '; it stays up after the run, until Ctrl-C' : '; --keep leaves it up after the run'})`,
      '',
    ].join('\n'),
  );
  const options = {
    sandboxUrl,
    posOrderUrl: `${posUrl}/order`,
    mode: 'driver' as const,
    driverUrl: posUrl,
    capabilities,
    windowMs,
    pos: { referencePos: true },
    out: process.stdout,
  };
  const code = await runAndReport(options, reportDir, running.sandbox.reportKeys);
  if (keep) {
    process.stdout.write(`\nThe sandbox stays up: the dashboard at ${sandboxUrl}/ shows the run's traffic, orders and report. Ctrl-C stops it.\n`);
    return code;
  }
  await running.close();
  return code;
}
