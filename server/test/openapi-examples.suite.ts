/** The examples of openapi.json: one for every schema, parameter and body, each valid, and the bodies taken by the sandbox. */
import { describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { sandboxOpenApi } from '../routes.js';
import { cleanHeaders, testSandbox } from './helpers.js';

interface Media {
  schema?: { $ref?: string; type?: string; items?: { $ref?: string } };
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  parameters?: Array<{ name: string; in: string; schema: object; example?: unknown }>;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
const document = sandboxOpenApi() as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, { examples?: unknown[] }> } };
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ paths: document.paths, components: document.components }, 'openapi');
const pointer = (...segments: string[]) => `openapi#/${segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/** The problems of one example against the schema at `at`: none when it validates. */
function problems(at: string, example: unknown): string[] {
  const validate = ajv.getSchema(at)!;
  return validate(example) ? [] : (validate.errors ?? []).map((error) => `${at}: ${error.instancePath} ${error.message}`);
}

/** A body of a component schema (or a list of one) is shown by that schema's examples. */
function componentExamples(schema: { $ref?: string; type?: string; items?: { $ref?: string } } | undefined): unknown[] {
  const name = (ref: string | undefined) => ref?.replace('#/components/schemas/', '');
  if (schema?.$ref !== undefined) return document.components.schemas[name(schema.$ref)!]?.examples ?? [];
  if (schema?.type === 'array' && schema.items?.$ref !== undefined) return (document.components.schemas[name(schema.items.$ref)!]?.examples ?? []).map((item) => [item]);
  return [];
}

const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));

describe('openapi.json examples', () => {
  it('gives every component schema examples, each valid against its schema', () => {
    const found = Object.entries(document.components.schemas).flatMap(([name, schema]) => {
      if (!schema.examples?.length) return [`${name}: no examples`];
      return schema.examples.flatMap((example) => problems(pointer('components', 'schemas', name), example));
    });
    expect(found).toEqual([]);
  });

  it('gives every parameter an example valid against its schema (Dredd and Postman send it)', () => {
    const found = operations.flatMap(({ path, method, operation }) =>
      (operation.parameters ?? []).flatMap((parameter, index) =>
        parameter.example === undefined ? [`${method} ${path} ${parameter.in} ${parameter.name}: no example`] : problems(pointer('paths', path, method, 'parameters', String(index), 'schema'), parameter.example),
      ),
    );
    expect(found).toEqual([]);
  });

  it('gives every request and response body an example valid against its schema', () => {
    const found = operations.flatMap(({ path, method, operation }) => {
      const bodies: Array<[string[], Media]> = [
        ...Object.entries(operation.requestBody?.content ?? {}).map(([type, media]): [string[], Media] => [['requestBody', 'content', type], media]),
        ...Object.entries(operation.responses).flatMap(([status, response]) =>
          Object.entries(response.content ?? {}).map(([type, media]): [string[], Media] => [['responses', status, 'content', type], media]),
        ),
      ];
      return bodies.flatMap(([where, media]) => {
        const examples = media.example !== undefined ? [media.example] : media.examples ? Object.values(media.examples).map((named) => named.value) : componentExamples(media.schema);
        if (examples.length === 0) return [`${method} ${path} ${where.join(' ')}: no example`];
        return examples.flatMap((example) => problems(pointer('paths', path, method, ...where, 'schema'), example));
      });
    });
    expect(found).toEqual([]);
  });

  it('has request examples the sandbox takes: the refund, both menu forms, a new order, a fault rule, a token', async () => {
    const { app } = await testSandbox({ posOrderUrl: 'http://127.0.0.1:9/order' });
    const body = (path: string, method: string) => document.paths[path]![method]!.requestBody!.content['application/json']!;
    const refund = await request(app).post('/v2/order/refund').set(cleanHeaders()).send(JSON.stringify(body('/v2/order/refund', 'post').example));
    expect([refund.status, refund.headers['x-sandbox-findings']]).toEqual([200, '0']);
    for (const [form, named] of Object.entries(body('/v2/menu', 'put').examples!)) {
      const menu = await request(app).put('/v2/menu').set(cleanHeaders()).send(JSON.stringify(named.value));
      expect({ form, status: menu.status, findings: menu.headers['x-sandbox-findings'] }).toEqual({ form, status: 200, findings: '0' });
    }
    expect((await request(app).post('/_sandbox/orders').send(body('/_sandbox/orders', 'post').example as object)).status).toBe(202);
    for (const [shape, named] of Object.entries(body('/_sandbox/faults', 'post').examples!)) {
      const added = await request(app).post('/_sandbox/faults').send(named.value as object);
      expect({ shape, status: added.status }).toEqual({ shape, status: 201 });
      await request(app).delete('/_sandbox/faults');
    }
    expect((await request(app).post('/_sandbox/tokens').send(body('/_sandbox/tokens', 'post').example as object)).status).toBe(201);
  });
});
