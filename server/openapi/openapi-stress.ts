/** The stress-run parts of openapi.json: what a `pos-sandbox stress` run tells the sandbox, for the dashboard. */
import { stressRunViewSchema } from '../stress/stress-run-view.js';
import { controlOk, controlResponses, getById, json, ref } from './openapi-parts.js';

const NOT_FOUND = 'no run of that id among the last 20';

export function stressPaths() {
  return {
    '/_sandbox/stress-runs': {
      get: {
        operationId: 'stressRuns',
        tags: ['Control API'],
        summary: 'Stress runs told to this sandbox, newest first',
        description: "The last 20 runs of `pos-sandbox stress` against this sandbox, as each last told it (held in memory; a run's record is its report folder). A run still running that has said nothing for a minute is shown `stopped`.",
        responses: controlResponses({ '200': controlOk('Runs', { type: 'array', items: ref('StressRun') }) }, { invalid: 'a query parameter' }),
      },
      post: {
        operationId: 'startStressRun',
        tags: ['Control API'],
        summary: 'A stress run says it began',
        description: "`pos-sandbox stress` calls it as it begins, then PUTs its whole view as it goes: the dashboard's Stress page shows it live (each change a `stress` event). The run judges its orders; the sandbox only holds what it is told.",
        requestBody: { required: true, content: json(ref('StressRunView')) },
        responses: controlResponses(
          { '201': { ...controlOk('The run, with its id', ref('StressRun')), headers: { Location: { schema: { type: 'string' }, description: '/_sandbox/stress-runs/{id}' } } } },
          { invalid: 'a body that is not a view (each problem named)', changesState: true, readsBody: true },
        ),
      },
    },
    '/_sandbox/stress-runs/{id}': {
      ...getById('stressRun', 'One stress run', 'The run as it last told it.', 'The run', ref('StressRun'), NOT_FOUND),
      put: {
        operationId: 'updateStressRun',
        tags: ['Control API'],
        summary: 'A stress run says how it goes',
        description: 'The whole view again (counts, findings, the last orders sent), at most a few times a second.',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: json(ref('StressRunView')) },
        responses: controlResponses({ '200': controlOk('The run', ref('StressRun')) }, { invalid: 'a body that is not a view (each problem named)', changesState: true, readsBody: true, notFound: NOT_FOUND }),
      },
    },
  };
}

export function stressSchemas(): Record<string, object> {
  return {
    StressRunView: stressRunViewSchema,
    // The view with what the sandbox adds (the view's own schema admits no other field, so it is written out whole).
    StressRun: {
      ...stressRunViewSchema,
      required: [...stressRunViewSchema.required, 'id', 'startedAt', 'updatedAt'],
      properties: { ...stressRunViewSchema.properties, id: { type: 'string' }, startedAt: { type: 'string', format: 'date-time' }, updatedAt: { type: 'string', format: 'date-time' } },
    },
  };
}
