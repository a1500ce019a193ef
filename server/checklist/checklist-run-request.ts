/** Pure: the body of POST /_sandbox/checklist/runs, checked with every problem listed. */
import { CAPABILITIES, type Capability } from '../../certification-checklist/checklist-types.js';
import { BUGS, type Bug } from '../../reference-pos/bugs.js';
import { describeValue, isLabel } from '../http/messages.js';

export interface ChecklistRunRequest {
  /** Driver mode against a POS test build at this URL, or against the bundled reference POS (started for the run). */
  driver: { url: string; posOrderUrl?: string } | { referencePos: true; bugs: Bug[] };
  capabilities: Capability[];
  only?: string[];
  windowMs?: number;
  pos?: { name?: string; version?: string; build?: string };
}

const FIELDS = ['driverUrl', 'posOrderUrl', 'referencePos', 'bugs', 'capabilities', 'only', 'windowMs', 'posName', 'posVersion', 'posBuild'];
const HTTP_URL = /^https?:\/\/[^/\s]+(\/\S*)?$/;

/** `itemIds`: the checklist's items, which `only` may name (handed in: the checklist is loaded when a run starts). */
export function checkChecklistRunRequest(body: unknown, itemIds: readonly string[]): { ok: true; request: ChecklistRunRequest } | { ok: false; problems: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, problems: [`body must be a JSON object such as {"referencePos":true,"capabilities":["refund"]}, got ${describeValue(body)}`] };
  }
  const input = body as Record<string, unknown>;
  const problems = Object.keys(input)
    .filter((field) => !FIELDS.includes(field))
    .map((field) => `${field} is not a field of a checklist run (${FIELDS.join(', ')})`);
  const { driverUrl, posOrderUrl, referencePos, bugs = [], capabilities = [], only, windowMs, posName, posVersion, posBuild } = input;

  if ((driverUrl === undefined) === (referencePos === undefined)) problems.push('give exactly one of driverUrl (a POS test build that implements the driver contract) and referencePos: true (the bundled reference POS)');
  if (driverUrl !== undefined && (typeof driverUrl !== 'string' || !HTTP_URL.test(driverUrl))) problems.push(`driverUrl must be an http(s) URL, got ${describeValue(driverUrl)}`);
  if (posOrderUrl !== undefined && (typeof posOrderUrl !== 'string' || !HTTP_URL.test(posOrderUrl))) problems.push(`posOrderUrl must be an http(s) URL, got ${describeValue(posOrderUrl)}`);
  if (referencePos !== undefined && referencePos !== true) problems.push(`referencePos must be true, got ${describeValue(referencePos)}`);
  if (referencePos === true && posOrderUrl !== undefined) problems.push("posOrderUrl goes with driverUrl: the reference POS's order endpoint is its own");
  const bugList = stringList(bugs, 'bugs', Object.keys(BUGS), problems);
  if (bugList.length > 0 && referencePos !== true) problems.push('bugs break the bundled reference POS on purpose: they go with referencePos: true');
  const capabilityList = stringList(capabilities, 'capabilities', CAPABILITIES, problems) as Capability[];
  const onlyList = only === undefined ? undefined : stringList(only, 'only', itemIds, problems);
  if (onlyList !== undefined && onlyList.length === 0) problems.push('only must name at least one item, or be left out for the whole checklist');
  if (windowMs !== undefined && (typeof windowMs !== 'number' || !Number.isInteger(windowMs) || windowMs < 0 || windowMs > 60_000)) {
    problems.push(`windowMs must be a whole number of milliseconds from 0 to 60000, got ${describeValue(windowMs)}`);
  }
  const pos: Record<string, string> = {};
  for (const [field, value, key] of [['posName', posName, 'name'], ['posVersion', posVersion, 'version'], ['posBuild', posBuild, 'build']] as const) {
    if (value === undefined) continue;
    if (typeof value !== 'string' || !isLabel(value)) problems.push(`${field} must be 1 to 100 printable characters (no control, bidirectional or invisible one), starting with a non-space, got ${describeValue(value)}`);
    else pos[key] = value;
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    request: {
      driver: referencePos === true ? { referencePos: true, bugs: bugList as Bug[] } : { url: driverUrl as string, ...(posOrderUrl === undefined ? {} : { posOrderUrl: posOrderUrl as string }) },
      capabilities: capabilityList,
      ...(onlyList === undefined ? {} : { only: onlyList }),
      ...(windowMs === undefined ? {} : { windowMs: windowMs as number }),
      ...(Object.keys(pos).length > 0 ? { pos } : {}),
    },
  };
}

function stringList(value: unknown, field: string, known: readonly string[], problems: string[]): string[] {
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) {
    problems.push(`${field} must be a list of strings, got ${describeValue(value)}`);
    return [];
  }
  const unknown = value.filter((entry) => !known.includes(entry));
  if (unknown.length > 0) problems.push(`${field}: unknown ${unknown.map((entry) => `'${entry}'`).join(', ')}; known are ${known.join(', ')}`);
  return [...new Set(value)];
}

/** A name, version or build id a report can print: 1–100 characters, no control characters, no leading space. */
