/** Pure: base32 as RFC 4648 writes it (capitals and 2–7), for the redaction to search a secret in that form too. */
const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Bytes as base32, unpadded. */
export function base32Text(bytes: Buffer): string {
  let text = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      text += BASE32_ALPHABET[(value >>> bits) & 31];
    }
  }
  return bits > 0 ? text + BASE32_ALPHABET[(value << (5 - bits)) & 31] : text;
}

/** The bytes of a base32 run. */
export function base32Bytes(run: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of run.replace(/=+$/, '')) {
    value = ((value << 5) | BASE32_ALPHABET.indexOf(char)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >>> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}
