/** Pure: how segments (`refunds-000001`) and record logs (`refunds-log-000001`) are named, so their writer and the check agree. */

/** The collections kept in segments, each with the field that identifies a record. */
export const SEGMENTED_COLLECTIONS = { orders: 'OrderId', refunds: 'id' } as const;
export type SegmentedCollectionName = keyof typeof SEGMENTED_COLLECTIONS;

/** The collections kept in record logs instead (`refunds-log-000001.jsonl`): they grow with every request. */
export const LOGGED_COLLECTIONS = { refunds: 'id' } as const;
export type LoggedCollectionName = keyof typeof LOGGED_COLLECTIONS;

/** `<prefix><infix><number from 1, at least 6 digits>`. */
function numberedName(prefix: string, infix: string, number: number): string {
  return `${prefix}${infix}${String(number).padStart(6, '0')}`;
}

/** One pattern per infix, made once: the file storage parses a name at every append. */
const PATTERNS: Record<string, RegExp> = {};

/** The inverse of numberedName for one of `collections`; undefined for any other name. */
function parseNumberedName<C extends string>(name: string, infix: string, collections: Readonly<Record<C, string>>): { collection: C; number: number } | undefined {
  const match = (PATTERNS[infix] ??= new RegExp(`^([a-z]+)${infix}(\\d{6,})$`)).exec(name);
  if (!match || !Object.hasOwn(collections, match[1]!)) return undefined;
  const number = Number(match[2]);
  // refunds-1234567 is a name the collection writes; refunds-0000001 is not.
  if (numberedName(match[1]!, infix, number) !== name || number < 1) return undefined;
  return { collection: match[1] as C, number };
}

/** The document name of segment `number` (from 1) of a collection. */
export function segmentName(prefix: string, number: number): string {
  return numberedName(prefix, '-', number);
}

/** `refunds-000002` → refunds, 2; undefined for any other name. */
export function parseSegmentName(name: string): { collection: SegmentedCollectionName; number: number } | undefined {
  return parseNumberedName(name, '-', SEGMENTED_COLLECTIONS);
}

/** The document name of log file `number` (from 1) of a collection; the file is `<name>.jsonl`. */
export function logName(prefix: string, number: number): string {
  return numberedName(prefix, '-log-', number);
}

/** `refunds-log-000002` → refunds, 2; undefined for any other name. */
export function parseLogName(name: string): { collection: LoggedCollectionName; number: number } | undefined {
  return parseNumberedName(name, '-log-', LOGGED_COLLECTIONS);
}
