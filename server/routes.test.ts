import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { posPaths } from './http/route.js';
import { ROUTES, sandboxOpenApi } from './routes.js';
import { PACKAGE_ROOT } from './version.js';

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.(test|suite)\.ts$/.test(entry.name) ? [path] : [];
  });

describe('the route table', () => {
  it('declares each endpoint once', () => {
    const endpoints = ROUTES.map((route) => `${route.method} ${route.path}`);
    expect(endpoints.filter((endpoint, index) => endpoints.indexOf(endpoint) !== index)).toEqual([]);
  });

  it('writes every control path under /_sandbox, where the control router is mounted', () => {
    const misplaced = ROUTES.filter((route) => route.api === 'control' && !route.path.startsWith('/_sandbox/')).map((route) => route.path);
    expect(misplaced).toEqual([]);
  });

  it('is where every route of the server is registered: no module mounts a path of its own', () => {
    const registering = /\b(app|router)\.(get|post|put|delete|patch|all|use)\(\s*['"`]/;
    const found = sources(join(PACKAGE_ROOT, 'server')).filter((file) => registering.test(readFileSync(file, 'utf8')));
    expect(found.map((file) => relative(PACKAGE_ROOT, file))).toEqual([]);
  });

  it('is what the OpenAPI document describes, path for path and method for method', () => {
    const document = sandboxOpenApi() as { paths: Record<string, Record<string, unknown>> };
    const described = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    const declared = ROUTES.filter((route) => route.api === 'pos' || ('doc' in route && route.doc !== undefined)).flatMap((route) =>
      (route.api === 'pos' ? posPaths(route.path) : [route.path]).map((path) => `${route.method} ${path.replace(/:(\w+)/g, '{$1}')}`),
    );
    expect(described.sort()).toEqual(declared.sort());
  });
});
