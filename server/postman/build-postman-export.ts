/** Pure: the Postman collection and environment of `pos-sandbox export postman`; only the environment holds the key, as a secret. */
import { orderControlRequests, faultRequests, journalRequests, sandboxRequests } from './control-requests.js';
import { menuRequests, orderStatusRequest, refundRequest } from './pos-call-requests.js';
import type { PostmanExamples } from './pos-call-requests.js';
import { COLLECTION_SCHEMA, script, type PostmanCollection, type PostmanEnvironment, type PostmanVariable, mintTokenScript, TOKEN_TTL_SECONDS } from './postman-format.js';

export interface PostmanExportInput {
  version: string;
  /** The sandbox's base URL, without a trailing slash. */
  sandboxUrl: string;
  partner: { name: string; nonProdKey: string; apiKey: string | undefined };
  examples: PostmanExamples;
}

// Fixed, so a second export imported into Postman replaces the first instead of sitting beside it.
const COLLECTION_ID = '6e43e01c-f140-4517-8df8-587e37751c1f';
const ENVIRONMENT_ID = 'ec17163a-2f6f-4eea-9342-18c2d002106b';

export const COLLECTION_FILE = 'pos-sandbox.postman_collection.json';
export const ENVIRONMENT_FILE = 'pos-sandbox.postman_environment.json';

export function buildPostmanExport(input: PostmanExportInput): { collection: PostmanCollection; environment: PostmanEnvironment } {
  return { collection: buildCollection(input), environment: buildEnvironment(input) };
}

function buildCollection({ version, examples }: PostmanExportInput): PostmanCollection {
  const orders = orderControlRequests(examples);
  const order = examples.decidedOrder;
  const variable = (key: string, value: string, description: string): PostmanVariable => ({ key, value, type: 'string', description });
  return {
    info: {
      _postman_id: COLLECTION_ID,
      name: 'POS Sandbox',
      description: [
        `The POS integration interface (Open API v2) as the POS Sandbox ${version} emulates it: the calls a POS makes, and the sandbox's control API under /_sandbox.`,
        'Choose the environment "POS Sandbox" exported with this collection, then Send any request, or run the whole collection top to bottom: it starts by resetting the sandbox to its fixtures, and every request has tests.',
        `The collection's pre-request script (Scripts tab) signs a fresh HS256 token for every POS call with the environment's posName and nonProdKey: the six claims of §5, sub the request's x-service-locationid, valid ${TOKEN_TTL_SECONDS} s. The control calls need no token from this machine.`,
        'Known limits. The menu examples are items of the exported location\'s menu: after changing locationId, export again with --location. A sandbox started with --admin-token needs that token on the control calls (their Authorization tab). The rules of a sandbox started with --faults act on these calls too, so expect their answers. The event stream (GET /_sandbox/events) is not in the collection: Postman shows a stream only once it ends.',
      ].join('\n\n'),
      schema: COLLECTION_SCHEMA,
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{posToken}}', type: 'string' }] },
    event: [script('prerequest', mintTokenScript())],
    variable: [
      variable('refundExternalId', '', 'set by "Refund an order": a new ExternalId each send'),
      variable('refundJournalId', '', "the refund's journal entry (x-sandbox-journal-id)"),
      variable('sandboxPosOrderUrl', '', 'where the sandbox sends orders, read by "Health"; empty: nowhere'),
      variable('orderId', order.OrderId, 'the order the status call and "One order" name; a decided fixture order unless "Create an order" reached a POS'),
      variable('orderExternalId', order.ExternalId, "that order's ExternalId, the id the POS gave it"),
      variable('orderLocationId', order.LocationId, "that order's location"),
      variable('orderStatus', order.Status, "that order's status, as last seen"),
      variable('faultId', '', 'the id of the rule "Add a fault rule" added'),
      variable('mintedToken', '', 'the token "Mint a token" received, which "Check a token" judges'),
    ],
    item: [
      {
        name: 'Sandbox',
        description: 'Start from the fixtures, and check the environment against the sandbox.',
        item: sandboxRequests(),
      },
      {
        name: 'POS calls',
        description: 'What a POS sends (§4.1, §4.2), each with a fresh token, the location header, x-api-key and x-api-version. Each answers 200 with x-sandbox-findings: 0.',
        item: [refundRequest(), ...menuRequests(examples)],
      },
      {
        name: 'Orders and the status call',
        description: 'The service sends orders to the POS; the POS decides them with a status call (§3, §4.3).',
        item: [orders.list, orders.create, orderStatusRequest(), orders.one, orders.resend],
      },
      {
        name: 'What the sandbox saw',
        description: 'The refund as it was processed, and the journal of the calls.',
        item: journalRequests(),
      },
      {
        name: 'Faults',
        description: 'Make the sandbox fail on purpose, to see what your POS does.',
        item: faultRequests(),
      },
    ],
  };
}

function buildEnvironment({ version, sandboxUrl, partner, examples }: PostmanExportInput): PostmanEnvironment {
  const value = (key: string, text: string, type: 'default' | 'secret' = 'default') => ({ key, value: text, type, enabled: true as const });
  return {
    id: ENVIRONMENT_ID,
    name: 'POS Sandbox',
    values: [
      value('baseUrl', sandboxUrl),
      value('locationId', examples.location.id),
      value('posName', partner.name),
      value('nonProdKey', partner.nonProdKey, 'secret'),
      // §5: every v2 request carries x-api-key; its value is not shown, and the sandbox takes any.
      value('apiKey', partner.apiKey ?? `${partner.name}-x-api-key`),
      value('apiVersion', '2'),
    ],
    _postman_variable_scope: 'environment',
    _postman_exported_using: `pos-sandbox ${version}`,
  };
}
