/** Pure: the key's own encodings as they sit inside a blob (base64 at each alignment, UTF-16, base32, hex), so a blob is decoded only when it may hold the key. */
import { base32Text } from './base32.js';

/** Secrets shorter than this are not searched for: a 3-character key would redact every word that holds it. */
export const MIN_SECRET_LENGTH = 8;

export interface Markers {
  base64: RegExp | undefined;
  /** The key's base64 as UTF-16 text (both byte orders) would have it. */
  utf16: RegExp | undefined;
  base32: RegExp | undefined;
  hex: RegExp | undefined;
}

const markerCache = new WeakMap<readonly string[], Markers>();

/** The key inside a blob at each of the three base64 alignments, both alphabets, and as hex; one pattern each. */
export function markersOf(keys: readonly string[]): Markers {
  let markers = markerCache.get(keys);
  if (markers !== undefined) return markers;
  const base64 = new Set<string>();
  const utf16 = new Set<string>();
  const hex = new Set<string>();
  const base32 = new Set<string>();
  const cores = (bytes: Buffer, into: Set<string>) => {
    for (let shift = 0; shift < 3; shift++) {
      const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
      const core = encoded.slice(shift === 0 ? 0 : 4, -4).slice(0, 16);
      if (core.length >= 8) for (const form of [core, core.replaceAll('+', '-').replaceAll('/', '_')]) into.add(form);
    }
  };
  for (const key of keys) {
    if (key.length < MIN_SECRET_LENGTH) continue;
    const bytes = Buffer.from(key, 'utf8');
    cores(bytes, base64);
    cores(Buffer.from(key, 'utf16le'), utf16);
    cores(Buffer.from(key, 'utf16le').swap16(), utf16);
    hex.add(bytes.subarray(0, 8).toString('hex'));
    // In base32 a character is 5 bits: the key's own characters at each of the five alignments.
    for (let shift = 0; shift < 5; shift++) {
      const core = base32Text(Buffer.concat([Buffer.alloc(shift), bytes])).slice(Math.ceil((8 * shift) / 5), Math.floor((8 * (shift + bytes.length)) / 5)).slice(0, 16);
      if (core.length >= 8) base32.add(core);
    }
  }
  const pattern = (found: Set<string>, flags: string) => (found.size === 0 ? undefined : new RegExp([...found].map((text) => text.replace(/[+/]/g, '\\$&')).join('|'), flags));
  markers = { base64: pattern(base64, ''), utf16: pattern(utf16, ''), base32: pattern(base32, ''), hex: pattern(hex, 'i') };
  markerCache.set(keys, markers);
  return markers;
}
