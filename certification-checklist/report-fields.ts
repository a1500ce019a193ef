/**
 * Pure: the fields of a run that its report prints and that do not come from the journal (the POS's name, version and
 * build, the URLs of the run), by the flag that gave each. A report is attached to a certification request and passed
 * around: the sandbox judges these fields with its redaction (`POST /_sandbox/secrets/check`) before the run starts,
 * and a field holding the partner's key or a token stops it.
 */
import type { RunOptions } from './runner.js';

export function reportFields(options: Pick<RunOptions, 'pos' | 'driverUrl' | 'posOrderUrl' | 'sandboxUrl'>): Record<string, string> {
  const fields: Array<[string, string | undefined]> = [
    ['--pos-name', options.pos?.name],
    ['--pos-version', options.pos?.version],
    ['--pos-build', options.pos?.build],
    ['--driver', options.driverUrl],
    ['--pos-order-url', options.posOrderUrl],
    ['--sandbox', options.sandboxUrl],
  ];
  return Object.fromEntries(fields.filter((field): field is [string, string] => field[1] !== undefined));
}

/** What a run says of a field that holds a secret. */
export const heldSecretMessage = (field: string) => `${field} holds the partner's non-prod key or a token, and a report is shared: write the report's fields without it (§5: the key is kept confidential)`;
