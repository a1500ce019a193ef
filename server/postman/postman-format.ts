/**
 * Pure: the part of the Postman collection v2.1 and environment formats the export writes, and small
 * builders for its requests. Postman, newman and Insomnia's Postman importer read these shapes.
 */

export const COLLECTION_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

export interface PostmanScript {
  listen: 'prerequest' | 'test';
  script: { type: 'text/javascript'; exec: string[] };
}

export interface PostmanVariable {
  key: string;
  value: string;
  type: 'string';
  description?: string;
}

export interface PostmanAuth {
  type: 'bearer' | 'noauth';
  bearer?: Array<{ key: 'token'; value: string; type: 'string' }>;
}

export interface PostmanRequestItem {
  name: string;
  event: PostmanScript[];
  request: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    /** Absent: the collection's bearer token (the POS calls). */
    auth?: PostmanAuth;
    header: Array<{ key: string; value: string }>;
    body?: { mode: 'raw'; raw: string; options: { raw: { language: 'json' } } };
    url: { raw: string; host: string[]; path: string[]; query?: Array<{ key: string; value: string }> };
    description: string;
  };
  response: [];
}

export interface PostmanFolder {
  name: string;
  description: string;
  item: PostmanRequestItem[];
}

export interface PostmanCollection {
  info: { _postman_id: string; name: string; description: string; schema: typeof COLLECTION_SCHEMA };
  auth: PostmanAuth;
  event: PostmanScript[];
  variable: PostmanVariable[];
  item: PostmanFolder[];
}

export interface PostmanEnvironment {
  id: string;
  name: string;
  values: Array<{ key: string; value: string; type: 'default' | 'secret'; enabled: true }>;
  _postman_variable_scope: 'environment';
  _postman_exported_using: string;
}

export const script = (listen: PostmanScript['listen'], exec: string[]): PostmanScript => ({ listen, script: { type: 'text/javascript', exec } });

/** Control calls answer loopback clients without a token, so they opt out of the collection's bearer token. */
export const NO_AUTH: PostmanAuth = { type: 'noauth' };

/** A request on {{baseUrl}}; `target` is a path with an optional query, e.g. `/_sandbox/journal?limit=5`. */
export function request(
  name: string,
  method: PostmanRequestItem['request']['method'],
  target: string,
  options: { description: string; tests: string[]; prerequest?: string[]; headers?: Record<string, string>; body?: unknown; auth?: PostmanAuth },
): PostmanRequestItem {
  const [path = '', queryText] = target.split('?');
  const query = queryText?.split('&').map((pair) => {
    const [key = '', value = ''] = pair.split('=');
    return { key, value };
  });
  const headers = { ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...options.headers };
  return {
    name,
    event: [...(options.prerequest ? [script('prerequest', options.prerequest)] : []), script('test', options.tests)],
    request: {
      method,
      ...(options.auth ? { auth: options.auth } : {}),
      header: Object.entries(headers).map(([key, value]) => ({ key, value })),
      ...(options.body === undefined ? {} : { body: { mode: 'raw' as const, raw: JSON.stringify(options.body, null, 2), options: { raw: { language: 'json' as const } } } }),
      url: { raw: `{{baseUrl}}${target}`, host: ['{{baseUrl}}'], path: path.split('/').filter(Boolean), ...(query ? { query } : {}) },
      description: options.description,
    },
    response: [],
  };
}
