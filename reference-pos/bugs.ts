/** The --bug switches that break the reference POS on purpose (SANDBOX-SPEC §10), each proving a check can fail. */
export const BUGS = {
  'reuse-jti': 'every token it sends to the sandbox carries the same jti',
  'float-prices': 'menu updates carry prices in major units with decimals (12.5) instead of whole minor units',
  'no-idempotency': 'a second delivery of the same OrderId gets a new ExternalId',
  'accept-bad-signature': 'orders are accepted without checking the token signature',
  'wrong-location': 'every call to the sandbox uses the first location it ever saw, not the order’s own',
  'no-external-id': 'order replies carry no ExternalId',
  'slow-ack': 'order replies come after --slow-ack-ms (default 12 s, past the sandbox’s 10 s timeout)',
} as const;

export type Bug = keyof typeof BUGS;

/** Parses `a,b` into known bugs; an unknown name throws with the list. */
export function parseBugs(list: string | undefined): Set<Bug> {
  const names = (list ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.filter((name) => !(name in BUGS));
  if (unknown.length > 0) {
    throw new Error(`unknown --bug ${unknown.map((name) => `'${name}'`).join(', ')}; the switches are ${Object.keys(BUGS).join(', ')}`);
  }
  return new Set(names as Bug[]);
}
