/** The partners file (docs/hosting.md): every partner, its credentials, locations and where its orders go; the types come from the schema. */
import type { FromSchema } from 'json-schema-to-ts';
import { CAPABILITIES, type Capability } from '../../certification-checklist/checklist-types.js';
import { KID_PATTERN } from '../../certification-checklist/report/signing-keys.js';

/** Pure: capabilities in the checklist's words; an older file's `refunds` is `refund`, and what every POS does declares nothing. */

/** The names of an earlier version of the partners file, and what each is now (undefined: every POS does it). */
export const EARLIER_CAPABILITIES: Readonly<Record<string, Capability | undefined>> = {
  refunds: 'refund',
  orders: undefined,
  'order-status': undefined,
  'menu-form-a': undefined,
};

/** What the file's `capabilities` may hold. */
export const PARTNER_CAPABILITIES = [...CAPABILITIES, ...Object.keys(EARLIER_CAPABILITIES)] as const;

/** The declared list in the checklist's words, each once, in the checklist's order. */
export function checklistCapabilities(declared: readonly string[]): Capability[] {
  const named = new Set(declared.map((name) => (name in EARLIER_CAPABILITIES ? EARLIER_CAPABILITIES[name] : (name as Capability))));
  return CAPABILITIES.filter((capability) => named.has(capability));
}

/** A secret given inline (tests, demos), or by the name of an environment variable or a file that holds it. */
const secretSchema = {
  oneOf: [
    { type: 'string', minLength: 1 },
    { type: 'object', additionalProperties: false, required: ['env'], properties: { env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } } },
    { type: 'object', additionalProperties: false, required: ['file'], properties: { file: { type: 'string', minLength: 1 } } },
  ],
} as const;

/** What a partner may use (hosted/quotas.ts): for every partner at the top of the file, for one in its entry. */
const quotaFields = {
  requestsPerSecond: { type: ['integer', 'null'], minimum: 1, maximum: 100_000 },
  burst: { type: 'integer', minimum: 1, maximum: 100_000 },
  eventStreams: { type: 'integer', minimum: 0, maximum: 1000 },
  harExports: { type: 'integer', minimum: 0, maximum: 100 },
  harExportsPerHour: { type: ['integer', 'null'], minimum: 0, maximum: 100_000 },
  harExportBytesPerSecond: { type: ['integer', 'null'], minimum: 65_536, maximum: 1_073_741_824 },
  checklistRunsPerHour: { type: ['integer', 'null'], minimum: 0, maximum: 10_000 },
  reportsKept: { type: ['integer', 'null'], minimum: 1, maximum: 100_000 },
  reportMaxAgeDays: { type: ['integer', 'null'], minimum: 1, maximum: 36_500 },
  heldRequests: { type: 'integer', minimum: 0, maximum: 100_000 },
  deliveriesInFlight: { type: 'integer', minimum: 1, maximum: 100_000 },
  journalEntries: { type: 'integer', minimum: 1, maximum: 1_000_000 },
  journalBytes: { type: 'integer', minimum: 65_536, maximum: 4_294_967_296 },
  bodyBytes: { type: 'integer', minimum: 1024, maximum: 1_048_576 },
} as const;


export const partnersFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['partners'],
  properties: {
    $schema: { type: 'string' },
    /** The operator's token: the control API of every partner (with x-sandbox-partner naming one). */
    operatorToken: secretSchema,
    /** The operator's Ed25519 keys that sign every report (docs/certification.md): the one not retired signs, the retired stay published. */
    reportSigning: {
      type: 'object',
      additionalProperties: false,
      required: ['deployment', 'keys'],
      properties: {
        deployment: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9 ._:/-]*$' },
        keys: {
          type: 'array',
          minItems: 1,
          maxItems: 20,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['kid', 'key'],
            properties: { kid: { type: 'string', pattern: KID_PATTERN }, key: secretSchema, retired: { type: 'boolean' }, retiredAt: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?Z$' } },
          },
        },
      },
    },
    /** POS calls refused for an unknown iss, or for a partner's iss with another key, answered apart (the default, false, answers both alike). */
    tellUnknownPartners: { type: 'boolean' },
    /** Every partner's quotas, unless its entry sets its own; and the HAR exports of all partners at once. */
    quotas: {
      type: 'object',
      additionalProperties: false,
      properties: { ...quotaFields, harExportsInAll: { type: 'integer', minimum: 1, maximum: 100 }, deliveriesInAll: { type: 'integer', minimum: 1, maximum: 100_000 } },
    },
    partners: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'nonProdKey', 'adminToken'],
        properties: {
          /** The POS name: the iss of its tokens (§5), and the partner's id everywhere in the sandbox. */
          name: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' },
          displayName: { type: 'string', maxLength: 200 },
          nonProdKey: secretSchema,
          apiKey: { type: 'string', minLength: 1 },
          /** Its bearer token for the control API, the dashboard and the commands (SANDBOX_ADMIN_TOKEN there). */
          adminToken: secretSchema,
          /** A fixture folder as --fixtures takes (its partner.json is replaced by this entry); default: the bundled one. */
          fixtures: { type: 'string', minLength: 1 },
          /** The ids of the fixture folder's locations this partner gets; default: all of them. */
          locations: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', minLength: 1 } },
          posOrderUrl: { type: 'string', pattern: '^https?://' },
          capabilities: { type: 'array', uniqueItems: true, items: { enum: PARTNER_CAPABILITIES } },
          /** This partner's quotas, field by field over the file's. */
          quotas: { type: 'object', additionalProperties: false, properties: quotaFields },
          /** Where the sandbox may call for this partner (docs/hosting.md, "Exposing it to partners"). */
          egress: {
            type: 'object',
            additionalProperties: false,
            properties: {
              /** Origins (`https://pos.example.com`, `https://*.example.com`) besides posOrderUrl's own. */
              allow: { type: 'array', maxItems: 100, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 300 } },
              /** Networks (CIDR) of non-public addresses the partner's POS may be on: `10.20.0.0/16`. */
              allowNetworks: { type: 'array', maxItems: 100, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 50 } },
            },
          },
        },
      },
    },
  },
} as const;

export type PartnersFile = FromSchema<typeof partnersFileSchema>;
export type PartnerEntry = PartnersFile['partners'][number];
export type Secret = PartnerEntry['nonProdKey'];
