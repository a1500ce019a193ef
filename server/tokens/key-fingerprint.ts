/** Pure: the key as it may be shown: a fingerprint (`sha256:` and the first 16 hex digits of its sha256), never the key. */
import { createHash } from 'node:crypto';

export function keyFingerprint(key: string): string {
  return `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}
