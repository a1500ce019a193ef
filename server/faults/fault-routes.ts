/** The fault rules in force (newest first), adding and removing them, the ready scripts, and their OpenAPI parts. */
import { join } from 'node:path';
import { ApiError } from '../errors.js';
import { readJsonBody } from '../http/json-body.js';
import type { ControlRoute } from '../http/route.js';
import { checkQuery, jsonBody, pageAfter, pageLimit, RECORD_PAGE, sendPage, unknownCursor } from '../control/control-query.js';
import { byId, controlOk, controlResponses, idParameter, json, ref, schemaComponents, pagedOk, pageParameters } from '../openapi/openapi-parts.js';
import { PACKAGE_ROOT } from '../version.js';
import { checkFaultRules, loadReadyScripts } from './fault-rules.js';
import { DuplicateFaultIdError, type FaultRegistry } from './fault-registry.js';

const READY_SCRIPTS = join(PACKAGE_ROOT, 'fixtures', 'faults');
const NOT_FOUND = 'no fault rule with this id in force (a rule used up expires)';
const notFound = (id: string) => new ApiError('NOT_FOUND', `no fault rule '${id}' in force (a rule used up expires); GET /_sandbox/faults lists them`);
type FaultDeps = { faults: FaultRegistry };

export const faultScriptsRoute: ControlRoute<FaultDeps> = {
  method: 'GET',
  path: '/_sandbox/fault-scripts',
  api: 'control',
  handle: () => (req, res) => {
    checkQuery(req.query, []);
    res.json(loadReadyScripts(READY_SCRIPTS));
  },
  doc: {
    operationId: 'faultScripts',
    summary: 'The ready fault scripts of fixtures/faults/',
    description: 'Each ready script by name (its file, without .json) with its rules, checked, to add as they are with POST /_sandbox/faults (or serve --faults fixtures/faults/<name>.json).',
    responses: controlResponses(
      { '200': controlOk('The scripts', { type: 'array', items: { type: 'object', required: ['name', 'rules'], properties: { name: { type: 'string' }, rules: { type: 'array', items: ref('FaultRule') } } } }) },
      { invalid: 'a query parameter' },
    ),
  },
};

export const faultsRoute: ControlRoute<FaultDeps> = {
  method: 'GET',
  path: '/_sandbox/faults',
  api: 'control',
  handle: ({ faults }) => (req, res) => {
    const { limit, after } = checkQuery(req.query, ['limit', 'after']);
    const page = pageAfter(faults.list(), (rule) => rule.id, () => true, pageLimit(limit, RECORD_PAGE), after);
    if (!page) throw unknownCursor('fault rules in force', after!);
    sendPage(req, res, page, 'after');
  },
  doc: {
    operationId: 'faults',
    summary: 'The fault rules in force, in the order they are tried (newest first), with what each has left, a page at a time',
    description: 'Each rule as added, with where it came from (api or file) and its counters: seen, fired, left and skipping. The first rule that fires answers a call, and older rules are not asked.',
    parameters: pageParameters(),
    responses: controlResponses({ '200': pagedOk('Rules', { type: 'array', items: ref('FaultRuleInForce') }) }, { invalid: 'an unknown query parameter, a bad limit, or an after that names no rule in force' }),
    examples: { after: 'refund-outage' },
  },
};

export const addFaultsRoute: ControlRoute<FaultDeps> = {
  method: 'POST',
  path: '/_sandbox/faults',
  api: 'control',
  handle: ({ faults }) => [
    readJsonBody,
    async (_req, res) => {
      const value = jsonBody(res, 'body is missing; send one fault rule or a list of them');
      const check = checkFaultRules(value);
      if (!check.ok) throw new ApiError('INVALID_REQUEST', check.problems);
      let added;
      try {
        added = faults.add(check.rules);
        await faults.saved;
      } catch (error) {
        if (!(error instanceof DuplicateFaultIdError)) throw error;
        throw new ApiError('ALREADY_EXISTS', `${error.message}; DELETE /_sandbox/faults/${error.id} first, or give the new rule another id`);
      }
      if (Array.isArray(value)) return res.status(201).json(added);
      res.location(`/_sandbox/faults/${added[0]!.id}`).status(201).json(added[0]);
    },
  ],
  doc: {
    operationId: 'addFaults',
    summary: 'Add one fault rule, or a list (kept in its order, in front of the rules in force)',
    description:
      'The same shape as a --faults file (see docs/faults.md). A status fault names 400–599 (an injected 2xx would claim work that was not done); malformed may name 200–599. Answered once the rules are stored.',
    requestBody: { required: true, content: json({ oneOf: [ref('FaultRule'), { type: 'array', minItems: 1, items: ref('FaultRule') }] }) },
    responses: controlResponses(
      { '201': controlOk('The rules added: one, or a list when a list was sent', { oneOf: [ref('FaultRuleInForce'), { type: 'array', items: ref('FaultRuleInForce') }] }) },
      { invalid: 'a rule that does not fit FaultRule, every problem named by its place', conflict: 'ALREADY_EXISTS: a rule with this id is in force', readsBody: true, changesState: true },
    ),
  },
};

export const clearFaultsRoute: ControlRoute<FaultDeps> = {
  method: 'DELETE',
  path: '/_sandbox/faults',
  api: 'control',
  handle: ({ faults }) => async (_req, res) => {
    const deleted = faults.clear();
    await faults.saved;
    res.json({ deleted });
  },
  doc: {
    operationId: 'clearFaults',
    summary: 'Remove every fault rule',
    description: 'Removes every rule in force, those of --faults too; POST /_sandbox/reset brings the --faults rules back.',
    responses: controlResponses({ '200': controlOk('How many were removed', { type: 'object', properties: { deleted: { type: 'integer' } } }) }, { changesState: true }),
  },
};

export const faultRoute: ControlRoute<FaultDeps> = {
  method: 'GET',
  path: '/_sandbox/faults/:id',
  api: 'control',
  handle: ({ faults }) => (req, res) => {
    const rule = faults.get(String(req.params.id));
    if (!rule) throw notFound(String(req.params.id));
    res.json(rule);
  },
  doc: byId('fault', 'One fault rule in force', 'The rule with this id, with its counters, as GET /_sandbox/faults lists it.', 'The rule', ref('FaultRuleInForce'), NOT_FOUND, 'refund-outage'),
};

export const removeFaultRoute: ControlRoute<FaultDeps> = {
  method: 'DELETE',
  path: '/_sandbox/faults/:id',
  api: 'control',
  handle: ({ faults }) => async (req, res) => {
    const removed = faults.remove(String(req.params.id));
    if (!removed) throw notFound(String(req.params.id));
    await faults.saved;
    res.json(removed);
  },
  doc: {
    operationId: 'removeFault',
    summary: 'Remove one fault rule',
    description: 'Removes the rule with this id; the calls it would have answered are handled for real (or by the next rule that fires).',
    parameters: [idParameter],
    responses: controlResponses({ '200': controlOk('The rule removed, as it was', ref('FaultRuleInForce')) }, { invalid: 'an id that is not UTF-8 percent-encoding', notFound: NOT_FOUND, changesState: true }),
    examples: { id: 'refund-outage' },
  },
};

/** The fault rule's JSON Schema as components, and the rule in force: its own fields and its counters, in one object schema. */
export function faultSchemas(faultRuleSchema: object): Record<string, object> {
  const components = schemaComponents('FaultRule', faultRuleSchema);
  const rule = components.FaultRule as { required?: string[]; properties?: Record<string, object> };
  return {
    ...components,
    // One object schema, not an allOf: FaultRule's additionalProperties: false would refuse every rule in force.
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
