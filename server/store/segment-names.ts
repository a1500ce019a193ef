/** Pure: how segments are named (`refunds-000001`), so the collection that writes them and the check that reads them agree. */

/** The collections kept in segments, each with the field that identifies a record. */
export const SEGMENTED_COLLECTIONS = { orders: 'OrderId', refunds: 'id' } as const;
export type SegmentedCollectionName = keyof typeof SEGMENTED_COLLECTIONS;

const SEGMENT_NAME = /^([a-z]+)-(\d{6,})$/;

/** The document name of segment `number` (from 1) of a collection. */
export function segmentName(prefix: string, number: number): string {
  return `${prefix}-${String(number).padStart(6, '0')}`;
}

/** `refunds-000002` → refunds, 2; undefined for any other name. */
export function parseSegmentName(name: string): { collection: SegmentedCollectionName; number: number } | undefined {
  const match = SEGMENT_NAME.exec(name);
  if (!match || !Object.hasOwn(SEGMENTED_COLLECTIONS, match[1]!)) return undefined;
  const number = Number(match[2]);
  // refunds-1234567 is a name the collection writes; refunds-0000001 is not.
  if (segmentName(match[1]!, number) !== name || number < 1) return undefined;
  return { collection: match[1] as SegmentedCollectionName, number };
}

/** The collections kept in record logs instead (`refunds-log-000001.jsonl`): they grow with every request. */
export const LOGGED_COLLECTIONS = { refunds: 'id' } as const;
export type LoggedCollectionName = keyof typeof LOGGED_COLLECTIONS;

const LOG_NAME = /^([a-z]+)-log-(\d{6,})$/;

/** The document name of log file `number` (from 1) of a collection; the file is `<name>.jsonl`. */
export function logName(prefix: string, number: number): string {
  return `${prefix}-log-${String(number).padStart(6, '0')}`;
}

/** `refunds-log-000002` → refunds, 2; undefined for any other name. */
export function parseLogName(name: string): { collection: LoggedCollectionName; number: number } | undefined {
  const match = LOG_NAME.exec(name);
  if (!match || !Object.hasOwn(LOGGED_COLLECTIONS, match[1]!)) return undefined;
  const number = Number(match[2]);
  if (logName(match[1]!, number) !== name || number < 1) return undefined;
  return { collection: match[1] as LoggedCollectionName, number };
}
