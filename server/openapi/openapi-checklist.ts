/** The checklist parts of openapi.json: runs started from the control API, the report folders, the migration report. */
import { FOLDER_FILES } from '../../certification-checklist/report/write-report.js';
import { CAPABILITIES, ITEM_STATUSES } from '../../certification-checklist/checklist-types.js';
import { MIGRATION_STEPS } from '../migration/v1-habits.js';
import { controlError, controlOk, controlResponses, getById, json, ref } from './openapi-parts.js';

/** The protected header of an operator's signature, base64url: {"alg":"EdDSA","kid":"2026-q4"}. */
const EXAMPLE_JWS_HEADER = Buffer.from('{"alg":"EdDSA","kid":"2026-q4"}').toString('base64url');

export function checklistPaths() {
  return {
    '/_sandbox/checklist/runs': {
      get: {
        operationId: 'checklistRuns',
        tags: ['Control API'],
        summary: 'Checklist runs started here, newest first',
        description: 'The runs this sandbox process started (the last 50), each with its items, its outcome and its report once it finished.',
        responses: controlResponses({ '200': controlOk('Runs', { type: 'array', items: ref('ChecklistRun') }) }, { invalid: 'a query parameter' }),
      },
      post: {
        operationId: 'startChecklistRun',
        tags: ['Control API'],
        summary: 'Start a checklist run in driver mode',
        description:
          "Runs the certification checklist against this sandbox, in driver mode: against a POS test build's driver (driverUrl, and posOrderUrl unless the sandbox has one), or against the bundled reference POS started for the run (referencePos, with bugs to switch on). " +
          'Answers 202 at once; each verdict is a `checklist` event (GET /_sandbox/events), and GET /_sandbox/checklist/runs/{id} has the run. At the end the report folder is written to the report directory (serve --report-dir). One run at a time: a run changes the sandbox\'s state (orders, faults).',
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
    },
    '/_sandbox/checklist/runs/{id}': getById('checklistRun', 'One checklist run', 'The run as it stands: its items (pending until judged), its outcome and report once it finished, or why it failed.', 'The run', ref('ChecklistRun'), 'no run with that id in this sandbox process'),
    '/_sandbox/reports': {
      get: {
        operationId: 'reports',
        tags: ['Control API'],
        summary: 'The checklist reports in the report directory, newest first',
        description: 'Every report folder in the report directory (serve --report-dir): those the checklist command wrote there, and those of the runs started here.',
        responses: controlResponses(
          {
            '200': controlOk('Reports', {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'title', 'startedAt', 'verdict', 'pos', 'html', 'signer'],
                properties: {
                  id: { type: 'string' },
                  title: { type: 'string' },
                  startedAt: { type: 'string' },
                  verdict: { type: 'string' },
                  pos: { type: 'string' },
                  html: { type: 'string' },
                  signer: {
                    type: ['object', 'null'],
                    description: "Whose key signed the folder: an operator's deployment, or self-signed (the partner's machine); null for a folder without one",
                    required: ['kind', 'kid'],
                    properties: { kind: { enum: ['operator', 'self-signed'] }, deployment: { type: 'string' }, kid: { type: 'string' } },
                  },
                },
              },
            }),
          },
          { invalid: 'a query parameter' },
        ),
      },
    },
    '/_sandbox/migration': {
      get: {
        operationId: 'migration',
        tags: ['Control API'],
        summary: "Where the POS stands on §9's migration from v1",
        description:
          "The seven steps of §9 in order, read from the journal's calls of the POS and the reports written: each done (v2 traffic of its kind, no v1 habit left), in progress (with the journal ids of the calls that still show a v1 habit, at most 20) or not yet exercised, and what to change next. " +
          '`pos-sandbox migration` prints it and the dashboard\'s Migration page shows it.',
        responses: controlResponses({ '200': controlOk('The report', ref('MigrationReport')) }, { invalid: 'a query parameter' }),
      },
    },
    '/.well-known/jwks.json': {
      get: {
        operationId: 'reportKeys',
        tags: ['Control API'],
        summary: "The public keys this sandbox's reports are signed with (a JWKS, RFC 7517)",
        description:
          "Open to anyone, as a key set is. Every key still valid for verification, each with its kid; a retired key (it verifies what it signed, and signs nothing new) has `retired: true`. " +
          "A hosted sandbox publishes the operator's keys (the partners file's reportSigning); a laptop its own, self-signed. `pos-sandbox verify-report --keys <this URL> DIR` checks a report with them.",
        security: [],
        responses: {
          '200': {
            description: 'The key set',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['keys'],
                  properties: {
                    keys: {
                      type: 'array',
                      items: {
                        type: 'object',
                        additionalProperties: false,
                        required: ['kty', 'crv', 'x', 'kid', 'alg', 'use'],
                        properties: { kty: { const: 'OKP' }, crv: { const: 'Ed25519' }, x: { type: 'string' }, kid: { type: 'string' }, alg: { const: 'EdDSA' }, use: { const: 'sig' }, retired: { const: true } },
                      },
                    },
                  },
                },
                example: {
                  keys: [
                    { kty: 'OKP', crv: 'Ed25519', x: 'mWePPZ04BnBPksMO74HUwTY5kGO3uzCOfXy8z5nGwZ8', kid: '2026-q3', alg: 'EdDSA', use: 'sig', retired: true },
                    { kty: 'OKP', crv: 'Ed25519', x: 'jF4CwiINwzHxQZUkJkySlrrikmhDYro2HJur2LZAEmo', kid: '2026-q4', alg: 'EdDSA', use: 'sig' },
                  ],
                },
              },
            },
          },
          '405': controlError('A method other than GET or HEAD'),
        },
      },
    },
    '/_sandbox/reports/{id}/{file}': {
      get: {
        operationId: 'reportFile',
        tags: ['Control API'],
        summary: 'A file of a report folder: report.html to read, or any file to take the signed folder home',
        description:
          'report.html is a self-contained page (served with a policy that loads nothing); the other files are sent as attachments. ' +
          'manifest.json lists every file\'s sha256 and signature.jws is its detached JWS (EdDSA); statement.jws signs statement.json alone. ' +
          '`pos-sandbox reports get ID` fetches them all, and `pos-sandbox verify-report --keys …/.well-known/jwks.json` checks the folder.',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'file', in: 'path', required: true, schema: { enum: [...FOLDER_FILES] }, example: 'signature.jws' },
        ],
        responses: controlResponses(
          {
            '200': {
              description: 'The file',
              content: {
                'text/html': { schema: { type: 'string' }, example: '<!doctype html><html lang="en"><head><title>Demo run, not a certification: demo-pos</title></head><body>…</body></html>' },
                'text/markdown': { schema: { type: 'string' }, example: '# Demo run, not a certification: demo-pos (the bundled reference POS)\n' },
                'application/xml': { schema: { type: 'string' }, example: '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="Demo run, not a certification: demo-pos" tests="36" failures="0" errors="0" skipped="0" time="19.400"></testsuites>\n' },
                'application/jose': { schema: { type: 'string', description: 'A detached JWS, compact: header..signature' }, example: `${EXAMPLE_JWS_HEADER}..${'A'.repeat(86)}\n` },
                'application/json': { schema: { type: 'object' }, example: { format: 'pos-sandbox/certification-statement', formatVersion: 1, partner: 'demo-pos', verdict: 'passed', kind: 'demo' } },
              },
            },
          },
          { invalid: 'an id that is not UTF-8 percent-encoding, or a query parameter', notFound: 'no report folder of that name, or no such file in it' },
        ),
      },
    },
  };
}

export function checklistSchemas() {
  return {
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
}
