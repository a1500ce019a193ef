/**
 * The one redaction of every output: journal entries (and so the HAR and reports made from them), events and
 * log lines all pass through the same Redactor, which knows the partner's key and remembers the signatures of
 * the tokens the sandbox has seen or minted.
 */
import { scrubText, scrubValue } from './redaction.js';

/** Signatures remembered; the oldest is forgotten first. A token lives an hour, so this covers a busy hour. */
export const REMEMBERED_SIGNATURES = 10_000;

export class Redactor {
  private readonly signatures = new Set<string>();
  private readonly secrets: string[];
  private readonly forgetting: Array<() => void> = [];
  /** The token remembered last: a POS sends one token call after call, and nothing can have been added since. */
  private last: string | undefined;

  constructor(partnerKey: string) {
    // The key as it was typed, and as base64 and base64url (a client that encodes it before sending).
    const encoded = (encoding: 'base64' | 'base64url') => Buffer.from(partnerKey).toString(encoding).replace(/=+$/, '');
    // Also as a query string decodes it ('+' read as a space) and as JSON may escape it ('/' written '\/').
    const variants = [partnerKey, encoded('base64'), encoded('base64url'), partnerKey.replaceAll('+', ' '), partnerKey.replaceAll('/', '\\/')];
    this.secrets = partnerKey === '' ? [] : [...new Set(variants)];
  }

  /** Remembers a token's signature, so the signature sent alone later (`?s=<signature>`) is redacted too. */
  remember(token: string | undefined): void {
    if (token === this.last) return;
    this.last = token;
    const signature = token?.replace(/^\s*bearer\s+/i, '').trim().split('.')[2];
    if (signature === undefined || signature.length < 16) return;
    this.signatures.delete(signature);
    this.signatures.add(signature);
    if (this.signatures.size > REMEMBERED_SIGNATURES) {
      for (const listener of this.forgetting) listener();
      this.signatures.delete(this.signatures.values().next().value as string);
    }
  }

  /**
   * Calls `listener` just before a signature is forgotten: whoever holds text not yet redacted (the journal
   * renders its entries when they are read) redacts it then, while this redactor still knows every signature.
   */
  beforeForgetting(listener: () => void): void {
    this.forgetting.push(listener);
  }

  text(text: string): string {
    return scrubText(text, this.secrets, this.signatures);
  }

  value<T>(value: T): T {
    return scrubValue(value, this.secrets, this.signatures);
  }
}
