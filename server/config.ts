/** Pure: defaults + environment + flags → the server's configuration. Flags beat the environment. */
import { DEFAULT_REFUND_LIMIT } from './store/retention.js';
import { StartupError } from './errors.js';

export interface ServeFlags {
  port?: string;
  host?: string;
  fixtures?: string;
  posOrderUrl?: string;
  strict?: boolean;
  logLevel?: string;
  data?: string;
  memory?: boolean;
  /** --partners: the partners file of a hosted sandbox. */
  partners?: string;
  /** --advertise-url: where the other instances on the database reach this one. */
  advertiseUrl?: string;
  /** --store: a PostgreSQL URL, or `true` (the flag alone) for DATABASE_URL's. */
  store?: string | boolean;
  freshState?: boolean;
  refundDelayMs?: string;
  deliveryTimeoutMs?: string;
  retryDelaysMs?: string;
  journalLimit?: string;
  refundLimit?: string;
  idleMs?: string;
  adminToken?: string;
  faults?: string;
  reportDir?: string;
  /** Print the partner's own key whole in the banner (it is masked). */
  showKey?: boolean;
  /** pretty or json; the default is pretty on a terminal, json otherwise. */
  logFormat?: 'pretty' | 'json';
}

export interface ServeConfig {
  host: string;
  port: number;
  fixturesDir: string;
  posOrderUrl: string | undefined;
  strict: boolean;
  logLevel: string;
  /** The lowdb data file; undefined with --memory and --store. */
  dataFile: string | undefined;
  /** --store: the PostgreSQL database the state goes to, in place of the data file. */
  databaseUrl: string | undefined;
  /** --partners: serve every partner of this file, each with its own state (docs/hosting.md). */
  partnersFile: string | undefined;
  /** --advertise-url: where the other instances on the database send the requests of the partners this one leads. */
  advertiseUrl: string | undefined;
  /** --fresh-state: move the stored state aside and start from the fixtures. */
  freshState: boolean;
  refundDelayMs: number;
  /** How an order is delivered to the POS: each try's time limit, and the pauses before the second and third. */
  dispatch: { attemptTimeoutMs: number; retryDelaysMs: number[] };
  journalLimit: number;
  refundLimit: number;
  /** --idle-ms: a hosted partner's sandbox on a database is put away after this long without a request; 0 keeps every one made. */
  idleMs: number;
  adminToken: string | undefined;
  /** --faults: a file of fault rules to start with. */
  faultsFile: string | undefined;
  /** --report-dir: where checklist runs started from the dashboard write their reports. */
  reportDir: string;
  /** SANDBOX_PARTNER and SANDBOX_NONPROD_KEY: the partner's own POS name and key, so a POS build needs no change. */
  partnerOverride: PartnerOverride;
}

export interface PartnerOverride {
  name?: string;
  nonProdKey?: string;
  /** SANDBOX_API_KEY: the x-api-key the partner's POS sends (§5 migration notes); the sandbox takes any value. */
  apiKey?: string;
}

export interface PartnerIdentity {
  name: string;
  nonProdKey: string;
  apiKey: string | undefined;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4100;
/** Where checklist reports are written unless --report-dir says otherwise (checklist, demo, and runs started from the control API). */
export const DEFAULT_REPORT_DIR = 'certification-reports';
export const DEFAULT_REFUND_DELAY_MS = 1000;
export const DEFAULT_JOURNAL_LIMIT = 5000;
/** How long a hosted partner's sandbox on a database stays made without a request (10 minutes). */
export const DEFAULT_IDLE_MS = 600_000;
/** An order's delivery: 3 tries of at most 10 s each, 1 s then 2 s apart (the same as the dispatcher's own). */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRY_DELAYS_MS = [1000, 2000];
export const DEFAULT_DATA_FILE = '.sandbox/db.json';
/** The laptop's report key: in the data folder, beside the default data file. */
export const DEFAULT_SIGNING_KEY = '.sandbox/signing-key.pem';
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A configuration value that cannot be used; the message says which and why. */
export class ConfigError extends StartupError {
  override name = 'ConfigError';
}

export function resolveServeConfig(
  flags: ServeFlags,
  env: Record<string, string | undefined>,
  defaults: { fixturesDir: string },
): ServeConfig {
  if (flags.memory && flags.data !== undefined) throw new ConfigError('--data and --memory exclude each other: state goes to a file or stays in memory');
  if (flags.memory && flags.freshState) throw new ConfigError('--fresh-state and --memory exclude each other: a start in memory is always fresh');
  const databaseUrl = parseDatabaseUrl(flags.store, env);
  if (nonEmpty(flags.partners) !== undefined && flags.adminToken !== undefined) {
    throw new ConfigError('--admin-token does not go with --partners: each partner has its admin token in the partners file (and the operator its operatorToken)');
  }
  if (databaseUrl !== undefined && (flags.memory || flags.data !== undefined || flags.freshState)) {
    throw new ConfigError('--store excludes --data, --memory and --fresh-state: state goes to the database, a data file or memory');
  }
  return {
    host: flags.host ?? DEFAULT_HOST,
    port: parsePort(flags.port ?? env.PORT),
    fixturesDir: flags.fixtures ?? defaults.fixturesDir,
    posOrderUrl: parseUrl(flags.posOrderUrl ?? nonEmpty(env.SANDBOX_POS_ORDER_URL)),
    strict: flags.strict ?? false,
    logLevel: parseLogLevel(flags.logLevel ?? env.LOG_LEVEL ?? 'info'),
    dataFile: flags.memory || databaseUrl !== undefined ? undefined : (flags.data ?? DEFAULT_DATA_FILE),
    databaseUrl,
    partnersFile: nonEmpty(flags.partners),
    advertiseUrl: parseAdvertiseUrl(flags.advertiseUrl ?? nonEmpty(env.SANDBOX_ADVERTISE_URL)),
    freshState: flags.freshState ?? false,
    refundDelayMs: parseWhole('--refund-delay-ms', flags.refundDelayMs, 1000, 0),
    dispatch: deliveryPolicy(flags),
    journalLimit: parseWhole('--journal-limit', flags.journalLimit, 5000, 1),
    refundLimit: parseWhole('--refund-limit', flags.refundLimit, DEFAULT_REFUND_LIMIT, 1),
    idleMs: parseWhole('--idle-ms', flags.idleMs, DEFAULT_IDLE_MS, 0),
    adminToken: parseAdminToken(flags.adminToken ?? nonEmpty(env.SANDBOX_ADMIN_TOKEN)),
    faultsFile: nonEmpty(flags.faults),
    reportDir: nonEmpty(flags.reportDir) ?? DEFAULT_REPORT_DIR,
    partnerOverride: partnerOverrideFromEnv(env),
  };
}

export function partnerOverrideFromEnv(env: Record<string, string | undefined>): PartnerOverride {
  return { name: nonEmpty(env.SANDBOX_PARTNER), nonProdKey: nonEmpty(env.SANDBOX_NONPROD_KEY), apiKey: nonEmpty(env.SANDBOX_API_KEY) };
}

/** The fixture partner with SANDBOX_PARTNER / SANDBOX_NONPROD_KEY applied. */
export function resolvePartner(
  fixture: { name: string; nonProdKey: string; apiKey?: string },
  override: PartnerOverride,
): PartnerIdentity {
  return {
    name: override.name ?? fixture.name,
    nonProdKey: override.nonProdKey ?? fixture.nonProdKey,
    apiKey: override.apiKey ?? fixture.apiKey,
  };
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`port must be a whole number from 0 to 65535 (0 picks a free one), got '${value}'`);
  }
  return port;
}

function parseWhole(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min) throw new ConfigError(`${name} must be a whole number from ${min}, got '${value}'`);
  return number;
}

/** --delivery-timeout-ms and --retry-delays-ms, for serve and demo alike. */
export function deliveryPolicy(flags: { deliveryTimeoutMs?: string; retryDelaysMs?: string }): ServeConfig['dispatch'] {
  return {
    attemptTimeoutMs: parseWhole('--delivery-timeout-ms', flags.deliveryTimeoutMs, DEFAULT_DELIVERY_TIMEOUT_MS, 1),
    retryDelaysMs: parseDelays(flags.retryDelaysMs),
  };
}

/** One pause (before each try again) or two (before the second try, then the third), whole ms from 0. */
function parseDelays(value: string | undefined): number[] {
  if (value === undefined) return [...DEFAULT_RETRY_DELAYS_MS];
  const parts = value.split(',').map((part) => part.trim());
  const delays = parts.map(Number);
  if (parts.length > 2 || parts.some((part, at) => part === '' || !Number.isInteger(delays[at]) || delays[at]! < 0)) {
    throw new ConfigError(`--retry-delays-ms must be one or two whole numbers of ms from 0, separated by a comma (the pause before the second try, then the third: 1000,2000), got '${value}'`);
  }
  return delays;
}

/** --store URL, or --store alone for DATABASE_URL's; DATABASE_URL alone switches nothing, since a shell may hold one for another program. */
function parseDatabaseUrl(flag: string | boolean | undefined, env: Record<string, string | undefined>): string | undefined {
  if (flag === undefined || flag === false) return undefined;
  const value = flag === true ? nonEmpty(env.DATABASE_URL) : flag;
  if (value === undefined) throw new ConfigError('--store without a URL takes the database from DATABASE_URL, which is not set');
  if (!/^postgres(ql)?:\/\/./i.test(value)) {
    throw new ConfigError(`--store takes a PostgreSQL URL (postgres://user:password@host:5432/database), got '${value.replace(/\/\/[^@/]*@/, '//***@')}'`);
  }
  return value;
}

function parseAdvertiseUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^https?:\/\/[^/]+\/?$/i.test(value)) throw new ConfigError(`--advertise-url must be an http(s) URL with no path (http://10.0.0.5:4100), got '${value}'`);
  return value.replace(/\/$/, '');
}

function parseAdminToken(value: string | undefined): string | undefined {
  if (value !== undefined && value.length < 16) throw new ConfigError('the admin token must be at least 16 characters long');
  return value;
}

function parseUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`the POS order URL must be an absolute http(s) URL, got '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`the POS order URL must use http or https, got '${url.protocol}'`);
  }
  return url.toString();
}

function parseLogLevel(value: string): string {
  if (!LOG_LEVELS.includes(value)) throw new ConfigError(`log level must be one of ${LOG_LEVELS.join(', ')}, got '${value}'`);
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
