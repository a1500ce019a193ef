/** The one redaction of every output (journal, HAR, reports, events, logs): it knows the partner's key and remembers the signatures seen or minted. */
import type { JournalEntry } from './journal-entry.js';
import { scrubRecord, scrubText, scrubValue } from './redaction.js';
import { base32Text } from './base32.js';
import { looksLikeJson } from './secret-spans.js';
import { headSignatures, splitTokenSignatures } from './split-secrets.js';

/** Signatures remembered; the oldest is forgotten first. A token lives an hour, so this covers a busy hour. */
export const REMEMBERED_SIGNATURES = 10_000;

/** A run of base64url and dots, one character class so each position is read once: where a whole token sits. */
const DOTTED_RUN = /[A-Za-z0-9_.-]+/g;
/** A body names a few tokens at most: more are not remembered from it, so one body cannot push out every signature remembered. */
const TOKENS_PER_BODY = 16;

/** A piece of a signature this long, at every such step of it, is what a text that holds it in pieces of twice this length must hold. */
const PIECE = 8;
/** The new signatures looked for one by one in a large text; past them, the text is searched again whole. */
const LOOKED_FOR = 32;

/** Bounded, so a client sending a new path each call costs about 10 KB a partner. */
const RECURRING_TEXTS = 64;
const RECURRING_TEXT_LENGTH = 128;

/** The key as typed, base64 and base64url, as a query string decodes it and as JSON may escape it. */
function variantsOf(partnerKey: string): string[] {
  const encoded = (encoding: 'base64' | 'base64url') => Buffer.from(partnerKey).toString(encoding).replace(/=+$/, '');
  return [partnerKey, encoded('base64'), encoded('base64url'), partnerKey.replaceAll('+', ' '), partnerKey.replaceAll('/', '\\/')];
}

export class Redactor {
  private readonly signatures = new Set<string>();
  private readonly secrets: string[];
  private readonly forgetting: Array<() => void> = [];
  /** The token remembered last: a POS sends one token call after call, and nothing can have been added since. */
  private last: string | undefined;
  /** Recurring texts found clean since a signature was last added (recurringText). */
  private readonly clean = new Set<string>();
  private added = 0;
  /** The signatures in the order they were learnt, the first being number `learntBase`: what was learnt since a text was redacted. */
  private learntInOrder: string[] = [];
  private learntBase = 0;

  /** One partner's key; a hosted sandbox's log knows every partner's, and learns each signature its partners' redactors learn (`teaches`). */
  constructor(
    partnerKeys: string | readonly string[],
    private readonly teaches?: Redactor,
  ) {
    const keys = typeof partnerKeys === 'string' ? [partnerKeys] : partnerKeys;
    this.secrets = [...new Set(keys.filter((key) => key !== '').flatMap(variantsOf))];
  }

  /** Remembers a token's signature, so the signature sent alone later (`?s=<signature>`) is redacted too. */
  remember(token: string | undefined): void {
    if (token === this.last) return;
    this.last = token;
    this.add(token?.replace(/^\s*bearer\s+/i, '').trim().split('.')[2]);
  }

  /** Remembers the signature of a token cut across a request's headers, query values and path segments (its header and claims in one, its signature elsewhere), so the signature shown alone is redacted too. */
  rememberSplit(headers: Readonly<Record<string, string | string[] | undefined>>, target = ''): void {
    const values: string[] = [];
    for (const name in headers) {
      const value = headers[name];
      if (typeof value === 'string') values.push(value);
      else if (value !== undefined) values.push(...value);
    }
    if (target.length >= 32) values.push(...targetPieces(target));
    for (const signature of splitTokenSignatures(values, this.secrets)) this.add(signature);
  }

  /** How many signatures were new when learnt: what holds text redacted before compares it, to redact that text again. */
  get learnt(): number {
    return this.added;
  }

  /** Could `text`, redacted when `learnt` was `since`, hold a signature learnt after? A piece of one (`PIECE` characters, as base64, hex or base32) must be in it; past `LOOKED_FOR` new signatures, it is taken to. */
  couldHoldLearnt(text: string, since: number): boolean {
    if (since < this.learntBase || this.added - since > LOOKED_FOR) return true;
    const lower = text.toLowerCase();
    for (const signature of this.learntInOrder.slice(since - this.learntBase)) {
      const bytes = Buffer.from(signature, 'base64url');
      for (const form of [signature, bytes.toString('base64'), bytes.toString('hex'), base32Text(bytes)]) {
        for (let at = 0; at + PIECE <= form.length; at += PIECE) if (lower.includes(form.slice(at, at + PIECE).toLowerCase())) return true;
      }
    }
    return false;
  }

  /** Remembers the signatures of the tokens a body carries, whole or as header and claims, so one sent alone elsewhere (a path, a location, a field name) is redacted. */
  rememberTokensIn(body: string | undefined): void {
    // A token's claims start `.ey` or `.ew` in base64 (`{"`, `{ `, `{` and a line break): most bodies have neither.
    if (body === undefined || (!body.includes('.ey') && !body.includes('.ew'))) return;
    let found = 0;
    for (const [run] of body.matchAll(DOTTED_RUN)) {
      if (!run.includes('.ey') && !run.includes('.ew')) continue;
      const parts = run.split('.');
      for (let at = 0; at + 1 < parts.length; at++) {
        const [header, claims, signature] = [parts[at]!, parts[at + 1]!, parts[at + 2]];
        if (!/^e[wy]/.test(claims) || !looksLikeJson(header) || !looksLikeJson(claims)) continue;
        // A head alone (its signature in a field name, a header, further on) is known by the signature the key gives it.
        if (signature !== undefined && signature.length >= 16) this.add(signature);
        else for (const worked of headSignatures([`${header}.${claims}`], this.secrets).signatures) this.add(worked);
        if (++found === TOKENS_PER_BODY) return;
      }
    }
  }

  private add(signature: string | undefined): void {
    if (signature === undefined || signature.length < 16) return;
    // A signature new to this redactor may be in a text found clean before it: those are searched again.
    if (!this.signatures.delete(signature)) {
      this.clean.clear();
      this.added += 1;
      this.learntInOrder.push(signature);
      if (this.learntInOrder.length > REMEMBERED_SIGNATURES) {
        const dropped = this.learntInOrder.length / 2;
        this.learntInOrder = this.learntInOrder.slice(dropped);
        this.learntBase += dropped;
      }
      this.teaches?.add(signature);
    }
    this.signatures.add(signature);
    if (this.signatures.size > REMEMBERED_SIGNATURES) {
      for (const listener of this.forgetting) listener();
      this.signatures.delete(this.signatures.values().next().value as string);
    }
  }

  /** Whoever holds text not yet redacted redacts it before a signature is forgotten. */
  beforeForgetting(listener: () => void): void {
    this.forgetting.push(listener);
  }

  text(text: string): string {
    return scrubText(text, this.secrets, this.signatures);
  }

  /** A text that recurs (a path, a location id): one found clean is not searched again until a signature is added. */
  recurringText(text: string): string {
    if (this.clean.has(text)) return text;
    const scrubbed = scrubText(text, this.secrets, this.signatures);
    if (scrubbed === text && text.length <= RECURRING_TEXT_LENGTH) {
      if (this.clean.size >= RECURRING_TEXTS) this.clean.clear();
      this.clean.add(text);
    }
    return scrubbed;
  }

  value<T>(value: T): T {
    return scrubValue(value, this.secrets, this.signatures);
  }

  /** A record's values redacted together too (a key split across two parameters, a token across two headers). */
  record(record: Readonly<Record<string, string>>): Record<string, string> {
    return scrubRecord(record, this.secrets, this.signatures);
  }

  /** A journal entry: its headers and query as records, then every string of it. */
  entry(entry: JournalEntry): JournalEntry {
    // An entry made by hand (a test's, an earlier version's) may lack a record: it is redacted value by value.
    const record = (value: Record<string, string> | undefined) => (typeof value === 'object' && value !== null ? this.record(value) : value);
    const joined = {
      ...entry,
      query: record(entry.query),
      ...(entry.request ? { request: { ...entry.request, headers: record(entry.request.headers) } } : {}),
      ...(entry.response ? { response: { ...entry.response, headers: record(entry.response.headers) } } : {}),
    } as JournalEntry;
    return this.value(joined);
  }
}

/** A request target's path segments and query values, decoded where they decode. */
function targetPieces(target: string): string[] {
  const query = target.indexOf('?');
  const path = query < 0 ? target : target.slice(0, query);
  const decoded = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const pieces = path.split('/').map(decoded);
  if (query >= 0) for (const [name, value] of new URLSearchParams(target.slice(query + 1))) pieces.push(name, value);
  return pieces;
}
