/** Pure: what `serve` prints once it listens, down to a curl that performs a valid refund. */
import type { PartnerIdentity } from '../config.js';
import type { Location } from '../fixtures/fixture-schemas.js';
import { DEFAULT_SANDBOX_URL } from './control-client.js';

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
  /** What the start says of stored files it used though part of them is gone (store/check-stored-state.ts). */
  stateNotes?: string[];
  /** The fault rules in force at start: from a --faults file, kept in the stored state, or none. */
  faults?: { count: number; from: string | undefined };
  sample: { token: string; ttlSeconds: number; locationId: string; externalId: string };
  /** Where the non-prod key came from: the fixtures' demo key, or the partner's own (SANDBOX_NONPROD_KEY). */
  keyFrom: 'fixtures' | 'environment';
  /** --show-key: print the partner's own key whole. */
  showKey?: boolean;
  /** Where the x-api-key shown comes from; `none` for another partner, whose fixture value would read as its own. */
  apiKeyFrom?: 'fixtures' | 'environment' | 'none';
  /** How the user runs the CLI and the reference POS where this sandbox runs: a clone's commands unless said. */
  commands?: Commands;
}

export interface Commands {
  cli: string;
  referencePos: string;
}

const CLONE_COMMANDS: Commands = { cli: 'npx pos-sandbox', referencePos: 'npm run reference-pos' };
/** The standalone executable's own: no npx or npm where it runs. */
export const STANDALONE_COMMANDS: Commands = { cli: 'pos-sandbox', referencePos: 'pos-sandbox reference-pos' };

/** What the curl sends as x-api-key when the partner's own value is not known: any value is taken. */
export const API_KEY_PLACEHOLDER = 'your-x-api-key';

/** The first and last 4 characters: enough to tell two keys apart, not enough to use one. */
export function maskKey(key: string): string {
  return key.length <= 12 ? '…'.repeat(Math.min(key.length, 3)) : `${key.slice(0, 4)}…${key.slice(-4)}`;
}

function keyLines(partner: PartnerIdentity, keyFrom: BannerInput['keyFrom'], showKey: boolean): string[] {
  if (keyFrom === 'fixtures') {
    return [`  non-prod key:          ${partner.nonProdKey}`, `                         SANDBOX ONLY: use it for this sandbox and nothing else`];
  }
  return showKey
    ? [`  non-prod key:          ${partner.nonProdKey}`, `                         your own non-prod key (SANDBOX_NONPROD_KEY), shown whole by --show-key`]
    : [`  non-prod key:          ${maskKey(partner.nonProdKey)}`, `                         your own non-prod key (SANDBOX_NONPROD_KEY), masked; --show-key prints it whole`];
}

const shownApiKey = (input: BannerInput) => (input.apiKeyFrom === 'none' || !input.partner.apiKey ? API_KEY_PLACEHOLDER : input.partner.apiKey);

/** Every call carries x-api-key (§5 migration notes); the banner says whose value it shows. */
function apiKeyNote(input: BannerInput): string {
  if (input.apiKeyFrom === 'environment') return `${input.partner.apiKey} (SANDBOX_API_KEY); sent with every call, any value is taken`;
  if (input.apiKeyFrom === 'none' || !input.partner.apiKey) return 'yours, sent with every call (§5 migration notes); any value is taken, SANDBOX_API_KEY shows it here';
  return `${input.partner.apiKey}, sent with every call (§5 migration notes); any value is taken`;
}

/** On another address than the default, the exact way to point the other commands at this sandbox. */
function elsewhereLines(baseUrl: string, commands: Commands): string[] {
  if (baseUrl === DEFAULT_SANDBOX_URL) return [];
  return [
    `  other commands:        this sandbox is not at ${DEFAULT_SANDBOX_URL}; point them here once:`,
    `                           export SANDBOX_URL=${baseUrl}`,
    `                         then pos-sandbox status / orders / journal tail / checklist and ${commands.referencePos} find it`,
    `                         (or give each --sandbox ${baseUrl})`,
  ];
}

export function startupBanner(input: BannerInput): string {
  const { partner, sample } = input;
  const commands = input.commands ?? CLONE_COMMANDS;
  const locations = input.locations.map((l) => `    ${l.id.padEnd(22)} ${l.kind.padEnd(9)} ${l.name}`);
  const curl = [
    `curl -i -X POST ${input.baseUrl}/v2/order/refund \\`,
    `  -H 'Authorization: Bearer ${sample.token}' \\`,
    `  -H 'x-service-locationid: ${sample.locationId}' \\`,
    `  -H 'x-api-key: ${shownApiKey(input)}' \\`,
    `  -H 'x-api-version: 2' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"ExternalId":"${sample.externalId}"}'`,
  ];
  return [
    `POS Sandbox ${input.version} listening on ${input.baseUrl}`,
    '',
    `  POS name (token iss):  ${partner.name}`,
    ...keyLines(partner, input.keyFrom, input.showKey === true),
    `  token audience:        io.service.pos.brokers.openapi`,
    `  x-api-key:             ${apiKeyNote(input)}`,
    `  fixtures:              ${input.fixturesDir}`,
    `  state:                 ${input.state}`,
    ...(input.stateNotes ?? []).map((note) => `    ! ${note}`),
    `  dashboard:             ${input.baseUrl}/  (traffic, orders, faults, tokens and the checklist, live)`,
    `  control API:           ${input.baseUrl}/_sandbox/health, /orders, /refunds, /faults, /journal, /journal.har, /events, /openapi.json`,
    `  menu updates:          PUT ${input.baseUrl}/v2/menu; payloads in menu-template/, checked offline by ${commands.cli} validate-menu FILE`,
    `  orders to the POS go:  ${input.posOrderUrl ?? `(nowhere yet: --pos-order-url URL or SANDBOX_POS_ORDER_URL; ${commands.referencePos} listens on http://127.0.0.1:4200/order)`}`,
    ...(input.posOrderUrl
      ? [`  send one:              curl -s -X POST '${input.baseUrl}/_sandbox/orders?wait=true' -H 'Content-Type: application/json' -d '{"template":"standard"}'`]
      : []),
    ...faultLine(input.faults),
    ...elsewhereLines(input.baseUrl, commands),
    `  mode:                  ${input.strict ? 'strict (findings are rejections)' : 'normal (findings are warnings; --strict rejects them)'}`,
    '  locations:',
    ...locations,
    '',
    `A refund with a token valid for ${Math.round(sample.ttlSeconds / 60)} minutes (new tokens: ${commands.cli} token --location ID):`,
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

export interface HostedBannerInput {
  version: string;
  baseUrl: string;
  state: string;
  partnersFile: string;
  instanceId: string;
  operator: boolean;
  /** Who signs the reports: the deployment and its signing kid, or undefined for a key of this process's own. */
  reportSigning: { deployment: string; kid: string; keys: number } | undefined;
  partners: Array<{ name: string; locations: number; posOrderUrl: string | undefined }>;
}

/** What `serve --partners` prints: no key and no token, since a hosted sandbox's log is read by its operators. */
export function hostedBanner(input: HostedBannerInput): string {
  const width = Math.max(...input.partners.map((partner) => partner.name.length));
  return [
    `POS Sandbox ${input.version} hosting ${input.partners.length} partner${input.partners.length === 1 ? '' : 's'}, listening on ${input.baseUrl}`,
    '',
    `  partners file:  ${input.partnersFile}`,
    `  state:          ${input.state}`,
    `  instance:       ${input.instanceId}`,
    `  control API:    each partner with its admin token (Authorization: Bearer …)${input.operator ? "; the operator's token with x-sandbox-partner: NAME" : ''}`,
    `  readiness:      ${input.baseUrl}/_sandbox/ready (no token; 503 while stopping)`,
    `  dashboard:      ${input.baseUrl}/  (asks for the partner's admin token)`,
    input.reportSigning === undefined
      ? `  reports:        self-signed with a key of this process (no reportSigning in the partners file); keys at ${input.baseUrl}/.well-known/jwks.json`
      : `  reports:        signed for deployment ${input.reportSigning.deployment} with kid ${input.reportSigning.kid} (${input.reportSigning.keys} key${input.reportSigning.keys === 1 ? '' : 's'} published at ${input.baseUrl}/.well-known/jwks.json)`,
    '  partners:',
    ...input.partners.map((partner) => `    ${partner.name.padEnd(width)}  ${partner.locations} location${partner.locations === 1 ? '' : 's'}  orders to ${partner.posOrderUrl ?? '(nowhere yet)'}`),
    '',
    'A POS call is the partner\'s whose POS name is its token\'s iss; docs/hosting.md says the rest.',
  ].join('\n');
}
