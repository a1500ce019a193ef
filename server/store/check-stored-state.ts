/** Pure: every reason the stored state cannot be used as it is; none means it can. Each problem starts with its path. */
import type { StoredDocuments, StoredEntry } from './read-stored-files.js';
import type { ValidateFunction, Ajv, ErrorObject } from 'ajv';
import { compileSchema, newAjv } from '../fixtures/compiled-schemas.js';
import { checkFaultRules } from '../faults/fault-rules.js';
import { FAULT_COUNTER_FIELDS, STORED_AJV_OPTIONS, stateDocumentSchema, orderSegmentSchema, refundRecordSchema, refundSegmentSchema } from './stored-state-schemas.js';
import { join } from 'node:path';
import { parseSegmentName, segmentName, SEGMENTED_COLLECTIONS, type SegmentedCollectionName } from './segment-names.js';
import { pointerToPath, schemaMessages } from '../http/messages.js';

export function storedStateProblems(stored: StoredDocuments): string[] {
  const { dataFile, segmentsFolder, state, folder } = stored;
  const problems: string[] = [];
  if (typeof folder === 'object') problems.push(`${segmentsFolder}: ${folder.problem}`);
  const segments = stored.entries.filter((entry) => entry.segment || entry.log).length;
  if (state === undefined) {
    // Without the data file the start would seed the fixtures, and the first new segment would overwrite an old one.
    if (segments > 0) {
      problems.push(
        `${dataFile}: missing, but ${segmentsFolder} holds ${segments} file${segments === 1 ? '' : 's'} of an earlier run (its orders and refunds); a start without the data file would drop them`,
      );
    }
  } else if (!state.ok) {
    problems.push(`${dataFile}: ${state.problem}`);
  } else {
    problems.push(...stateDocumentProblems(state.value).map((problem) => `${dataFile}: ${problem}`));
  }
  // Every version has made the folder before it wrote the data file, so a data file alone lost its orders and refunds.
  if (state !== undefined && folder === 'missing') {
    problems.push(`${segmentsFolder}: missing, but ${dataFile} exists; the orders and refunds of that state are kept in this folder`);
  }
  problems.push(...segmentProblems(stored));
  return problems;
}

/** Pure: what is wrong with the value of the data file: its JSON Schema, then what a schema cannot say. */

let validator: ValidateFunction | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every problem of the state document, each worded to follow "<path of the data file>: ". */
export function stateDocumentProblems(value: unknown): string[] {
  validator ??= compileSchema(() => newAjv(STORED_AJV_OPTIONS), STORED_AJV_OPTIONS, stateDocumentSchema);
  const problems: string[] = [];
  const version = isObject(value) ? value.schemaVersion : undefined;
  const otherVersion = typeof version === 'number' && version !== 1;
  if (otherVersion) {
    problems.push(`schemaVersion is ${version}, but this sandbox reads version 1 only: was the file written by another version of pos-sandbox?`);
  }
  if (!validator(value)) {
    problems.push(...storedSchemaMessages(validator.errors, 'the state document').filter((problem) => !(otherVersion && problem.startsWith('schemaVersion '))));
  }
  if (!isObject(value)) return problems;
  if (isObject(value.menus)) {
    for (const [locationId, menu] of Object.entries(value.menus)) {
      if (isObject(menu) && typeof menu.LocationId === 'string' && menu.LocationId !== locationId) {
        // Menus are looked up by their key: this one would answer for a location it is not the menu of.
        problems.push(`menus[${JSON.stringify(locationId)}].LocationId is ${JSON.stringify(menu.LocationId)}: a menu is kept under its own LocationId`);
      }
    }
  }
  const faults = value.faults;
  if (Array.isArray(faults) && faults.length > 0 && faults.every(isObject)) {
    // The rule itself is held to what POST /_sandbox/faults accepts; its counters were checked by the schema.
    const rules = faults.map((stored) => Object.fromEntries(Object.entries(stored).filter(([field]) => !(FAULT_COUNTER_FIELDS as readonly string[]).includes(field))));
    const check = checkFaultRules(rules);
    if (!check.ok) problems.push(...check.problems.map((problem) => `faults${problem}`));
  }
  return problems;
}

/** Pure: what is wrong with the segments folder: names that are no segments, a gap in a numbering (the next segment would overwrite a later one), records of the wrong shape, ids used twice. */

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

/** A log's lines are versions, so ids repeat; its numbers may have gaps (the retention removes old files). */
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

/** Pure: what a start says of a record log it uses though part of it is gone (a last line cut short was never acknowledged); it goes on, and says which file, what it kept and the ways on. */

export function storedStateNotes(stored: StoredDocuments): string[] {
  const notes: string[] = [];
  for (const entry of stored.entries) {
    const content = entry.log?.content;
    if (content === undefined || !content.ok) continue;
    const kept = `kept ${content.records.length} ${content.records.length === 1 ? 'line' : 'lines'}`;
    if (content.unfinishedBytes > 0) notes.push(`${entry.path}: its last line is cut short (${content.unfinishedBytes} bytes with no newline): ${kept}, left that line out`);
    else if (content.records.length === 0) notes.push(`${entry.path}: the file is empty: nothing kept from it`);
  }
  if (notes.length === 0) return [];
  return [
    ...notes,
    'A line cut short is a change the sandbox never acknowledged if the machine stopped while writing it; it is also what a file cut short by a copy or a full disk looks like.',
    'If refunds are missing that you expected, stop the sandbox now and restore the file named; to start afresh on purpose instead, start with --fresh-state (it moves the state aside, deleting nothing; docs/state-file.md).',
  ];
}

/** Pure: ajv's errors for a stored file as lines, the fields one object lacks said in one line, not a line a field. */

export function storedSchemaMessages(errors: ErrorObject[] | null | undefined, root: string): string[] {
  const lacking = new Map<string, { one: ErrorObject; fields: string[] }>();
  const others: ErrorObject[] = [];
  for (const error of errors ?? []) {
    if (error.keyword !== 'required') {
      others.push(error);
      continue;
    }
    const entry = lacking.get(error.instancePath) ?? { one: error, fields: [] };
    entry.fields.push(String((error.params as { missingProperty: unknown }).missingProperty));
    lacking.set(error.instancePath, entry);
  }
  const grouped = [...lacking.entries()].flatMap(([pointer, { one, fields }]) => {
    if (fields.length === 1) return schemaMessages([one], root);
    return [`${pointerToPath(pointer, root)} lacks ${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}`];
  });
  return [...grouped, ...schemaMessages(others, root)];
}
