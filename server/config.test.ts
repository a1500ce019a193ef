import { describe, expect, it } from '@jest/globals';
import { ConfigError, resolvePartner, resolveServeConfig } from './config.js';

const defaults = { fixturesDir: '/repo/fixtures' };

describe('resolveServeConfig', () => {
  it('starts from the documented defaults', () => {
    expect(resolveServeConfig({}, {}, defaults)).toEqual({
      host: '127.0.0.1',
      port: 4100,
      fixturesDir: '/repo/fixtures',
      posOrderUrl: undefined,
      strict: false,
      logLevel: 'info',
      dataFile: '.sandbox/db.json',
      databaseUrl: undefined,
      partnersFile: undefined,
      advertiseUrl: undefined,
      freshState: false,
      refundDelayMs: 1000,
      dispatch: { attemptTimeoutMs: 10000, retryDelaysMs: [1000, 2000] },
      journalLimit: 5000,
      idleMs: 600_000,
      refundLimit: 20000,
      reportDir: 'certification-reports',
      adminToken: undefined,
      faultsFile: undefined,
      partnerOverride: { name: undefined, nonProdKey: undefined },
    });
  });

  it('keeps state in memory with --memory, and refuses --memory with --data', () => {
    expect(resolveServeConfig({ memory: true }, {}, defaults).dataFile).toBeUndefined();
    expect(resolveServeConfig({ data: '/tmp/x.json' }, {}, defaults).dataFile).toBe('/tmp/x.json');
    expect(() => resolveServeConfig({ memory: true, data: 'x.json' }, {}, defaults)).toThrow(
      new ConfigError('--data and --memory exclude each other: state goes to a file or stays in memory'),
    );
  });

  it('keeps state in PostgreSQL with --store URL, or --store alone and DATABASE_URL; DATABASE_URL alone changes nothing', () => {
    const url = 'postgres://app:pw@db:5432/sandbox';
    expect(resolveServeConfig({ store: url }, {}, defaults)).toMatchObject({ databaseUrl: url, dataFile: undefined });
    expect(resolveServeConfig({ store: true }, { DATABASE_URL: url }, defaults)).toMatchObject({ databaseUrl: url, dataFile: undefined });
    expect(resolveServeConfig({}, { DATABASE_URL: url }, defaults)).toMatchObject({ databaseUrl: undefined, dataFile: '.sandbox/db.json' });
    expect(() => resolveServeConfig({ store: true }, { DATABASE_URL: ' ' }, defaults)).toThrow(
      new ConfigError('--store without a URL takes the database from DATABASE_URL, which is not set'),
    );
    expect(() => resolveServeConfig({ store: 'mysql://root:secret@db/x' }, {}, defaults)).toThrow(
      new ConfigError("--store takes a PostgreSQL URL (postgres://user:password@host:5432/database), got 'mysql://***@db/x'"),
    );
    for (const other of [{ memory: true }, { data: 'x.json' }, { freshState: true }]) {
      expect(() => resolveServeConfig({ store: url, ...other }, {}, defaults)).toThrow(
        new ConfigError('--store excludes --data, --memory and --fresh-state: state goes to the database, a data file or memory'),
      );
    }
  });

  it('takes --fresh-state with a data file, and refuses it with --memory', () => {
    expect(resolveServeConfig({ freshState: true, data: 'x.json' }, {}, defaults)).toMatchObject({ freshState: true, dataFile: 'x.json' });
    expect(() => resolveServeConfig({ memory: true, freshState: true }, {}, defaults)).toThrow(
      new ConfigError('--fresh-state and --memory exclude each other: a start in memory is always fresh'),
    );
  });

  it('takes the refund delay, the journal and refund limits, the admin token and the fault file', () => {
    const config = resolveServeConfig({ refundDelayMs: '0', journalLimit: '10', refundLimit: '100000', faults: 'outage.json' }, { SANDBOX_ADMIN_TOKEN: 'a-long-admin-token-123' }, defaults);
    expect([config.refundDelayMs, config.journalLimit, config.refundLimit, config.adminToken, config.faultsFile]).toEqual([0, 10, 100000, 'a-long-admin-token-123', 'outage.json']);
  });

  it('takes the delivery timeout, and one pause or two before an order is tried again', () => {
    expect(resolveServeConfig({ deliveryTimeoutMs: '2500', retryDelaysMs: '50' }, {}, defaults).dispatch).toEqual({ attemptTimeoutMs: 2500, retryDelaysMs: [50] });
    expect(resolveServeConfig({ retryDelaysMs: '0, 250' }, {}, defaults).dispatch).toEqual({ attemptTimeoutMs: 10000, retryDelaysMs: [0, 250] });
  });

  it.each(['', '1,2,3', '1.5', '-1', '1,,2', 'soon', '1e3x'])('refuses --retry-delays-ms %j, saying what it takes', (value) => {
    expect(() => resolveServeConfig({ retryDelaysMs: value }, {}, defaults)).toThrow(
      new ConfigError(`--retry-delays-ms must be one or two whole numbers of ms from 0, separated by a comma (the pause before the second try, then the third: 1000,2000), got '${value}'`),
    );
  });

  it('refuses a delivery timeout of 0 or not whole', () => {
    for (const value of ['0', '1.5', 'x']) expect(() => resolveServeConfig({ deliveryTimeoutMs: value }, {}, defaults)).toThrow(new ConfigError(`--delivery-timeout-ms must be a whole number from 1, got '${value}'`));
  });

  it('takes PORT, SANDBOX_POS_ORDER_URL, SANDBOX_PARTNER and SANDBOX_NONPROD_KEY from the environment', () => {
    const env = { PORT: '5000', SANDBOX_POS_ORDER_URL: 'http://127.0.0.1:4200/orders', SANDBOX_PARTNER: 'acme', SANDBOX_NONPROD_KEY: 'k' };
    const config = resolveServeConfig({}, env, defaults);
    expect(config.port).toBe(5000);
    expect(config.posOrderUrl).toBe('http://127.0.0.1:4200/orders');
    expect(config.partnerOverride).toEqual({ name: 'acme', nonProdKey: 'k' });
  });

  it('lets flags beat the environment', () => {
    const config = resolveServeConfig({ port: '6000', posOrderUrl: 'http://localhost:1/o' }, { PORT: '5000', SANDBOX_POS_ORDER_URL: 'http://x/y' }, defaults);
    expect(config.port).toBe(6000);
    expect(config.posOrderUrl).toBe('http://localhost:1/o');
  });

  it.each([
    [{ port: 'abc' }, "port must be a whole number from 0 to 65535 (0 picks a free one), got 'abc'"],
    [{ port: '70000' }, "port must be a whole number from 0 to 65535 (0 picks a free one), got '70000'"],
    [{ posOrderUrl: 'localhost:4200' }, "the POS order URL must use http or https, got 'localhost:'"],
    [{ posOrderUrl: 'not a url' }, "the POS order URL must be an absolute http(s) URL, got 'not a url'"],
    [{ logLevel: 'loud' }, "log level must be one of fatal, error, warn, info, debug, trace, silent, got 'loud'"],
    [{ refundDelayMs: '-1' }, "--refund-delay-ms must be a whole number from 0, got '-1'"],
    [{ journalLimit: '0' }, "--journal-limit must be a whole number from 1, got '0'"],
    [{ refundLimit: '0' }, "--refund-limit must be a whole number from 1, got '0'"],
    [{ refundLimit: '20k' }, "--refund-limit must be a whole number from 1, got '20k'"],
    [{ idleMs: '-1' }, "--idle-ms must be a whole number from 0, got '-1'"],
    [{ idleMs: '10m' }, "--idle-ms must be a whole number from 0, got '10m'"],
    [{ adminToken: 'short' }, 'the admin token must be at least 16 characters long'],
  ])('refuses %j with a message that says why', (flags, message) => {
    expect(() => resolveServeConfig(flags, {}, defaults)).toThrow(new ConfigError(message));
  });
});

describe('resolvePartner', () => {
  const fixture = { name: 'demo-pos', nonProdKey: 'fixture-key', apiKey: 'api' };
  it('uses the fixture partner unless the environment names another', () => {
    expect(resolvePartner(fixture, {})).toEqual({ name: 'demo-pos', nonProdKey: 'fixture-key', apiKey: 'api' });
    expect(resolvePartner(fixture, { name: 'acme', nonProdKey: 'own-key' })).toEqual({ name: 'acme', nonProdKey: 'own-key', apiKey: 'api' });
  });
});
