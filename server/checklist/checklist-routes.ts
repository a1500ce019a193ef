/** Checklist runs started from the control API in driver mode (a POS test build, or the bundled reference POS), and their OpenAPI parts. */
import { CAPABILITIES, ITEM_STATUSES } from '../../certification-checklist/checklist-types.js';
import { heldSecretMessage } from '../../certification-checklist/report-fields.js';
import { ApiError } from '../errors.js';
import { readJsonBody } from '../http/json-body.js';
import type { ControlRoute } from '../http/route.js';
import { checkQuery, jsonBody } from '../control/control-query.js';
import { egressProblem, type EgressPolicy } from '../hosted/egress.js';
import { holdsSecret } from '../journal/journal-routes.js';
import type { Journal } from '../journal/journal.js';
import { byId, controlOk, controlResponses, json, ref } from '../openapi/openapi-parts.js';
import { ChecklistRunRefused, type ChecklistRuns } from './checklist-runs.js';
import { checkChecklistRunRequest } from './checklist-run-request.js';

type ChecklistDeps = { checklist: ChecklistRuns; journal: Journal; egress: EgressPolicy };

export const checklistRunsRoute: ControlRoute<ChecklistDeps> = {
  method: 'GET',
  path: '/_sandbox/checklist/runs',
  api: 'control',
  handle: ({ checklist }) => (req, res) => {
    checkQuery(req.query, []);
    res.json(checklist.list());
  },
  doc: {
    operationId: 'checklistRuns',
    summary: 'Checklist runs started here, newest first',
    description: 'The runs this sandbox process started (the last 50), each with its items, its outcome and its report once it finished.',
    responses: controlResponses({ '200': controlOk('Runs', { type: 'array', items: ref('ChecklistRun') }) }, { invalid: 'a query parameter' }),
  },
};

export const startChecklistRunRoute: ControlRoute<ChecklistDeps> = {
  method: 'POST',
  path: '/_sandbox/checklist/runs',
  api: 'control',
  handle: ({ checklist, journal, egress }) => [
    readJsonBody,
    async (_req, res) => {
      const value = jsonBody(res);
      const { CHECKLIST } = await import('../../certification-checklist/items/all-items.js');
      const check = checkChecklistRunRequest(value, CHECKLIST.map((item) => item.id));
      if (!check.ok) throw new ApiError('INVALID_REQUEST', check.problems);
      // A report is shared: no field it prints may hold the partner's key or a token, in any form the redaction finds.
      const { pos, driver } = check.request;
      const fields: Array<[string, string | undefined]> = [['posName', pos?.name], ['posVersion', pos?.version], ['posBuild', pos?.build], ...('url' in driver ? ([['driverUrl', driver.url], ['posOrderUrl', driver.posOrderUrl]] as Array<[string, string | undefined]>) : [])];
      const keyed = fields.filter(([, text]) => text !== undefined && holdsSecret(journal.redactor, text));
      if (keyed.length > 0) throw new ApiError('INVALID_REQUEST', keyed.map(([field]) => heldSecretMessage(field)));
      if (!('referencePos' in driver)) {
        const refused = (await Promise.all([egressProblem(egress, driver.url, 'driverUrl'), driver.posOrderUrl === undefined ? undefined : egressProblem(egress, driver.posOrderUrl, 'posOrderUrl')])).filter((problem): problem is string => problem !== undefined);
        if (refused.length > 0) throw new ApiError('INVALID_REQUEST', refused);
      }
      try {
        const run = await checklist.start(check.request);
        res.location(`/_sandbox/checklist/runs/${run.id}`).status(202).json(run);
      } catch (error) {
        if (!(error instanceof ChecklistRunRefused)) throw error;
        throw new ApiError('INVALID_STATE', error.message);
      }
    },
  ],
  doc: {
    operationId: 'startChecklistRun',
    summary: 'Start a checklist run in driver mode',
    description:
      "Runs the certification checklist against this sandbox, in driver mode: against a POS test build's driver (driverUrl, and posOrderUrl unless the sandbox has one), or against the bundled reference POS started for the run (referencePos, with bugs to switch on). " +
      "Answers 202 at once; each verdict is a `checklist` event (GET /_sandbox/events), and GET /_sandbox/checklist/runs/{id} has the run. At the end the report folder is written to the report directory (serve --report-dir). One run at a time: a run changes the sandbox's state (orders, faults).",
    requestBody: {
      required: true,
      content: json({
        type: 'object',
        additionalProperties: false,
        properties: {
          driverUrl: { type: 'string', format: 'uri' },
          posOrderUrl: { type: 'string', format: 'uri' },
          referencePos: { const: true },
          bugs: { type: 'array', items: { type: 'string' } },
          capabilities: { type: 'array', items: { enum: [...CAPABILITIES] } },
          only: { type: 'array', items: { type: 'string' }, minItems: 1 },
          windowMs: { type: 'integer', minimum: 0, maximum: 60000 },
          posName: { type: 'string', minLength: 1, maxLength: 100 },
          posVersion: { type: 'string', minLength: 1, maxLength: 100 },
          posBuild: { type: 'string', minLength: 1, maxLength: 100 },
        },
      }),
    },
    responses: controlResponses(
      { '202': controlOk('The run, started', ref('ChecklistRun')) },
      {
        invalid: 'neither or both of driverUrl and referencePos, an unknown capability, item or bug, a bad URL or window; every problem listed',
        readsBody: true,
        changesState: true,
        conflict: 'INVALID_STATE: another run is still running',
      },
    ),
  },
};

export const checklistRunRoute: ControlRoute<ChecklistDeps> = {
  method: 'GET',
  path: '/_sandbox/checklist/runs/:id',
  api: 'control',
  handle: ({ checklist }) => (req, res) => {
    const run = checklist.get(String(req.params.id));
    if (!run) throw new ApiError('NOT_FOUND', `no checklist run '${req.params.id}' in this sandbox process; GET /_sandbox/checklist/runs lists them, GET /_sandbox/reports the reports written`);
    res.json(run);
  },
  doc: byId('checklistRun', 'One checklist run', 'The run as it stands: its items (pending until judged), its outcome and report once it finished, or why it failed.', 'The run', ref('ChecklistRun'), 'no run with that id in this sandbox process', 'run-1'),
};

export const checklistSchemas = {
  ChecklistRun: {
    type: 'object',
    required: ['id', 'status', 'startedAt', 'driver', 'capabilities', 'items'],
    properties: {
      id: { type: 'string' },
      status: { enum: ['running', 'finished', 'failed'] },
      startedAt: { type: 'string', format: 'date-time' },
      finishedAt: { type: 'string', format: 'date-time' },
      driver: { type: 'object', required: ['referencePos'], properties: { url: { type: 'string' }, referencePos: { type: 'boolean' }, bugs: { type: 'array', items: { type: 'string' } } } },
      capabilities: { type: 'array', items: { type: 'string' } },
      items: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'title', 'section', 'required', 'status'],
          properties: { id: { type: 'string' }, title: { type: 'string' }, section: { type: 'string' }, required: { type: 'boolean' }, status: { enum: ['pending', ...ITEM_STATUSES] }, message: { type: 'string' } },
        },
      },
      outcome: {
        type: 'object',
        required: ['verdict', 'counts', 'reason'],
        properties: { verdict: { enum: ['passed', 'failed', 'incomplete'] }, counts: { type: 'object', additionalProperties: { type: 'integer' } }, reason: { type: 'string' } },
      },
      report: { type: 'object', required: ['id', 'html'], properties: { id: { type: 'string' }, html: { type: 'string' } } },
      error: { type: 'string' },
    },
  },
};
