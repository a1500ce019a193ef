/** I/O: the key set `verify-report --keys` names: a JWKS file, or a deployment's /.well-known/jwks.json over HTTP(S). */
import { keysFromJwks, type VerificationKey } from '../../certification-checklist/report/signing-keys.js';
import { readPlainFile } from '../http/read-plain-file.js';

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
    const read = readPlainFile(source, MAX_BYTES, 'a key set');
    if ('problem' in read) return { problem: read.problem };
    text = read.text;
  }
  if (text.trimStart().startsWith('-----BEGIN')) return { problem: 'is a PEM file, not a key set: give a JWKS (JSON), as `pos-sandbox keys export` writes it or a deployment serves at /.well-known/jwks.json' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `is not JSON (${(error as Error).message}): a key set is a JWKS, as a deployment serves at /.well-known/jwks.json` };
  }
  return keysFromJwks(value);
}

/**
 * The answer's text, within the time and size a key set takes. A redirect is not followed: the keys checked are
 * those of the URL given, and the output names it; a set that moved is named so that its new URL is given.
 */
async function fetchText(url: string): Promise<{ text: string } | { problem: string }> {
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  try {
    const response = await fetch(url, { signal, headers: { accept: 'application/json' }, redirect: 'manual' });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      return { problem: `answered ${response.status}, a redirect to ${response.headers.get('location') ?? '(no location)'}: give the URL of the key set itself` };
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
  } catch (error) {
    // The time runs out while the headers or the body come: said as such, never a stack.
    if (signal.aborted) return { problem: `did not answer whole within ${TIMEOUT_MS / 1000} s` };
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { problem: `cannot be fetched (${cause?.code ?? cause?.message ?? (error as Error).message})` };
  }
}
