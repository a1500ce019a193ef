/** I/O: the key set `verify-report --keys` names: a JWKS file, or a deployment's /.well-known/jwks.json over HTTP(S). */
import { readFile } from 'node:fs/promises';
import { keysFromJwks, type VerificationKey } from '../../certification-checklist/report/signing-keys.js';

/** A key set is small; a larger answer is not one (and is not read whole). */
const MAX_BYTES = 256 * 1024;
const TIMEOUT_MS = 10_000;

export async function readKeySet(source: string): Promise<{ keys: VerificationKey[] } | { problem: string }> {
  let text: string;
  if (/^https?:\/\//i.test(source)) {
    const fetched = await fetchText(source);
    if ('problem' in fetched) return fetched;
    text = fetched.text;
  } else {
    try {
      text = await readFile(source, 'utf8');
    } catch (error) {
      return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
    }
    if (text.length > MAX_BYTES) return { problem: `is ${text.length} bytes; a key set is at most ${MAX_BYTES}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `is not JSON (${(error as Error).message})` };
  }
  return keysFromJwks(value);
}

async function fetchText(url: string): Promise<{ text: string } | { problem: string }> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/json' }, redirect: 'follow' });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { problem: `cannot be fetched (${cause?.code ?? cause?.message ?? (error as Error).message})` };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { problem: `answered ${response.status}, not the key set` };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_BYTES) return { problem: `answered more than ${MAX_BYTES} bytes; a key set is smaller` };
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8') };
}
