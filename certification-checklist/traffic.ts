/** Pure: questions asked of captured journal entries by the checklist items. */
import type { JournalEntry } from '../server/journal/journal-entry.js';
import type { Traffic } from './checklist-types.js';
import { isUpdateOrderState, lastSegment } from '../server/migration/v1-habits.js';

/** The traffic an item judges, from what its step captured (the runner's record, or a report's). */
export function trafficOf(step: Pick<Traffic, 'entries' | 'orders' | 'refunds' | 'asked' | 'actor'>): Traffic {
  return { entries: step.entries, orders: step.orders, refunds: step.refunds, asked: step.asked, ...(step.actor ? { actor: step.actor } : {}) };
}

/** The POS's own calls to the sandbox (refunds, menu updates, status calls). */
export const posCalls = (traffic: Traffic): JournalEntry[] => traffic.entries.filter((entry) => entry.direction === 'inbound');

/** Calls no fault rule answered: the ones authentication and validation really judged. */
export const unfaulted = (entries: readonly JournalEntry[]): JournalEntry[] => entries.filter((entry) => entry.fault === undefined);

export const isRefund = (entry: JournalEntry): boolean => entry.direction === 'inbound' && entry.path.endsWith('/order/refund');
export const isMenu = (entry: JournalEntry): boolean => entry.direction === 'inbound' && entry.method === 'PUT' && entry.path.endsWith('/menu');
/** A status call, or the POS's decision sent to v1's UpdateOrderState (refused 410, and quoted as the status call it meant). */
export const isStatusCall = (entry: JournalEntry): boolean =>
  entry.direction === 'inbound' && (entry.path.endsWith('/order/status') || isUpdateOrderState(lastSegment(entry.path)));
export const isDelivery = (entry: JournalEntry): boolean => entry.direction === 'outbound';

/** The ExternalId a POS call names in its body (a refund, a status call), whatever its type; undefined when none. */
export const namedExternalId = (entry: JournalEntry): unknown => (entry.request.body as { ExternalId?: unknown } | undefined)?.ExternalId;

/** A string in quotes, anything else with its JSON type, so 100006 and "100006" never read alike. */
export function typedValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'nothing';
  const type = value === null ? 'JSON null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
  const text = JSON.stringify(value) ?? String(value);
  return `${text.length > 60 ? `${text.slice(0, 57)}…` : text} (${type}, not a string)`;
}

/** The 2xx answers. */
export const succeeded = (entry: JournalEntry): boolean => entry.response.status >= 200 && entry.response.status < 300;

/** Every error message of a response, in either envelope (§2.3: code/message or Code/Message). */
export function errorMessages(entry: JournalEntry): string[] {
  const errors = (entry.response.body as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.map((error: Record<string, unknown>) => String(error.message ?? error.Message ?? ''));
}

/** The claims of the token an entry carried, when it was a readable JWT. */
export const claimsOf = (entry: JournalEntry): Record<string, unknown> | undefined => entry.token?.claims;

/** Entries with a finding of `code`. */
export const withFinding = (entries: readonly JournalEntry[], code: string): JournalEntry[] =>
  entries.filter((entry) => entry.findings.some((found) => found.code === code));

/** The first message of a finding of `code`, for a verdict to quote. */
export const findingMessage = (entries: readonly JournalEntry[], code: string): string | undefined =>
  entries.flatMap((entry) => entry.findings).find((found) => found.code === code)?.message;

/** "2 of 5 calls": counts for a verdict message. */
export const countOf = (some: number, all: number, noun = 'call'): string => `${some} of ${all} ${noun}${all === 1 ? '' : 's'}`;
