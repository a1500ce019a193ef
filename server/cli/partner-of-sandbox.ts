/**
 * I/O: whether a running sandbox plays the partner a command is about to write files for (an export that signs its
 * tokens). Its health names the partner; a token signed with the key, judged by POST /_sandbox/tokens/check, says
 * whether the key is its key, without the key leaving this machine's process.
 */
import type { PartnerIdentity } from '../config.js';
import { causeOf } from '../../certification-checklist/sandbox-control.js';
import { mintPosToken } from '../tokens/mint-pos-token.js';

/**
 * How long one question to the sandbox may take. A refused connection answers at once; only a server that stays
 * silent costs this, and a loaded machine took over 2 s for a sandbox that did answer (a false "not checked").
 */
const ASK_TIMEOUT_MS = 10_000;

export type PartnerCheck = { kind: 'same' } | { kind: 'other'; problem: string } | { kind: 'unknown'; note: string };

export async function checkPartnerOf(sandboxUrl: string, partner: PartnerIdentity, locationId: string, adminToken: string | undefined): Promise<PartnerCheck> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(adminToken ? { authorization: `Bearer ${adminToken}` } : {}) };
  const ask = async (path: string, body?: unknown) => {
    const response = await fetch(`${sandboxUrl}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(ASK_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  };
  let playing: unknown;
  try {
    playing = (await ask('/_sandbox/health')).partner;
  } catch (error) {
    return { kind: 'unknown', note: `the sandbox at ${sandboxUrl} did not answer (${causeOf(error)}), so the partner could not be checked against it; the environment is ${partner.name}'s` };
  }
  const fix = 'set SANDBOX_PARTNER and SANDBOX_NONPROD_KEY as the sandbox was started with, and export again';
  if (typeof playing === 'string' && playing !== partner.name) {
    return { kind: 'other', problem: `the sandbox at ${sandboxUrl} plays partner '${playing}', but the export would sign its tokens as '${partner.name}': every call would be refused 401; ${fix}` };
  }
  try {
    const { token } = mintPosToken({ posName: partner.name, key: partner.nonProdKey, locationId, ttlSeconds: 60, nowSeconds: Math.floor(Date.now() / 1000) });
    const judged = await ask('/_sandbox/tokens/check', { token });
    const signature = (judged.rules as Array<{ rule: string; verdict: string }> | undefined)?.find((rule) => rule.rule === 'signature');
    if (signature?.verdict === 'fail') return { kind: 'other', problem: `the sandbox at ${sandboxUrl} plays partner '${partner.name}' with another non-prod key than the export would sign with: every call would be refused 401; ${fix}` };
  } catch {
    // A sandbox whose token check is not ours to call (a hosted one without the operator's token): the name matched.
  }
  return { kind: 'same' };
}
