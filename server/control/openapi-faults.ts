/** The fault parts of openapi.json: /_sandbox/faults and the fault rule (its JSON Schema, server/faults/fault-rule.schema.json). */
import { controlError, controlOk, json, ref, schemaComponents } from './openapi-parts.js';
import { pagedOk, pageParameters } from './openapi-paging.js';

const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const ruleOrList = { oneOf: [ref('FaultRule'), { type: 'array', minItems: 1, items: ref('FaultRule') }] };

export function faultPaths() {
  return {
    '/_sandbox/faults': {
      get: {
        operationId: 'faults',
        tags: ['Control API'],
        summary: 'The fault rules in force, in the order they are tried (newest first), with what each has left, a page at a time',
        parameters: pageParameters(),
        responses: { '200': pagedOk('Rules', { type: 'array', items: ref('FaultRuleInForce') }), '400': controlError },
      },
      post: {
        operationId: 'addFaults',
        tags: ['Control API'],
        summary: 'Add one fault rule, or a list (kept in its order, in front of the rules in force)',
        description: 'The same shape as a --faults file (see the README\'s "Fault injection"). Answered once the rules are stored.',
        requestBody: { required: true, content: json(ruleOrList) },
        responses: {
          '201': controlOk('The rules added: one, or a list when a list was sent', { oneOf: [ref('FaultRuleInForce'), { type: 'array', items: ref('FaultRuleInForce') }] }),
          '400': controlError,
          '409': controlError,
        },
      },
      delete: {
        operationId: 'clearFaults',
        tags: ['Control API'],
        summary: 'Remove every fault rule',
        responses: { '200': controlOk('How many were removed', { type: 'object', properties: { deleted: { type: 'integer' } } }) },
      },
    },
    '/_sandbox/faults/{id}': {
      get: {
        operationId: 'fault',
        tags: ['Control API'],
        summary: 'One fault rule in force',
        parameters: [idParameter],
        responses: { '200': controlOk('The rule', ref('FaultRuleInForce')), '404': controlError },
      },
      delete: {
        operationId: 'removeFault',
        tags: ['Control API'],
        summary: 'Remove one fault rule',
        parameters: [idParameter],
        responses: { '200': controlOk('The rule removed, as it was', ref('FaultRuleInForce')), '404': controlError },
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
