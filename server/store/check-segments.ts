/**
 * Pure: what is wrong with the segments folder: names that are not segments, a gap in a collection's numbering
 * (the next new segment would overwrite a later one), records of the wrong shape or collection, ids used twice.
 */
import { join } from 'node:path';
import type { Ajv, ValidateFunction } from 'ajv';
import { storedSchemaMessages } from './stored-schema-messages.js';
import { compileSchema, newAjv } from '../fixtures/compiled-schemas.js';
import { orderSegmentSchema, refundRecordSchema, refundSegmentSchema, STORED_AJV_OPTIONS } from './stored-state-schemas.js';
import { parseSegmentName, segmentName, SEGMENTED_COLLECTIONS, type SegmentedCollectionName } from './segment-names.js';
import type { StoredDocuments, StoredEntry } from './stored-documents.js';

const RECORDS: Record<SegmentedCollectionName, { one: string; segment: string; other: SegmentedCollectionName }> = {
  orders: { one: 'an order', segment: 'an orders segment', other: 'refunds' },
  refunds: { one: 'a refund', segment: 'a refunds segment', other: 'orders' },
};

let validators: Record<SegmentedCollectionName, ValidateFunction<Array<Record<string, string>>>> | undefined;

function validatorOf(collection: SegmentedCollectionName): ValidateFunction<Array<Record<string, string>>> {
  if (!validators) {
    let ajv: Ajv | undefined;
    const compile = (schema: object) => compileSchema<Array<Record<string, string>>>(() => (ajv ??= newAjv(STORED_AJV_OPTIONS)), STORED_AJV_OPTIONS, schema);
    validators = { orders: compile(orderSegmentSchema), refunds: compile(refundSegmentSchema) };
  }
  return validators[collection];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every problem of the segments folder, each starting with the path it is about. */
export function segmentProblems(stored: Pick<StoredDocuments, 'segmentsFolder' | 'entries'>): string[] {
  const problems: string[] = [];
  const byCollection = new Map<SegmentedCollectionName, Array<{ number: number; entry: StoredEntry }>>();
  for (const entry of stored.entries) {
    if (entry.log) {
      problems.push(...logProblems(entry));
      continue;
    }
    const parsed = entry.segment && parseSegmentName(entry.segment.name);
    if (!parsed) {
      problems.push(
        `${entry.path}: not a file of this sandbox (it keeps orders-NNNNNN.json, refunds-log-NNNNNN.jsonl and, from earlier versions, refunds-NNNNNN.json); move it out of ${stored.segmentsFolder}`,
      );
      continue;
    }
    byCollection.set(parsed.collection, [...(byCollection.get(parsed.collection) ?? []), { number: parsed.number, entry }]);
  }
  for (const [collection, segments] of byCollection) {
    segments.sort((a, b) => a.number - b.number);
    const gap = segments.findIndex((segment, index) => segment.number !== index + 1);
    if (gap >= 0) {
      const missing = join(stored.segmentsFolder, `${segmentName(collection, gap + 1)}.json`);
      problems.push(
        `${missing}: missing, but ${segments.at(-1)!.entry.file} exists; the segments of a collection are numbered from 000001 without a gap, or a new one would overwrite an old one`,
      );
    }
    problems.push(...recordProblems(collection, segments.map((segment) => segment.entry)));
  }
  return problems;
}

let logRecordValidator: ValidateFunction | undefined;

/**
 * A log's lines are versions of records: an id appears once a version, so ids are not checked for repeats.
 * A log only ever holds refunds (the one logged collection); its file numbers may have gaps, since the
 * retention removes old files, and a new file always comes after the last.
 */
function logProblems(entry: StoredEntry): string[] {
  const content = entry.log!.content;
  if (!content.ok) return [`${entry.path}: ${content.problem}`];
  const problems: string[] = [];
  // Only the lines JSON.parse read: a line the sandbox's own reader took is a valid record by construction.
  for (const index of content.parsed) {
    const record = content.records[index];
    logRecordValidator ??= compileSchema(() => newAjv(STORED_AJV_OPTIONS), STORED_AJV_OPTIONS, refundRecordSchema);
    if (logRecordValidator(record)) continue;
    const what = isObject(record) && !('id' in record) && 'OrderId' in record ? ['is an order record (it has OrderId), not a refund: a refunds log holds refunds only'] : storedSchemaMessages(logRecordValidator.errors, 'the record');
    problems.push(...what.map((problem) => `${entry.path}: line ${index + 1}: ${problem}`));
  }
  return problems;
}

function recordProblems(collection: SegmentedCollectionName, entries: StoredEntry[]): string[] {
  const problems: string[] = [];
  const { one, segment, other } = RECORDS[collection];
  const key = SEGMENTED_COLLECTIONS[collection];
  const otherKey = SEGMENTED_COLLECTIONS[other];
  const seen = new Map<string, string>();
  for (const entry of entries) {
    const content = entry.segment!.content;
    if (!content.ok) {
      problems.push(`${entry.path}: ${content.problem}`);
      continue;
    }
    const records: unknown = content.value;
    const validate = validatorOf(collection);
    if (validate(records)) {
      records.forEach((record, index) => {
        const id = record[key]!;
        const first = seen.get(id);
        if (first) problems.push(`${entry.path}: [${index}].${key} ${quoted(id)} is used by ${first} too; every record needs its own ${key}`);
        else seen.set(id, `${entry.file}[${index}]`);
      });
      continue;
    }
    // Records of the other collection are named as such, not as a list of fields they lack.
    const strays = Array.isArray(records) ? records.flatMap((record: unknown, index) => (isObject(record) && !(key in record) && otherKey in record ? [index] : [])) : [];
    if (strays.length > 0) {
      const more = strays.length > 1 ? ` (and ${strays.length - 1} more)` : '';
      problems.push(`${entry.path}: [${strays[0]}] is ${RECORDS[other].one} record (it has ${otherKey})${more}, not ${one}: ${segment} holds ${collection} only`);
    }
    const errors = (validate.errors ?? []).filter((error) => !strays.includes(Number(error.instancePath.split('/')[1])));
    problems.push(...storedSchemaMessages(errors, 'the segment').map((problem) => `${entry.path}: ${problem}`));
  }
  return problems;
}

function quoted(id: string): string {
  const text = JSON.stringify(id);
  return text.length <= 60 ? text : `(${id.length} characters)`;
}
