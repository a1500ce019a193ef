/** The fault parts of openapi.json: /_sandbox/faults and the fault rule (its JSON Schema, server/faults/fault-rule.schema.json). */
import { controlOk, controlResponses, json, ref, schemaComponents } from './openapi-parts.js';
import { pagedOk, pageParameters } from './openapi-paging.js';

const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const ruleOrList = { oneOf: [ref('FaultRule'), { type: 'array', minItems: 1, items: ref('FaultRule') }] };

const notFound = 'no fault rule with this id in force (a rule used up expires)';

export function faultPaths() {
  return {
    '/_sandbox/fault-scripts': {
      get: {
        operationId: 'faultScripts',
        tags: ['Control API'],
        summary: 'The ready fault scripts of fixtures/faults/',
        description: 'Each ready script by name (its file, without .json) with its rules, checked, to add as they are with POST /_sandbox/faults (or serve --faults fixtures/faults/<name>.json).',
        responses: controlResponses(
          {
            '200': controlOk('The scripts', {
              type: 'array',
              items: { type: 'object', required: ['name', 'rules'], properties: { name: { type: 'string' }, rules: { type: 'array', items: ref('FaultRule') } } },
            }),
          },
          { invalid: 'a query parameter' },
        ),
      },
    },
    '/_sandbox/faults': {
      get: {
        operationId: 'faults',
        tags: ['Control API'],
        summary: 'The fault rules in force, in the order they are tried (newest first), with what each has left, a page at a time',
        description: 'Each rule as added, with where it came from (api or file) and its counters: seen, fired, left and skipping. The first rule that fires answers a call, and older rules are not asked.',
        parameters: pageParameters(),
        responses: controlResponses(
          { '200': pagedOk('Rules', { type: 'array', items: ref('FaultRuleInForce') }) },
          { invalid: 'an unknown query parameter, a bad limit, or an after that names no rule in force' },
        ),
      },
      post: {
        operationId: 'addFaults',
        tags: ['Control API'],
        summary: 'Add one fault rule, or a list (kept in its order, in front of the rules in force)',
        description:
          'The same shape as a --faults file (see docs/faults.md). A status fault names 400–599 (an injected 2xx would claim work that was not done); malformed may name 200–599. Answered once the rules are stored.',
        requestBody: { required: true, content: json(ruleOrList) },
        responses: controlResponses(
          { '201': controlOk('The rules added: one, or a list when a list was sent', { oneOf: [ref('FaultRuleInForce'), { type: 'array', items: ref('FaultRuleInForce') }] }) },
          { invalid: 'a rule that does not fit FaultRule, every problem named by its place', conflict: 'ALREADY_EXISTS: a rule with this id is in force', readsBody: true, changesState: true },
        ),
      },
      delete: {
        operationId: 'clearFaults',
        tags: ['Control API'],
        summary: 'Remove every fault rule',
        description: 'Removes every rule in force, those of --faults too; POST /_sandbox/reset brings the --faults rules back.',
        responses: controlResponses({ '200': controlOk('How many were removed', { type: 'object', properties: { deleted: { type: 'integer' } } }) }, { changesState: true }),
      },
    },
    '/_sandbox/faults/{id}': {
      get: {
        operationId: 'fault',
        tags: ['Control API'],
        summary: 'One fault rule in force',
        description: 'The rule with this id, with its counters, as GET /_sandbox/faults lists it.',
        parameters: [idParameter],
        responses: controlResponses({ '200': controlOk('The rule', ref('FaultRuleInForce')) }, { invalid: 'an id that is not UTF-8 percent-encoding', notFound }),
      },
      delete: {
        operationId: 'removeFault',
        tags: ['Control API'],
        summary: 'Remove one fault rule',
        description: 'Removes the rule with this id; the calls it would have answered are handled for real (or by the next rule that fires).',
        parameters: [idParameter],
        responses: controlResponses(
          { '200': controlOk('The rule removed, as it was', ref('FaultRuleInForce')) },
          { invalid: 'an id that is not UTF-8 percent-encoding', notFound, changesState: true },
        ),
      },
    },
  };
}

export function faultSchemas(faultRuleSchema: object): Record<string, object> {
  const components = schemaComponents('FaultRule', faultRuleSchema);
  const rule = components.FaultRule as { required?: string[]; properties?: Record<string, object> };
  return {
    ...components,
    // FaultRule's own properties and these, in one object schema: an allOf of FaultRule (additionalProperties:
    // false) and more fields would refuse every rule the sandbox answers with.
    FaultRuleInForce: {
      ...rule,
      title: 'FaultRuleInForce',
      description: 'A fault rule in force: the rule as added, with where it came from and its counters.',
      required: [...new Set([...(rule.required ?? []), 'id', 'source', 'addedAt', 'seen', 'fired', 'left', 'skipping'])],
      properties: {
        ...rule.properties,
        source: { enum: ['api', 'file'] },
        addedAt: { type: 'string', format: 'date-time' },
        seen: { type: 'integer', description: 'Matching requests the rule was asked about' },
        fired: { type: 'integer' },
        left: { type: ['integer', 'null'], description: 'Firings left before it expires; null: no limit' },
        skipping: { type: 'integer', description: 'Matching requests `after` still lets through' },
      },
    },
  };
}
