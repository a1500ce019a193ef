/**
 * Pure: which sandbox a command talks to. One rule for every command that talks to a running sandbox (the control
 * commands, checklist, the reference POS, export postman): --sandbox URL, else SANDBOX_URL, else the default address.
 */
import { DEFAULT_HOST, DEFAULT_PORT } from '../config.js';

export const DEFAULT_SANDBOX_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;

export type SandboxUrl = { ok: true; url: string; from: '--sandbox' | 'SANDBOX_URL' | 'the default' } | { ok: false; problem: string };

/** The base URL without a trailing slash (a path is kept: a sandbox behind a proxy may live under one). */
export function resolveSandboxUrl(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): SandboxUrl {
  const fromEnv = env.SANDBOX_URL === undefined || env.SANDBOX_URL.trim() === '' ? undefined : env.SANDBOX_URL.trim();
  const [value, from] = flag !== undefined ? [flag, '--sandbox' as const] : fromEnv !== undefined ? [fromEnv, 'SANDBOX_URL' as const] : [DEFAULT_SANDBOX_URL, 'the default' as const];
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    return { ok: false, problem: `${from} must be the http(s) address of the sandbox, such as ${DEFAULT_SANDBOX_URL}, got '${value}'` };
  }
  return { ok: true, url: `${url.origin}${url.pathname.replace(/\/+$/, '')}`, from };
}
