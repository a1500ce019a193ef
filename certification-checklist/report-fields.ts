/**
 * Pure: does a field a report prints (the POS's name, version and build, the URLs of the run) hold the partner's
 * key? A report is attached to a certification request and passed around; a key typed into `--pos-name` went into
 * every one of its files. The run knows the key only by its fingerprint (`GET /_sandbox/partners`, the first 16 hex
 * digits of its sha256), so every stretch of each field, as typed and decoded (percent, entities, escapes), is
 * fingerprinted and compared.
 */
import { createHash } from 'node:crypto';
import { decodedView } from '../server/journal/normalized-view.js';
import type { RunOptions } from './runner.js';

/** The shortest key the sandbox takes, and the longest stretch fingerprinted (a longer key is found by its first part only: none is). */
const SHORTEST_KEY = 8;
const LONGEST_KEY = 256;
/** Past this, a field is only searched in its first part: a URL is short, and a longer one is refused before. */
const LONGEST_FIELD = 2048;

/** Does `text` hold the key whose fingerprint (`sha256:<16 hex>`) this is? */
export function holdsKey(text: string, fingerprint: string): boolean {
  const wanted = fingerprint.replace(/^sha256:/, '');
  if (!/^[0-9a-f]{16}$/.test(wanted)) return false;
  const decoded = decodedView(text)?.text;
  for (const form of decoded === undefined ? [text] : [text, decoded]) {
    const bytes = Buffer.from(form.slice(0, LONGEST_FIELD), 'utf8');
    for (let start = 0; start + SHORTEST_KEY <= bytes.length; start++) {
      const hash = createHash('sha256');
      hash.update(bytes.subarray(start, start + SHORTEST_KEY - 1));
      for (let end = start + SHORTEST_KEY; end <= Math.min(bytes.length, start + LONGEST_KEY); end++) {
        hash.update(bytes.subarray(end - 1, end));
        if (hash.copy().digest('hex').startsWith(wanted)) return true;
      }
    }
  }
  return false;
}

/** The first field of the run (as its flag names it) that holds the key, or undefined. */
export function keyInReportFields(options: Pick<RunOptions, 'pos' | 'driverUrl' | 'posOrderUrl' | 'sandboxUrl'>, fingerprint: string | undefined): string | undefined {
  if (fingerprint === undefined) return undefined;
  const fields: Array<[string, string | undefined]> = [
    ['--pos-name', options.pos?.name],
    ['--pos-version', options.pos?.version],
    ['--pos-build', options.pos?.build],
    ['--driver', options.driverUrl],
    ['--pos-order-url', options.posOrderUrl],
    ['--sandbox', options.sandboxUrl],
  ];
  return fields.find(([, value]) => value !== undefined && holdsKey(value, fingerprint))?.[0];
}
