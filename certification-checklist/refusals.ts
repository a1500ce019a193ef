/** Pure: a refused POS call quoted as a verdict says it, and the item whose rule it broke; the item that needed the call is that one's knock-on. */
import type { JournalEntry } from '../server/journal/journal-entry.js';
import type { TokenPart } from '../server/tokens/pos-token-rules.js';
import type { Verdict } from './checklist-types.js';
import { fieldProblem, priceProblem } from './menu-body-rules.js';
import { errorMessages, isMenu, succeeded } from './traffic.js';
import { blocked, fail } from './verdicts.js';

/** The AUTH item whose rule each part of a refused token breaks. */
export const ITEM_OF_TOKEN_PART: Record<TokenPart, string> = {
  authorization: 'AUTH-01',
  alg: 'AUTH-01',
  payload: 'AUTH-01',
  signature: 'AUTH-01',
  aud: 'AUTH-02',
  iss: 'AUTH-03',
  sub: 'AUTH-04',
  jti: 'AUTH-05',
  nbf: 'AUTH-06',
  exp: 'AUTH-06',
  query: 'AUTH-07',
};

/** A call that reached the sandbox and was answered with an error (not one a fault rule answered, nor one never answered). */
export const wasRefused = (entry: JournalEntry): boolean => entry.response.status >= 400 && entry.fault === undefined;

/** `POST /v2/order/status (j-000123), refused 401: token claim exp is …` */
export function refusalText(entry: JournalEntry): string {
  const reasons = errorMessages(entry);
  return `${entry.method} ${entry.path} (${entry.id}), refused ${entry.response.status}${reasons.length > 0 ? `: ${reasons.join('; ')}` : ''}`;
}

/** The item whose rule a refused call broke, when that is not the judging item's own business; undefined otherwise. */
export function rootCauseOf(entry: JournalEntry): string | undefined {
  if (!wasRefused(entry)) return undefined;
  if (entry.response.status === 401) {
    const part = entry.tokenDefects?.[0]?.part;
    return part ? ITEM_OF_TOKEN_PART[part] : 'AUTH-01';
  }
  if (isMenu(entry) && entry.response.status === 400) {
    if (priceProblem(entry)) return 'MENU-03';
    if (fieldProblem(entry)) return 'MENU-04';
  }
  return undefined;
}

/** A knock-on of the item whose rule the refusal names, or the judging item's own failure. */
export function refusedVerdict(what: string, entry: JournalEntry, also: readonly JournalEntry[] = []): Verdict {
  const root = rootCauseOf(entry);
  const message = `${what} ${refusalText(entry)}`;
  const evidence = [entry, ...also.filter((other) => other !== entry)];
  return root ? { ...blocked(message, evidence), blockedBy: root } : { ...fail(message, evidence), cause: refusalShape(entry) };
}

/** A refusal without its particulars: two of one shape are one failure of the POS, two shapes are two. */
export function refusalShape(entry: JournalEntry): string {
  // Each reason once: a full update refused for one mistake in every item says it per item, a partial one once.
  const reasons = [
    ...new Set(
      errorMessages(entry).map((message) =>
        message
          .replace(/'[^']*'|"[^"]*"/g, '…')
          .replace(/\b(?:chk|ord|j|req|rf)-[\w-]+/g, '…')
          .replace(/\d+/g, 'N'),
      ),
    ),
  ].join('; ');
  return `${entry.method} ${entry.path} ${entry.response.status}: ${reasons}`;
}

/** The first call of `calls` the sandbox refused, if none of them got through. */
export const firstRefusal = (calls: readonly JournalEntry[]): JournalEntry | undefined => (calls.some(succeeded) ? undefined : calls.find(wasRefused));
