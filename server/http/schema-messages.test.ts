import { describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import { pointerToPath, schemaMessages } from './schema-messages.js';

describe('pointerToPath', () => {
  it.each([
    ['', 'body', 'body'],
    ['/Items/2/Prices/0/Price', 'body', 'Items[2].Prices[0].Price'],
    ['/2/id', '$', '[2].id'],
    ['/weird key/a~1b', '$', '["weird key"]["a/b"]'],
  ])('turns %j into %s', (pointer, root, path) => {
    expect(pointerToPath(pointer, root)).toBe(path);
  });
});

describe('schemaMessages', () => {
  const ajv = new Ajv({ allErrors: true, verbose: true });
  const validate = ajv.compile({
    type: 'object',
    required: ['Items'],
    additionalProperties: false,
    properties: {
      Items: {
        type: 'array',
        items: {
          type: 'object',
          required: ['Id', 'Price'],
          properties: {
            Id: { type: 'string', minLength: 1 },
            Price: { type: 'integer', minimum: 0 },
            Type: { enum: ['Item'] },
          },
        },
      },
    },
  });

  it('names every problem with its JSON path', () => {
    validate({ Items: [{ Id: '', Price: 12.5 }, { Price: -1, Type: 'Combo' }], Extra: true });
    expect(schemaMessages(validate.errors, 'body')).toEqual([
      'Extra is not an allowed field',
      'Items[0].Id must not be empty',
      'Items[0].Price must be a whole number, got number 12.5',
      'Items[1].Id is required',
      'Items[1].Price must be 0 or more, got number -1',
      'Items[1].Type must be one of "Item", got string "Combo"',
    ]);
  });

  it('names the root when the document itself is wrong', () => {
    validate([]);
    expect(schemaMessages(validate.errors, 'body')).toEqual(['body must be an object, got array []']);
  });
});
