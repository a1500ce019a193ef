import { describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import { storedSchemaMessages } from './check-stored-state.js';

const validate = new Ajv({ allErrors: true, verbose: true }).compile({
  type: 'array',
  items: { type: 'object', required: ['id', 'status', 'at'], properties: { id: { type: 'string' }, status: { enum: ['A', 'B'] } } },
});

describe('storedSchemaMessages', () => {
  it('says the fields an object lacks in one line, a single one as "is required", and the other errors as schemaMessages does', () => {
    validate([{ id: 'x' }, { id: 1, status: 'A' }, { status: 'C', at: 0, id: 'y' }]);
    expect(storedSchemaMessages(validate.errors, 'the segment')).toEqual([
      '[0] lacks status and at',
      '[1].at is required',
      '[1].id must be a string, got number 1',
      '[2].status must be one of "A", "B", got string "C"',
    ]);
  });

  it('names the root', () => {
    validate({});
    expect(storedSchemaMessages(validate.errors, 'the segment')).toEqual(['the segment must be an array, got object {}']);
  });
});
