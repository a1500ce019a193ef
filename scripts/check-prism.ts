/** npm run check:prism: openapi.json against the real sandbox through `prism proxy`; exit 1 on any answer that breaks the document or a step's expected status. */
import type { Server } from 'node:http';
import { Command } from 'commander';
import { mintPosToken } from '../server/tokens/mint-pos-token.js';
import { loadFixtures } from '../server/fixtures/load-fixtures.js';
import { PACKAGE_ROOT } from '../server/version.js';
import { freePort, startPosOrderEndpoint, startPrism, startSandbox, stopChildren } from './prism-check/processes.js';
import { LOCATION, STEPS, type Seen, type Step } from './prism-check/requests.js';
import { describeViolation, judge, parseViolations, type Verdict } from './prism-check/violations.js';

const partner = loadFixtures(`${PACKAGE_ROOT}/fixtures`).partner;

/** The §4 and §5 headers of a clean POS call, with a fresh token (as `pos-sandbox token` mints it). */
function posHeaders(step: Step): Record<string, string> {
  const key = step.pos?.badToken ? 'not-the-partner-key' : partner.nonProdKey;
  const { token } = mintPosToken({ posName: partner.name, key, locationId: LOCATION, ttlSeconds: 600, nowSeconds: Math.floor(Date.now() / 1000) });
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    'x-service-locationid': LOCATION,
    'x-api-key': partner.apiKey ?? 'sandbox-only-x-api-key',
    'x-api-version': '2',
  };
  for (const name of step.pos?.omit ?? []) delete headers[name];
  return headers;
}

interface Outcome {
  step: Step;
  path: string;
  status: number;
  verdict: Verdict;
  problems: string[];
}

async function send(prismUrl: string, step: Step, seen: Seen): Promise<Outcome> {
  const path = typeof step.path === 'function' ? step.path(seen) : step.path;
  const headers: Record<string, string> = { ...(step.pos ? posHeaders(step) : {}), ...step.headers };
  let body: string | undefined;
  if (step.raw) {
    headers['content-type'] = step.raw.contentType;
    body = step.raw.text;
  } else if (step.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(step.body);
  }
  const response = await fetch(`${prismUrl}${path}`, { method: step.method, headers, body, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  const verdict = judge(parseViolations(response.headers.get('sl-violations')), step.invalidOnPurpose === true);
  const problems: string[] = [];
  if (step.prismCannotParse) {
    // Prism answers its own problem+json when the upstream body does not parse: the document says malformed is not JSON.
    const prismsOwn = response.status === 500 && (response.headers.get('content-type') ?? '').includes('application/problem+json');
    if (!prismsOwn) problems.push(`expected Prism's own 500 problem (it cannot parse a malformed body), got ${response.status}`);
  } else if (response.status !== step.status) {
    problems.push(`expected status ${step.status}, got ${response.status}: ${text.slice(0, 300)}`);
  }
  if (response.ok && step.remember) step.remember(JSON.parse(text) as unknown, seen);
  return { step, path, status: response.status, verdict, problems };
}

function report(outcome: Outcome): string {
  const { step, path, status, verdict, problems } = outcome;
  const lines = [`${step.method.padEnd(6)} ${path} → ${status}  (${step.name}${step.invalidOnPurpose ? ', invalid on purpose' : ''}${step.prismCannotParse ? ', not JSON on purpose' : ''})`];
  for (const v of verdict.response) lines.push(`         RESPONSE VIOLATION ${describeViolation(v)}`);
  for (const v of verdict.unexpectedRequest) lines.push(`         REQUEST VIOLATION on a valid request ${describeViolation(v)}`);
  if (step.invalidOnPurpose) for (const v of verdict.request) lines.push(`         expected request violation ${describeViolation(v)}`);
  for (const problem of problems) lines.push(`         PROBLEM ${problem}`);
  return lines.join('\n');
}

async function check(ports: [number, number]): Promise<number> {
  const posPort = await freePort(...ports);
  const sandboxPort = await freePort(ports[0], ports[1], [posPort]);
  const prismPort = await freePort(ports[0], ports[1], [posPort, sandboxPort]);
  let pos: Server | undefined;
  try {
    pos = await startPosOrderEndpoint(posPort);
    await startSandbox(sandboxPort, `http://127.0.0.1:${posPort}/order`);
    await startPrism(prismPort, `http://127.0.0.1:${sandboxPort}`);
    process.stdout.write(`prism proxy on :${prismPort} → pos-sandbox serve --memory on :${sandboxPort} (orders to a test POS on :${posPort})\n\n`);

    const seen: Seen = {};
    const outcomes: Outcome[] = [];
    for (const step of STEPS) {
      const outcome = await send(`http://127.0.0.1:${prismPort}`, step, seen);
      outcomes.push(outcome);
      process.stdout.write(`${report(outcome)}\n`);
    }
    const count = (pick: (o: Outcome) => unknown[]) => outcomes.reduce((sum, o) => sum + pick(o).length, 0);
    const responseViolations = count((o) => o.verdict.response);
    const unexpectedRequest = count((o) => o.verdict.unexpectedRequest);
    const expectedRequest = count((o) => (o.step.invalidOnPurpose ? o.verdict.request : []));
    const problems = count((o) => o.problems);
    process.stdout.write(
      `\n${outcomes.length} requests through Prism: ${responseViolations} response violation(s), ${unexpectedRequest} request violation(s) on valid requests, ` +
        `${problems} unexpected status(es); ${expectedRequest} request violation(s) of the ${outcomes.filter((o) => o.step.invalidOnPurpose).length} requests invalid on purpose (expected, not counted).\n` +
        'Only violations of the answers, of requests meant to be valid, and unexpected statuses fail the check.\n',
    );
    return responseViolations + unexpectedRequest + problems === 0 ? 0 : 1;
  } finally {
    pos?.close();
    pos?.closeAllConnections();
    await stopChildren();
  }
}

function parsePorts(value: string): [number, number] {
  const match = /^(\d+)-(\d+)$/.exec(value);
  const range = match ? ([Number(match[1]), Number(match[2])] as [number, number]) : undefined;
  if (!range || range[0] < 1 || range[1] > 65535 || range[1] - range[0] < 2) throw new Error(`--ports must be FROM-TO with at least 3 ports, got '${value}'`);
  return range;
}

new Command('check-prism')
  .description('send real requests through prism proxy to a real sandbox and fail on any violation of openapi/openapi.json')
  .option('--ports <from-to>', 'where to look for the 3 free ports (test POS, sandbox, Prism)', '4900-4959')
  .action(async (flags: { ports: string }) => {
    try {
      process.exitCode = await check(parsePorts(flags.ports));
    } catch (error) {
      process.stderr.write(`check:prism could not run: ${(error as Error).message}\n`);
      process.exitCode = 1;
    }
  })
  .parseAsync()
  .catch((error: unknown) => {
    process.stderr.write(`check:prism: ${String(error)}\n`);
    process.exitCode = 1;
  });
