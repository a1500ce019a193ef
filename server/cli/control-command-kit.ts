/** What every control command shares (docs/cli.md): its sandbox found one way, a failure said once (exit 1; a bad command line 2), lines for people or JSON. */
import { InvalidArgumentError, Option } from 'commander';
import pc from 'picocolors';
import { ControlError, controlClient, type ControlClient, resolveSandboxUrl } from './control-client.js';
import type { Paint } from './control-format.js';

export interface Common {
  sandbox?: string;
  json?: boolean;
}

/** picocolors decides: a terminal, FORCE_COLOR, no NO_COLOR. */
export const paint: Paint = pc.createColors(pc.isColorSupported);

export const sandboxOption = () => new Option('--sandbox <url>', 'the running sandbox (default: SANDBOX_URL, else http://127.0.0.1:4100)');
export const jsonOption = () => new Option('--json', "print the control API's JSON instead of lines");

export function wholeNumber(name: string, min = 1): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || parsed < min) throw new InvalidArgumentError(`${name} must be a whole number from ${min}, got '${value}'`);
    return parsed;
  };
}

/** Runs a control command: the client, the failure said once on stderr (exit 1), a bad sandbox URL exit 2. */
export async function withSandbox(flags: Common, run: (client: ControlClient) => Promise<unknown>): Promise<void> {
  const resolved = resolveSandboxUrl(flags.sandbox, process.env);
  if (!resolved.ok) {
    process.stderr.write(`pos-sandbox: ${resolved.problem}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    await run(controlClient(resolved.url, process.env));
  } catch (error) {
    if (!(error instanceof ControlError)) throw error;
    process.stderr.write(`pos-sandbox: ${error.message}\n`);
    process.exitCode = 1;
  }
}

export const print = (lines: string[]) => process.stdout.write(`${lines.join('\n')}\n`);
export const printJson = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
export const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams(Object.entries(params).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])));
  return search.size === 0 ? '' : `?${search}`;
};
export const ident = (id: string) => encodeURIComponent(id);
export const journalNumber = (id: string) => Number(id.replace(/^j-/, ''));
