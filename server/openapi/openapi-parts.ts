/** Building blocks of openapi.json: content, refs, the shared shape of a POS operation and of a control GET. */
import { FAULT_HEADER_SYNTAX } from '../faults/fault-rules.js';
import type { PosDoc } from '../http/route.js';
import { RECORD_PAGE, type PageSize } from '../control/control-query.js';

export const json = (schema: object) => ({ 'application/json': { schema } });
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const controlOk = (description: string, schema: object) => ({ description, content: json(schema) });

const POS_SECURITY = [{ posToken: [] }];
const locationHeader = {
  name: 'x-service-locationid',
  in: 'header',
  required: true,
  description: 'The merchant location (§4).',
  schema: { type: 'string' },
  example: 'loc-std-001',
};

/** §5's migration headers: every request carries them; a missing one is a finding, never a refusal. */
const migrationHeaders = [
  {
    name: 'x-api-key',
    in: 'header',
    required: true,
    description: 'Every request carries it (§5). Its value is not checked by the sandbox; a missing one is a finding.',
    schema: { type: 'string' },
    example: 'sandbox-only-x-api-key-demo-pos',
  },
  {
    name: 'x-api-version',
    in: 'header',
    required: true,
    description: 'The API version every request carries (§5); a missing one is a finding.',
    schema: { type: 'string' },
    example: '2',
  },
];

/** Told in the description, not declared: importers put every optional header in each request with a placeholder, and `x-sandbox-fault: <string>` is a 400. */
const FAULT_HEADER_NOTE = `To inject a fault into this one call, add the header x-sandbox-fault: ${FAULT_HEADER_SYNTAX} (see docs/faults.md).`;

/** What a fault can do to a POS call; the kinds that answer nothing or late are told here, since no response object can describe them. */
const FAULT_KINDS_NOTE =
  'A fault answers before authentication and processes nothing: status answers the status it names (400–599) in the envelope of this endpoint (or the body the rule gives); ' +
  'rate-limit answers 429 with Retry-After; malformed answers a body labelled application/json that is NOT JSON (the envelope cut in half), with status 500 or the one it names (200–599); ' +
  'delay holds the call, then handles it for real; drop closes the connection without an answer; hang never answers. The x-sandbox-fault-rule header names the rule.';

const faultRuleHeader = { 'x-sandbox-fault-rule': { schema: { type: 'string' }, description: 'The fault rule that answered (x-sandbox-fault when the header did).' } };

/** `default`: whatever a fault rule names, honestly: the envelope, or the rule's own body, which may be any JSON or text. */
function injectedDefault(envelope: 'OrderErrorEnvelope' | 'MenuErrorEnvelope') {
  return {
    description:
      'Only when a fault is injected: any status from 400 to 599 a fault rule names (500, 502, 504 …), in this endpoint\'s envelope with a code such as INTERNAL_ERROR or BAD_GATEWAY, unless the rule gives a body of its own: ' +
      'a string is sent as text/plain and any other value as JSON, unless the rule declares its contentType (text/html, say); every injected answer carries X-Content-Type-Options: nosniff and a Content-Security-Policy that runs nothing. A malformed fault answers here too, with a body that claims application/json and does not parse: no schema describes it.',
    headers: faultRuleHeader,
    content: {
      'application/json': { schema: { anyOf: [ref(envelope), { description: "A body the fault rule gives: any JSON value." }] } },
      'text/html': { schema: { type: 'string' } },
      'text/plain': { schema: { type: 'string' } },
    },
  };
}

/** One POS API operation at one mount: the shared auth, headers and error statuses, in the envelope of its family. */
export function posOperation(spec: PosDoc & { mount: string }) {
  const error = (description: string) => ({ description, content: json(ref(spec.envelope)) });
  const injected = (description: string, headers: object = {}) => ({ description, headers: { ...faultRuleHeader, ...headers }, content: json(ref(spec.envelope)) });
  return {
    operationId: `${spec.name}${spec.mount.replace(/[^a-z0-9]/gi, '') || 'Root'}`,
    tags: ['POS API'],
    summary: `${spec.summary}, mounted at ${spec.mount || '/'}`,
    description: `${spec.description} ${FAULT_KINDS_NOTE} ${FAULT_HEADER_NOTE}`,
    security: POS_SECURITY,
    parameters: [locationHeader, ...migrationHeaders, { name: 'x-request-id', in: 'header', required: false, schema: { type: 'string' } }],
    requestBody: { required: true, content: json(spec.body) },
    responses: {
      '200': {
        description: spec.ok,
        headers: {
          'x-sandbox-findings': { schema: { type: 'integer' }, description: 'How many findings the request drew.' },
          'x-sandbox-journal-id': { schema: { type: 'string' } },
          [spec.okHeader[0]]: spec.okHeader[1],
        },
      },
      '400': error(`${spec.invalid}; INVALID_REQUEST: an x-sandbox-fault header the sandbox cannot read. Under --strict, a finding too.`),
      '401': error('UNAUTHORIZED: the token (§5), one error per defect, each naming it; also the key in a query parameter, and under --strict a finding about the token'),
      '405': error('METHOD_NOT_ALLOWED, with Allow: this path called with another method'),
      '413': error("PAYLOAD_TOO_LARGE: over 1 MiB, or over a hosted partner's own bodyBytes"),
      '429': injected(
        "TOO_MANY_REQUESTS: when a rate-limit fault injects it (a rule, or x-sandbox-fault: rate-limit); or, in a hosted sandbox, past the partner's request quota (requestsPerSecond, burst)",
        { 'Retry-After': { schema: { type: 'integer', minimum: 0 }, description: 'Seconds to wait (default 1).' } },
      ),
      '503': injected(
        'SERVICE_UNAVAILABLE: when a status fault injects it (nothing was processed); or, with several instances on one database, when the instance leading the partner stopped while it had the request (whether it was stored is unknown), or when none led it for 5 s (nothing stored); then with Retry-After: 1',
      ),
      ...Object.fromEntries(Object.entries(spec.more ?? {}).map(([status, description]) => [status, error(description)])),
      default: injectedDefault(spec.envelope),
    },
  };
}

/** An error of the control API: always the lowercase envelope (§2.3), even on paths that end in /menu. */
export const controlError = (description: string) => ({ description, content: json(ref('OrderErrorEnvelope')) });

/** The 400 every control call can draw from the guards, before its own checks. */
const GUARD_INVALID = 'Host, Origin or Sec-Fetch-Site given more than once, or an HTTP/1.1 request without Host';

/** An operation's own responses, and the refusals of the guards before every control route. */
export function controlResponses(
  success: Record<string, object>,
  refusals: { invalid?: string; changesState?: boolean; readsBody?: boolean; notFound?: string; conflict?: string } = {},
): Record<string, object> {
  return {
    // First, so that an operation's own 503 (health's) replaces it.
    '503': controlError('SERVICE_UNAVAILABLE: with several instances on one database, the instance leading the partner stopped while it had the request, or none led it for 5 s; Retry-After: 1'),
    ...success,
    '400': controlError(`INVALID_REQUEST: ${refusals.invalid ? `${refusals.invalid}; or ` : ''}${GUARD_INVALID}`),
    '401': controlError('UNAUTHORIZED: only when the sandbox was started with --admin-token, and this request lacks Authorization: Bearer <that token>'),
    '403': controlError(
      "FORBIDDEN: a client not on loopback (without --admin-token), or what a web page could send: an Origin other than the sandbox's own, Sec-Fetch-Site: cross-site, or (without --admin-token) a Host that is not a loopback name or the --host address",
    ),
    ...(refusals.notFound ? { '404': controlError(`NOT_FOUND: ${refusals.notFound}`) } : {}),
    ...(refusals.conflict ? { '409': controlError(refusals.conflict) } : {}),
    ...(refusals.readsBody ? { '413': controlError('PAYLOAD_TOO_LARGE: a body over 1 MiB') } : {}),
    '429': {
      ...controlError(
        "TOO_MANY_REQUESTS: a quota of the partner (docs/hosting.md): its request rate in a hosted sandbox; for GET /_sandbox/events its event streams open, for GET /_sandbox/journal.har its exports under way, for POST /_sandbox/checklist/runs its runs in the last hour, for POST /_sandbox/orders and a resend its orders being delivered to the POS at once",
      ),
      headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 }, description: 'Seconds to wait before sending it again.' } },
    },
    ...(refusals.changesState ? { '415': controlError('UNSUPPORTED_MEDIA_TYPE: a body that is not application/json (no body and no Content-Type is fine)') } : {}),
  };
}

export const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

/** A control GET of one thing by its id (`example`): 200 with it, 404 in the envelope when there is none. */
export function byId(operationId: string, summary: string, description: string, found: string, schema: object, notFound: string, example: string) {
  return {
    operationId,
    summary,
    description,
    parameters: [{ ...idParameter, example }],
    responses: controlResponses({ '200': controlOk(found, schema) }, { invalid: 'an id that is not UTF-8 percent-encoding', notFound }),
  };
}

/** A draft-07 schema file as components (`name`, `name.<Definition>`), every `$ref` relinked; `$id` and `tsType` left out. */
export function schemaComponents(name: string, schema: object): Record<string, object> {
  const root: Record<string, unknown> = { ...schema };
  const definitions = (root.definitions ?? {}) as Record<string, object>;
  for (const key of ['definitions', '$id', '$schema']) delete root[key];
  const relink = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(relink);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        // tsType speaks to the type generator only.
        .filter(([key]) => key !== 'tsType')
        .map(([key, value]) => [
          key,
          key === '$ref' && typeof value === 'string' ? value.replace('#/definitions/', `#/components/schemas/${name}.`) : relink(value),
        ]),
    );
  };
  const schemas: Record<string, object> = { [name]: relink(root) as object };
  for (const [definitionName, definition] of Object.entries(definitions)) schemas[`${name}.${definitionName}`] = relink(definition) as object;
  return schemas;
}

/** The paging parts of openapi.json: `limit` and the cursor of a list, and the Link header that names the next page. */

const LINK_HEADER = {
  Link: {
    description:
      'RFC 8288: `</_sandbox/...>; rel="next"` when more records follow: the same request (filters and limit kept) with the cursor set to the last record of this page. Absent on the last page.',
    schema: { type: 'string' },
  },
};

/** `limit` and the cursor: `after` for refunds, orders and fault rules; `before` for the journal, whose `after` is a filter. */
export function pageParameters(cursor: 'after' | 'before' = 'after', size: PageSize = RECORD_PAGE) {
  const cursorText =
    cursor === 'after'
      ? 'The page starts after the record with this id; take it from the Link rel="next" header. An id that is not on the list (a reset empties it) answers 400.'
      : 'The page starts after this entry (with the entries that ended before it); take it from the Link rel="next" header. An entry the journal no longer keeps gives an empty page: the older ones were dropped before it.';
  return [
    {
      name: 'limit',
      in: 'query',
      schema: { type: 'integer', minimum: 1, maximum: size.maxLimit, default: size.defaultLimit },
      description: `Records per page: ${size.defaultLimit} unless given, at most ${size.maxLimit} (more answers 400).`,
    },
    { name: cursor, in: 'query', schema: { type: 'string' }, description: cursorText },
  ];
}

/** A 200 with one page of a list: the records as a JSON array, and the Link header when a next page follows. */
export const pagedOk = (description: string, schema: object) => ({ description, headers: LINK_HEADER, content: json(schema) });
