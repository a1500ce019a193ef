import { describe, expect, it } from '@jest/globals';
import { ROUTES } from '../routes.js';
import { allowedMethods, routePathOf, withoutTrailingSlashes } from './route.js';

describe('withoutTrailingSlashes', () => {
  it.each([
    ['/order/refund/', '/order/refund'],
    ['/order/refund///', '/order/refund'],
    ['///', ''],
    ['', ''],
    ['/a//b', '/a//b'],
  ])('%s → %s', (path, trimmed) => {
    expect(withoutTrailingSlashes(path)).toBe(trimmed);
  });
});

describe('routePathOf and allowedMethods', () => {
  it('strip the mount, case and trailing slashes as Express does', () => {
    expect(routePathOf('/V2/Order/Refund/')).toBe('/order/refund');
    expect(allowedMethods(ROUTES, '/v1/pos/openapi/menu/')).toEqual(['PUT']);
  });

  it('read 16,000 slashes before a name in one pass', () => {
    expect(allowedMethods(ROUTES, `${'/'.repeat(16_000)}x`)).toEqual([]);
  });
});
