/** The report folders in the report directory, each of their files, the keys they are signed with, and their OpenAPI parts. */
import { jwksOf, type ReportKeys } from '../../certification-checklist/report/signing-keys.js';
import { FOLDER_FILES } from '../../certification-checklist/report/write-report.js';
import { ApiError } from '../errors.js';
import type { ControlRoute, PublicRoute } from '../http/route.js';
import { checkQuery } from '../control/control-query.js';
import { controlError, controlOk, controlResponses } from '../openapi/openapi-parts.js';
import type { ChecklistRuns } from './checklist-runs.js';

/** The report is the sandbox's own HTML, self-contained: inline style only, nothing loaded, never framed. */
const REPORT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** What each file of a report folder is served as; the signatures are JWS compact serializations (RFC 7515 §9.2). */
const FILE_TYPES: Partial<Record<string, string>> = Object.fromEntries(
  FOLDER_FILES.map((file) => [file, file.endsWith('.html') ? 'text/html; charset=utf-8' : file.endsWith('.md') ? 'text/markdown; charset=utf-8' : file.endsWith('.xml') ? 'application/xml; charset=utf-8' : file.endsWith('.jws') ? 'application/jose' : 'application/json; charset=utf-8']),
);

/** The protected header of an operator's signature, base64url: {"alg":"EdDSA","kid":"2026-q4"}. */
const EXAMPLE_JWS_HEADER = Buffer.from('{"alg":"EdDSA","kid":"2026-q4"}').toString('base64url');

export const reportsRoute: ControlRoute<{ checklist: ChecklistRuns }> = {
  method: 'GET',
  path: '/_sandbox/reports',
  api: 'control',
  handle: ({ checklist }) => async (req, res) => {
    checkQuery(req.query, []);
    res.json(await checklist.reports());
  },
  doc: {
    operationId: 'reports',
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
};

export const jwksRoute: PublicRoute<{ reportKeys: ReportKeys }> = {
  method: 'GET',
  path: '/.well-known/jwks.json',
  api: 'public',
  handle: ({ reportKeys }) => {
    // Rendered once: the keys are fixed for the process.
    const body = JSON.stringify(jwksOf(reportKeys.keys));
    return (_req, res) => {
      res.set({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' }).send(body);
    };
  },
  doc: {
    operationId: 'reportKeys',
    summary: "The public keys this sandbox's reports are signed with (a JWKS, RFC 7517)",
    description:
      'Open to anyone, as a key set is. Every key still valid for verification, each with its kid; a retired key (it verifies what it signed, and signs nothing new) has `retired: true`. ' +
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
};

// Every file of a folder, so a partner of a hosted sandbox takes the signed folder home (`pos-sandbox reports get`).
export const reportFileRoute: ControlRoute<{ checklist: ChecklistRuns }> = {
  method: 'GET',
  path: '/_sandbox/reports/:id/:file',
  api: 'control',
  handle: ({ checklist }) => async (req, res) => {
    checkQuery(req.query, []);
    const { id, file } = req.params as { id: string; file: string };
    const type = FILE_TYPES[file];
    if (type === undefined) throw new ApiError('NOT_FOUND', `a report folder has no file '${file}': it holds ${FOLDER_FILES.join(', ')}`);
    const text = await checklist.reportFile(id, file);
    // The folder is not named: on a hosted sandbox, a partner sees nothing of the host.
    if (text === undefined) throw new ApiError('NOT_FOUND', `no report '${id}' with ${file} in this sandbox's report folder; GET /_sandbox/reports lists them`);
    res.set({ 'content-type': type, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
    if (file === 'report.html') res.set({ 'content-security-policy': REPORT_POLICY, 'x-frame-options': 'DENY' });
    else res.set('content-disposition', `attachment; filename="${file}"`);
    res.send(text);
  },
  doc: {
    operationId: 'reportFile',
    summary: 'A file of a report folder: report.html to read, or any file to take the signed folder home',
    description:
      'report.html is a self-contained page (served with a policy that loads nothing); the other files are sent as attachments. ' +
      "manifest.json lists every file's sha256 and signature.jws is its detached JWS (EdDSA); statement.jws signs statement.json alone. " +
      '`pos-sandbox reports get ID` fetches them all, and `pos-sandbox verify-report --keys …/.well-known/jwks.json` checks the folder.',
    parameters: [
      { name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: '2026-11-21T10-00-00-000Z-1a2b3c' },
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
};
