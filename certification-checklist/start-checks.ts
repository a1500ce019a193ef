/** What a run checks before it sends anything (exit 2): the sandbox answers, the POS's URLs accept a connection, and no report field holds the key. */
import { REFERENCE_POS_PRODUCT } from './driver-contract.js';
import { heldSecretMessage, reportFields } from './report-fields.js';
import type { RunOptions } from './run-options.js';
import { causeOf, ControlError, type SandboxControl, type SandboxHealth } from './sandbox-control.js';

/** The run could not start: the message names the URL that could not be reached, or the field at fault. Exit code 2. */
export class StartError extends Error {}

/** Exit 2 material: the sandbox must answer; the driver and the order endpoint must at least accept a connection. */
export async function startChecks(sandbox: SandboxControl, options: RunOptions): Promise<{ health: SandboxHealth; referencePos: boolean }> {
  let health: SandboxHealth;
  try {
    health = await sandbox.health();
  } catch (error) {
    // A sandbox that answered runs: only one that did not is to be started.
    if (error instanceof ControlError && error.answered) throw new StartError(error.message);
    throw new StartError(`${(error as Error).message}; start it with npm start (or pass --sandbox URL, or set SANDBOX_URL)`);
  }
  // A report is shared: the sandbox judges its fields with its redaction before a run.
  const [holding] = await sandbox.secretsIn(reportFields(options));
  if (holding !== undefined) throw new StartError(heldSecretMessage(holding));
  let referencePos = false;
  if (options.mode === 'driver') {
    const driverHealth = await reachable(new URL('health', withSlash(options.driverUrl!)).href, 'the POS driver', options, true);
    referencePos = (driverHealth as { product?: unknown } | undefined)?.product === REFERENCE_POS_PRODUCT;
  }
  if (options.posOrderUrl && options.mode !== 'passive') await reachable(options.posOrderUrl, "the POS's order endpoint", options);
  // Orders would go nowhere: every order item would end in an error. Said once, before anything is sent.
  if (!options.posOrderUrl && options.mode !== 'passive' && health.delivery?.posOrderUrl === null) {
    throw new StartError(`the sandbox at ${options.sandboxUrl} has no POS order URL, so the checklist's orders would go nowhere: pass --pos-order-url URL (or SANDBOX_POS_ORDER_URL), or start the sandbox with --pos-order-url`);
  }
  return { health, referencePos };
}

/** Nothing listening (or, with `ok2xx`, no 2xx) stops the run; a silent server goes through, and its items end blocked. */
async function reachable(url: string, what: string, options: RunOptions, ok2xx = false): Promise<unknown> {
  const waitMs = options.startWaitMs ?? DEFAULT_START_WAIT_MS;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { signal: AbortSignal.timeout(waitMs) });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') {
      options.out.write(silentNote(what, url, waitMs));
      return undefined;
    }
    throw new StartError(`cannot reach ${what} at ${url}: ${causeOf(error)}`);
  }
  if (ok2xx && !response.ok) throw new StartError(`${what} at ${url} answered ${response.status}, not 2xx: is the URL the driver's base URL (the one serving GET /health, POST /decide …)?`);
  return await response.json().catch(() => undefined);
}

/** How long a start check waits for an answer unless told otherwise. */
export const DEFAULT_START_WAIT_MS = 3_000;

/** The line a start check prints for a server that accepted the connection and stayed silent for `waitMs`. */
export const silentNote = (what: string, url: string, waitMs: number) => `  note: ${what} at ${url} accepted the connection but did not answer within ${waitMs / 1000} s; going on\n`;

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);
