/** The flags `checklist` and `certify` share, checked one way; every problem is a UsageError (stderr, exit 2). */
import { isLabel } from '../http/messages.js';
import { CAPABILITIES, type Capability } from '../../certification-checklist/checklist-types.js';
import { CHECKLIST } from '../../certification-checklist/items/all-items.js';
import { parseList } from '../../certification-checklist/scope.js';

/** A problem with the command line: said on stderr, exit 2. */
export class UsageError extends Error {}

export interface RunFlags {
  capabilities?: string;
  only?: string;
  waitS?: string;
  windowMs?: string;
  posName?: string;
  posVersion?: string;
  posBuild?: string;
}

export interface RunFlagValues {
  capabilities: Capability[];
  only?: string[];
  waitMs?: number;
  windowMs: number;
  pos: { name?: string; version?: string; build?: string };
}

export function runFlagValues(flags: RunFlags): RunFlagValues {
  const capabilities = parseList(flags.capabilities, CAPABILITIES, 'capability', 'capabilities');
  if (!capabilities.ok) throw new UsageError(capabilities.problem);
  const only = flags.only === undefined ? undefined : parseList(flags.only, CHECKLIST.map((item) => item.id), 'item');
  if (only && !only.ok) throw new UsageError(only.problem);
  const waitS = flags.waitS === undefined ? undefined : Number(flags.waitS);
  if (waitS !== undefined && !(Number.isInteger(waitS) && waitS > 0)) throw new UsageError(`--wait-s must be a whole number of seconds, got '${flags.waitS}'`);
  const windowMs = Number(flags.windowMs ?? '3000');
  if (!Number.isInteger(windowMs) || windowMs < 0) throw new UsageError(`--window-ms must be a whole number, got '${flags.windowMs}'`);
  for (const [name, value] of [['--pos-name', flags.posName], ['--pos-version', flags.posVersion], ['--pos-build', flags.posBuild]] as const) {
    if (value !== undefined && !isLabel(value)) throw new UsageError(`${name} must be 1 to 100 printable characters (no control, bidirectional or invisible one), starting with a non-space, got ${JSON.stringify(value)}`);
  }
  const pos = { ...(flags.posName ? { name: flags.posName } : {}), ...(flags.posVersion ? { version: flags.posVersion } : {}), ...(flags.posBuild ? { build: flags.posBuild } : {}) };
  return { capabilities: capabilities.values, ...(only?.ok ? { only: only.values } : {}), ...(waitS ? { waitMs: waitS * 1000 } : {}), windowMs, pos };
}

/** Each URL given must be http(s) with a host. */
export function checkUrls(urls: ReadonlyArray<readonly [name: string, url: string | undefined]>): void {
  for (const [name, url] of urls) {
    if (url !== undefined && !/^https?:\/\/[^/]+/.test(url)) throw new UsageError(`${name} must be an http(s) URL, got '${url}'`);
  }
}

/** A name, version or build id a report can print: 1–100 characters, no control characters, no leading space. */
