/** Pure: the fields a report prints that do not come from the journal, which the sandbox checks for its key before a run starts. */
import type { RunOptions } from './run-options.js';

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
