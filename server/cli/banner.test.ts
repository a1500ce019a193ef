import { describe, expect, it } from '@jest/globals';
import { fixtures } from '../test/test-identity.js';
import { maskKey, STANDALONE_COMMANDS, startupBanner, type BannerInput } from './banner.js';

const OWN_KEY = 'acme-own-nonprod-key-0123456789-wxyz';
const input = (overrides: Partial<BannerInput> = {}): BannerInput => ({
  version: '0.1.0',
  baseUrl: 'http://127.0.0.1:4100',
  partner: { name: 'acme-pos', nonProdKey: OWN_KEY, apiKey: 'k' },
  locations: fixtures.locations,
  posOrderUrl: undefined,
  strict: false,
  fixturesDir: '/f',
  state: 'memory',
  sample: { token: 'T', ttlSeconds: 3600, locationId: 'loc-std-001', externalId: 'X-1' },
  keyFrom: 'environment',
  ...overrides,
});
const keyLines = (banner: string) => banner.split('\n').filter((line, i, lines) => line.includes('non-prod key:') || lines[i - 1]?.includes('non-prod key:'));

describe('the banner', () => {
  it("masks the partner's own key from the environment, and says so", () => {
    const banner = startupBanner(input());
    expect(keyLines(banner)).toEqual(['  non-prod key:          acme…wxyz', '                         your own non-prod key (SANDBOX_NONPROD_KEY), masked; --show-key prints it whole']);
    expect(banner).not.toContain(OWN_KEY.slice(4, -4));
  });

  it('prints it whole with --show-key', () => {
    expect(keyLines(startupBanner(input({ showKey: true })))).toEqual([`  non-prod key:          ${OWN_KEY}`, '                         your own non-prod key (SANDBOX_NONPROD_KEY), shown whole by --show-key']);
  });

  it("shows the fixtures' demo key whole, as sandbox-only", () => {
    expect(keyLines(startupBanner(input({ keyFrom: 'fixtures', partner: { name: 'demo-pos', nonProdKey: 'SANDBOX-ONLY-demo-key', apiKey: 'k' } })))).toEqual([
      '  non-prod key:          SANDBOX-ONLY-demo-key',
      '                         SANDBOX ONLY: use it for this sandbox and nothing else',
    ]);
  });

  it('says how to point the other commands at it when it is not at the default address, and nothing when it is', () => {
    expect(startupBanner(input({ baseUrl: 'http://127.0.0.1:4200' })).split('\n').filter((line) => /SANDBOX_URL|other commands|find it|--sandbox http/.test(line))).toEqual([
      '  other commands:        this sandbox is not at http://127.0.0.1:4100; point them here once:',
      '                           export SANDBOX_URL=http://127.0.0.1:4200',
      '                         then pos-sandbox status / orders / journal tail / checklist and npm run reference-pos find it',
      '                         (or give each --sandbox http://127.0.0.1:4200)',
    ]);
    expect(startupBanner(input())).not.toContain('SANDBOX_URL');
  });

  it("names the standalone executable's own commands where it runs, never npx or npm", () => {
    const mentions = (banner: string) => banner.split('\n').filter((line) => /validate-menu|reference-pos|token --location/.test(line)).map((line) => line.trim());
    const standalone = startupBanner(input({ baseUrl: 'http://127.0.0.1:4200', commands: STANDALONE_COMMANDS }));
    expect(mentions(standalone)).toEqual([
      'menu updates:          PUT http://127.0.0.1:4200/v2/menu; payloads in menu-template/, checked offline by pos-sandbox validate-menu FILE',
      'orders to the POS go:  (nowhere yet: --pos-order-url URL or SANDBOX_POS_ORDER_URL; pos-sandbox reference-pos listens on http://127.0.0.1:4200/order)',
      'then pos-sandbox status / orders / journal tail / checklist and pos-sandbox reference-pos find it',
      'A refund with a token valid for 60 minutes (new tokens: pos-sandbox token --location ID):',
    ]);
    expect(standalone).not.toMatch(/\bnpx\b|\bnpm\b/);
    expect(mentions(startupBanner(input({ baseUrl: 'http://127.0.0.1:4200' }))).join('\n')).toMatch(/npx pos-sandbox validate-menu[\s\S]*npm run reference-pos listens[\s\S]*npm run reference-pos find it[\s\S]*npx pos-sandbox token/);
  });
});

describe('maskKey', () => {
  it.each([
    ['acme-own-nonprod-key-0123456789-wxyz', 'acme…wxyz'],
    ['0123456789abc', '0123…9abc'],
    ['short-key', '………'],
    ['ab', '……'],
  ])('%s → %s', (key, masked) => {
    expect(maskKey(key)).toBe(masked);
  });
});
