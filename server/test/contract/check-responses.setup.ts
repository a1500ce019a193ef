/**
 * Every answer a test receives from the sandbox, through supertest or fetch, is judged against the sandbox's own
 * OpenAPI document; a test during which any answer breaks it fails, naming each violation. So the document and
 * the server cannot drift apart: a route that answers something new needs the document to say so first.
 * (jest's setupFilesAfterEnv: runs in every test file, before its tests.)
 */
import { afterAll, afterEach, expect } from '@jest/globals';
import { mayImport } from './import-graph.js';
import { readRunBodyValidators, readRunOpenApiDocument } from './openapi-document-file.js';
import { contractCheck, type ObservedExchange } from './response-contract.js';

// The document is built once per run by openapi-document.global-setup.ts, and its body validators compiled from it;
// contract-environment.js reads both once per worker. Read here when it did not, built here if the setup did not run.
const shared = (globalThis as { __posSandboxContract?: { document: object; validators: ReturnType<typeof readRunBodyValidators> } }).__posSandboxContract;
const document = shared?.document ?? readRunOpenApiDocument() ?? (await import('../../routes.js')).sandboxOpenApi();
const check = contractCheck(document as Parameters<typeof contractCheck>[0], shared?.validators ?? readRunBodyValidators());
const violations: string[] = [];

function judge(exchange: ObservedExchange): void {
  violations.push(...check(exchange));
}

interface SuperagentResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text?: string;
}
interface SupertestTest {
  method: string;
  url: string;
}

// supertest calls assert once per request, answered or not, whether the test awaits it or chains .expect().
// Loading supertest costs about 0.3 s, and most test files never reach it (their imports, followed, do not lead
// there): they send no request through it, so only the files that can are made to load it here.
const testPath = expect.getState().testPath;
if (testPath === undefined || mayImport(testPath, 'supertest')) patchSupertest((await import('supertest')).default);

function patchSupertest(supertest: unknown): void {
  const Test = (supertest as { Test: { prototype: { assert: (this: SupertestTest, error: unknown, res: SuperagentResponse | undefined, fn: unknown) => unknown } } }).Test;
  const assertAnswer = Test.prototype.assert;
  Test.prototype.assert = function (this: SupertestTest, error: unknown, res: SuperagentResponse | undefined, fn: unknown) {
    if (res !== undefined) {
      judge({ method: this.method, path: new URL(this.url).pathname, status: res.status, headers: res.headers, text: typeof res.text === 'string' ? res.text : undefined });
    }
    return assertAnswer.call(this, error, res, fn);
  };
}

// Tests that start the sandbox as a process talk to it with fetch. Every answer of the sandbox carries an
// x-request-id (its first middleware sets it); stand-in servers that tests start (a fake sandbox, a POS) do not.
const realFetch = globalThis.fetch;
globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const response = await realFetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (!response.headers.has('x-request-id') || check.templateFor(url.pathname) === undefined) return response;
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const headers = Object.fromEntries(response.headers.entries());
  // An event stream never ends: its status and media type are judged, its body is not waited for.
  const streaming = (headers['content-type'] ?? '').startsWith('text/event-stream');
  if (streaming || method === 'HEAD') {
    judge({ method, path: url.pathname, status: response.status, headers, text: undefined });
    return response;
  }
  // Read once and handed on as a new Response of the same bytes: a clone tees the body's stream and copies every
  // chunk to both branches, which was about a tenth of the CPU of a test that sends many requests.
  const bytes = new Uint8Array(await response.arrayBuffer());
  judge({ method, path: url.pathname, status: response.status, headers, text: new TextDecoder().decode(bytes) });
  const nullBody = [204, 205, 304].includes(response.status);
  return new Response(nullBody ? null : bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
};

function failOnViolations(): void {
  if (violations.length === 0) return;
  const found = violations.splice(0);
  throw new Error(`answers that break openapi.json (fix the server or the document):\n- ${[...new Set(found)].join('\n- ')}`);
}

afterEach(failOnViolations);
afterAll(failOnViolations);
