/** Pure: what `serve` prints once it listens, down to a curl that performs a valid refund. */
import type { PartnerIdentity } from '../config.js';
import type { Location } from '../fixtures/fixture-schemas.js';

export interface BannerInput {
  version: string;
  baseUrl: string;
  partner: PartnerIdentity;
  locations: Location[];
  posOrderUrl: string | undefined;
  strict: boolean;
  fixturesDir: string;
  /** The data file, or "memory". */
  state: string;
  /** The fault rules in force at start: from a --faults file, kept in the stored state, or none. */
  faults?: { count: number; from: string | undefined };
  sample: { token: string; ttlSeconds: number; locationId: string; externalId: string };
}

export function startupBanner(input: BannerInput): string {
  const { partner, sample } = input;
  const locations = input.locations.map((l) => `    ${l.id.padEnd(22)} ${l.kind.padEnd(9)} ${l.name}`);
  const curl = [
    `curl -i -X POST ${input.baseUrl}/v2/order/refund \\`,
    `  -H 'Authorization: Bearer ${sample.token}' \\`,
    `  -H 'x-service-locationid: ${sample.locationId}' \\`,
    ...(partner.apiKey ? [`  -H 'x-api-key: ${partner.apiKey}' \\`] : []),
    `  -H 'x-api-version: 2' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"ExternalId":"${sample.externalId}"}'`,
  ];
  return [
    `POS Sandbox ${input.version} listening on ${input.baseUrl}`,
    '',
    `  POS name (token iss):  ${partner.name}`,
    `  non-prod key:          ${partner.nonProdKey}`,
    `                         SANDBOX ONLY: use it for this sandbox and nothing else`,
    `  token audience:        io.service.pos.brokers.openapi`,
    `  fixtures:              ${input.fixturesDir}`,
    `  state:                 ${input.state}`,
    `  control API:           ${input.baseUrl}/_sandbox/health, /orders, /refunds, /faults, /journal, /journal.har, /events, /openapi.json`,
    `  menu updates:          PUT ${input.baseUrl}/v2/menu; payloads in menu-template/, checked offline by npx pos-sandbox validate-menu FILE`,
    `  orders to the POS go:  ${input.posOrderUrl ?? '(nowhere yet: --pos-order-url URL or SANDBOX_POS_ORDER_URL; npm run reference-pos listens on http://127.0.0.1:4200/order)'}`,
    ...(input.posOrderUrl
      ? [`  send one:              curl -s -X POST '${input.baseUrl}/_sandbox/orders?wait=true' -H 'Content-Type: application/json' -d '{"template":"standard"}'`]
      : []),
    ...faultLine(input.faults),
    `  mode:                  ${input.strict ? 'strict (findings are rejections)' : 'normal (findings are warnings; --strict rejects them)'}`,
    '  locations:',
    ...locations,
    '',
    `A refund with a token valid for ${Math.round(sample.ttlSeconds / 60)} minutes (new tokens: npx pos-sandbox token --location ID):`,
    '',
    ...curl,
    '',
  ].join('\n');
}

function faultLine(faults: BannerInput['faults']): string[] {
  if (!faults) return [];
  const rules = `${faults.count} rule${faults.count === 1 ? '' : 's'}`;
  if (faults.from === 'none' || (faults.count === 0 && faults.from === 'stored')) {
    return ['  fault rules:           none (POST /_sandbox/faults, --faults FILE, or the x-sandbox-fault header)'];
  }
  if (faults.from === 'stored') return [`  fault rules:           ${rules} kept from the last run (GET /_sandbox/faults; DELETE /_sandbox/faults clears them)`];
  return [`  fault rules:           ${rules} from ${faults.from} (GET /_sandbox/faults shows what each has left)`];
}
