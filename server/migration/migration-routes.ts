/** GET /_sandbox/migration: where the POS stands on §9's migration from v1; one source for the CLI and the dashboard, so they agree. */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ControlRoute } from '../http/route.js';
import { checkQuery } from '../control/control-query.js';
import type { ChecklistRuns } from '../checklist/checklist-runs.js';
import type { Journal } from '../journal/journal.js';
import { controlOk, controlResponses, ref } from '../openapi/openapi-parts.js';
import { MigrationTally } from './migration-report.js';
import { MIGRATION_STEPS } from './v1-habits.js';

/** How long one turn of the event loop may spend reading the journal: a whole one read at once held every other request back. */
const TURN_MS = 10;

export const migrationRoute: ControlRoute<{ journal: Journal; checklist: ChecklistRuns }> = {
  method: 'GET',
  path: '/_sandbox/migration',
  api: 'control',
  handle: ({ journal, checklist }) => async (req, res) => {
    checkQuery(req.query, []);
    const tally = new MigrationTally();
    let turnStarted = performance.now();
    for (const id of journal.ids({ direction: 'inbound' }).reverse()) {
      if (performance.now() - turnStarted > TURN_MS) {
        await nextTurn();
        turnStarted = performance.now();
      }
      // An entry dropped by retention while the report was read is simply not counted.
      const entry = journal.get(id);
      if (entry !== undefined) tally.add(entry);
    }
    res.json(tally.report(await checklist.reports()));
  },
  doc: {
    operationId: 'migration',
    summary: "Where the POS stands on §9's migration from v1",
    description:
      "The seven steps of §9 in order, read from the journal's calls of the POS and the reports written: each done (v2 traffic of its kind, no v1 habit left), in progress (with the journal ids of the calls that still show a v1 habit, at most 20) or not yet exercised, and what to change next. " +
      "`pos-sandbox migration` prints it and the dashboard's Migration page shows it.",
    responses: controlResponses({ '200': controlOk('The report', ref('MigrationReport')) }, { invalid: 'a query parameter' }),
  },
};

export const migrationSchemas = {
  MigrationReport: {
    type: 'object',
    required: ['calls', 'steps'],
    properties: {
      calls: { type: 'integer', minimum: 0, description: 'The calls of the POS the journal held' },
      steps: {
        type: 'array',
        minItems: 7,
        maxItems: 7,
        items: {
          type: 'object',
          required: ['number', 'step', 'state', 'v1Calls', 'v1CallCount', 'next'],
          properties: {
            number: { type: 'integer', minimum: 1, maximum: 7 },
            step: { enum: [...MIGRATION_STEPS] },
            state: { enum: ['done', 'in progress', 'not yet exercised'] },
            v1Calls: { type: 'array', maxItems: 20, items: { type: 'string' } },
            v1CallCount: { type: 'integer', minimum: 0, description: 'How many calls show a v1 habit of the step; v1Calls lists the first 20' },
            next: { type: 'string' },
          },
        },
      },
    },
  },
};
