/** The partners file on real files in a temp folder: what it gives, and every problem named at its place. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ConfigError } from '../config.js';
import { FIXTURES_DIR } from '../test/test-identity.js';
import { loadPartnersFile, readSecret } from './partners-file.js';
import { checklistCapabilities } from './partners-file-schema.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'partners-file-'));
  file = join(dir, 'partners.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'a-non-prod-key-of-at-least-32-chars!';
const entry = (name: string, more: Record<string, unknown> = {}) => ({ name, nonProdKey: `${KEY}${name}`, adminToken: `admin-token-of-${name}`, ...more });
const load = (value: unknown, env: Record<string, string> = {}) => {
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return loadPartnersFile(file, { env, defaultFixturesDir: FIXTURES_DIR });
};
const problems = (value: unknown, env: Record<string, string> = {}) => {
  try {
    load(value, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message.split('\n');
  }
  throw new Error('the file was taken');
};

describe('loadPartnersFile', () => {
  it('gives each partner its identity, tokens and fixtures cut to its locations', () => {
    const setup = load({ operatorToken: { env: 'OP' }, partners: [entry('one', { apiKey: 'x-key', posOrderUrl: 'http://pos.test/order' }), entry('two', { locations: ['loc-kiosk-001'] })] }, { OP: 'operator-token-123456' });
    expect(setup.operatorToken).toBe('operator-token-123456');
    expect(setup.partners.map((partner) => [partner.identity, partner.adminToken, partner.posOrderUrl, partner.fixtures.locations.map((location) => location.id)])).toEqual([
      [{ name: 'one', nonProdKey: `${KEY}one`, apiKey: 'x-key' }, 'admin-token-of-one', 'http://pos.test/order', ['loc-std-001', 'loc-hub-001-burgers', 'loc-hub-001-noodles', 'loc-kiosk-001']],
      [{ name: 'two', nonProdKey: `${KEY}two`, apiKey: undefined }, 'admin-token-of-two', undefined, ['loc-kiosk-001']],
    ]);
    const two = setup.partners[1]!.fixtures;
    expect([Object.keys(two.menus), [...new Set(two.orders.map((order) => order.LocationId))], two.partner.name]).toEqual([['loc-kiosk-001'], ['loc-kiosk-001'], 'two']);
  });

  it('reads a secret from a file without its trailing newline, relative to the partners file', () => {
    writeFileSync(join(dir, 'key'), `${KEY}-from-file\n`);
    expect(readSecret({ file: 'key' }, dir, {})).toEqual({ value: `${KEY}-from-file` });
    expect(load({ partners: [entry('one', { nonProdKey: { file: 'key' } })] }).partners[0]!.identity.nonProdKey).toBe(`${KEY}-from-file`);
  });

  it('reads a secret only from a regular file, and only up to 64 KiB: /dev/zero, a folder and a FIFO are refused, never read', () => {
    writeFileSync(join(dir, 'huge'), 'k'.repeat(70_000));
    symlinkSync('/dev/zero', join(dir, 'zero-link'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    expect([readSecret({ file: '/dev/zero' }, dir, {}), readSecret({ file: 'zero-link' }, dir, {}), readSecret({ file: 'fifo' }, dir, {}), readSecret({ file: '.' }, dir, {}), readSecret({ file: 'huge' }, dir, {})]).toEqual([
      { value: '', problem: '/dev/zero is not a regular file (a folder, FIFO, device or socket): a secret is read from a plain file' },
      { value: '', problem: `${join(dir, 'zero-link')} is not a regular file (a folder, FIFO, device or socket): a secret is read from a plain file` },
      { value: '', problem: `${join(dir, 'fifo')} is not a regular file (a folder, FIFO, device or socket): a secret is read from a plain file` },
      { value: '', problem: `${dir} is not a regular file (a folder, FIFO, device or socket): a secret is read from a plain file` },
      { value: '', problem: `the file ${join(dir, 'huge')} is 70000 bytes; a secret holds at most 65536` },
    ]);
  });

  it('names every problem at its place, all at once', () => {
    expect(
      problems(
        {
          operatorToken: 'short',
          partners: [entry('one'), entry('ONE', { adminToken: 'admin-token-of-one' }), entry('three', { nonProdKey: { env: 'MISSING_KEY' }, locations: ['loc-std-001', 'loc-mars'] }), entry('four', { adminToken: { file: 'nowhere' } })],
        },
        {},
      ),
    ).toEqual([
      `the partners file ${file} cannot be used:`,
      '  - operatorToken must be at least 16 characters long',
      "  - partners[1].name 'ONE' is taken by partners[0] already (names are compared ignoring case)",
      '  - partners[1].adminToken is the same as partners[0].adminToken: each partner needs a token of its own',
      '  - partners[2].nonProdKey: the environment variable MISSING_KEY is not set',
      `  - partners[2].locations: 'loc-mars' not among the locations of ${FIXTURES_DIR} (loc-std-001, loc-hub-001-burgers, loc-hub-001-noodles, loc-kiosk-001)`,
      `  - partners[3].adminToken: the file ${join(dir, 'nowhere')} cannot be read (ENOENT)`,
    ]);
  });

  it('holds the file to its schema first, with JSON paths', () => {
    const lines = problems({ partners: [{ name: 'has space', nonProdKey: 42, adminToken: 'admin-token-of-x', capabilities: ['teleport'] }], extra: true });
    expect(lines).toEqual([
      `the partners file ${file} cannot be used:`,
      '  - extra is not an allowed field',
      '  - partners[0].name must match ^[A-Za-z0-9][A-Za-z0-9._-]*$, got string "has space"',
      '  - partners[0].nonProdKey must be a string, got number 42',
      '  - partners[0].nonProdKey must be an object, got number 42',
      '  - partners[0].nonProdKey must match exactly one schema in oneOf',
      '  - partners[0].capabilities[0] must be one of "refund", "hub", "kiosk", "menu-form-b", "refunds", "orders", "order-status", "menu-form-a", got string "teleport"',
    ]);
    expect(problems({ partners: [] })).toEqual([`the partners file ${file} cannot be used:`, '  - partners must not be empty']);
  });

  it('says so when the file is missing or not JSON', () => {
    expect(() => loadPartnersFile(join(dir, 'none.json'), { env: {}, defaultFixturesDir: FIXTURES_DIR })).toThrow(
      new ConfigError(`the partners file ${join(dir, 'none.json')} cannot be read (ENOENT)`),
    );
    expect(() => load('{"partners": [')).toThrow(/^the partners file .* is not valid JSON \(/);
  });

  it("gives each partner its egress rules and its quotas, its own over the file's", () => {
    const setup = load({
      quotas: { requestsPerSecond: 10, eventStreams: 2, harExportsInAll: 3 },
      partners: [
        entry('one', { egress: { allow: ['https://pos.one.example', 'http://*.one-ci.example:8080'], allowNetworks: ['10.20.0.0/16'] }, quotas: { requestsPerSecond: null, reportsKept: 5 } }),
        entry('two'),
      ],
    });
    expect(setup.harExportsInAll).toBe(3);
    expect(setup.partners.map((partner) => [partner.egress, partner.quotas])).toEqual([
      [{ allow: ['https://pos.one.example', 'http://*.one-ci.example:8080'], allowNetworks: ['10.20.0.0/16'] }, { requestsPerSecond: null, eventStreams: 2, reportsKept: 5 }],
      [{ allow: [], allowNetworks: [] }, { requestsPerSecond: 10, eventStreams: 2 }],
    ]);
  });

  it('names every egress rule and network that cannot be one, and every quota out of its range', () => {
    expect(
      problems({
        quotas: { requestsPerSecond: 0, teleports: 1 },
        partners: [entry('one', { posOrderUrl: 'http://', egress: { allow: ['pos.one.example', 'https://pos.one.example/order'], allowNetworks: ['10.20.0.0', 'loopback'] }, quotas: { bodyBytes: 5_000_000 } })],
      }),
    ).toEqual([
      `the partners file ${file} cannot be used:`,
      '  - quotas.teleports is not an allowed field',
      '  - quotas.requestsPerSecond must be 1 or more, got number 0',
      '  - partners[0].quotas.bodyBytes must be 1048576 or less, got number 5000000',
    ]);
    expect(problems({ partners: [entry('one', { posOrderUrl: 'http://', egress: { allow: ['pos.one.example', 'https://pos.one.example/order'], allowNetworks: ['10.20.0.0', 'loopback'] } })] })).toEqual([
      `the partners file ${file} cannot be used:`,
      "  - partners[0].posOrderUrl 'http://' is not a URL",
      "  - partners[0].egress.allow[0]: 'pos.one.example' is not an origin such as https://pos.example.com, https://*.example.com or http://10.0.0.5:* (a scheme, a host, a port if any, and no path)",
      "  - partners[0].egress.allow[1]: 'https://pos.one.example/order' is not an origin such as https://pos.example.com, https://*.example.com or http://10.0.0.5:* (a scheme, a host, a port if any, and no path)",
      "  - partners[0].egress.allowNetworks[0]: '10.20.0.0' is not a network in CIDR form, such as 10.20.0.0/16 or fd00:1::/64",
      "  - partners[0].egress.allowNetworks[1]: 'loopback' is not a network in CIDR form, such as 10.20.0.0/16 or fd00:1::/64",
    ]);
  });

  it('names a fixture folder that is broken', () => {
    const lines = problems({ partners: [entry('one', { fixtures: 'no-such-folder' })] });
    expect(lines[1]).toBe('  - partners[0].fixtures: the fixtures are broken:');
  });
});

describe('checklistCapabilities', () => {
  it("reads a partner's capabilities in the checklist's words, each once, in the checklist's order", () => {
    expect(checklistCapabilities(['kiosk', 'refund', 'hub', 'menu-form-b'])).toEqual(['refund', 'hub', 'kiosk', 'menu-form-b']);
  });

  it('reads the names of earlier files: refunds is refund; orders, order-status and menu-form-a declare nothing', () => {
    expect(checklistCapabilities(['refunds', 'orders', 'order-status', 'menu-form-a', 'hub', 'refund'])).toEqual(['refund', 'hub']);
    expect(checklistCapabilities(['orders'])).toEqual([]);
  });
});
