/** Reads `serve --partners FILE`: the schema, each partner's secrets and fixtures; every problem at once, each at its place, and the start stops (exit 2). */
import { readFileSync } from 'node:fs';
import { readPlainFile } from '../store/read-plain-file.js';
import { dirname, resolve } from 'node:path';
import { ConfigError, type PartnerIdentity } from '../config.js';
import { schemaMessages } from '../http/messages.js';
import { compileSchema, newAjv } from '../fixtures/compiled-schemas.js';
import { FixtureError, FIXTURE_AJV_OPTIONS, loadFixtures, type Fixtures } from '../fixtures/load-fixtures.js';
import type { Quotas } from './quotas.js';
import type { ReportKeys } from '../../certification-checklist/report/signing-keys.js';
import { operatorReportKeys } from '../checklist/report-keys.js';
import { checklistCapabilities, partnersFileSchema, type PartnerEntry, type PartnersFile, type Secret } from './partners-file-schema.js';
import { networkProblem, parseOriginRule, partnerEgress, type EgressPolicy } from './egress.js';

export interface HostedPartner {
  /** Name (the tokens' iss), non-prod key and x-api-key. */
  identity: PartnerIdentity;
  displayName: string;
  adminToken: string;
  /** Its fixtures: its locations only, with their menus and orders; the partner is this entry. */
  fixtures: Fixtures;
  posOrderUrl: string | undefined;
  capabilities: string[];
  /** The origins and networks the operator allowed the sandbox to call for this partner (hosted/egress.ts). */
  egress: { allow: string[]; allowNetworks: string[] };
  /** The quotas the file sets for it: its own over the file's; the rest are the hosted defaults. */
  quotas: Partial<Quotas>;
}

export interface PartnersSetup {
  partners: HostedPartner[];
  operatorToken: string | undefined;
  /** HAR exports under way at once across every partner, if the file sets it. */
  harExportsInAll: number | undefined;
  /** Orders being delivered at once across every partner, if the file sets it. */
  deliveriesInAll: number | undefined;
  /** Refusals of POS calls say whether the iss is a partner here (tellUnknownPartners); by default they do not. */
  tellUnknownPartners: boolean;
  /** The operator's report keys (reportSigning), if the file sets them. */
  reportKeys: ReportKeys | undefined;
  /** What the operator should change, though the sandbox starts: said at start. */
  warnings: string[];
}

/** The shortest admin or operator token taken, as for --admin-token. */
export const MIN_TOKEN_LENGTH = 16;
/** The shortest non-prod key taken, as the fixtures' partner.json. */
export const MIN_KEY_LENGTH = 32;

export function loadPartnersFile(file: string, options: { env: Record<string, string | undefined>; defaultFixturesDir: string }): PartnersSetup {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`the partners file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`the partners file ${file} is not valid JSON (${(error as Error).message})`);
  }
  const validate = compileSchema<PartnersFile>(() => newAjv(FIXTURE_AJV_OPTIONS), FIXTURE_AJV_OPTIONS, partnersFileSchema);
  if (!validate(value)) throw partnersError(file, schemaMessages(validate.errors, '$'));
  const problems: string[] = [];
  const base = dirname(resolve(file));
  const secret = (where: string, given: Secret, min: number): string => {
    const read = readSecret(given, base, options.env);
    if (read.problem !== undefined) problems.push(`${where}: ${read.problem}`);
    else if (read.value.length < min) problems.push(`${where} must be at least ${min} characters long`);
    return read.value;
  };
  const operatorToken = value.operatorToken === undefined ? undefined : secret('operatorToken', value.operatorToken, MIN_TOKEN_LENGTH);
  const { harExportsInAll, deliveriesInAll, ...fileQuotas } = value.quotas ?? {};
  const fixtureFolders = new Map<string, Fixtures | undefined>();
  const partners: HostedPartner[] = [];
  const names = new Map<string, number>();
  const tokens = new Map<string, string>();
  if (operatorToken) tokens.set(operatorToken, 'operatorToken');
  value.partners.forEach((entry: PartnerEntry, at: number) => {
    const where = `partners[${at}]`;
    const earlier = names.get(entry.name.toLowerCase());
    if (earlier !== undefined) problems.push(`${where}.name '${entry.name}' is taken by partners[${earlier}] already (names are compared ignoring case)`);
    names.set(entry.name.toLowerCase(), at);
    const nonProdKey = secret(`${where}.nonProdKey`, entry.nonProdKey, MIN_KEY_LENGTH);
    const adminToken = secret(`${where}.adminToken`, entry.adminToken, MIN_TOKEN_LENGTH);
    if (adminToken !== '' && tokens.has(adminToken)) problems.push(`${where}.adminToken is the same as ${tokens.get(adminToken)}: each partner needs a token of its own`);
    tokens.set(adminToken, `${where}.adminToken`);
    const folder = entry.fixtures === undefined ? options.defaultFixturesDir : resolve(base, entry.fixtures);
    if (!fixtureFolders.has(folder)) {
      try {
        fixtureFolders.set(folder, loadFixtures(folder));
      } catch (error) {
        if (!(error instanceof FixtureError)) throw error;
        problems.push(`${where}.fixtures: ${error.message}`);
        fixtureFolders.set(folder, undefined);
      }
    }
    const fixtures = fixtureFolders.get(folder);
    if (fixtures === undefined) return;
    const known = fixtures.locations.map((location) => location.id);
    const unknown = (entry.locations ?? []).filter((id) => !known.includes(id));
    if (unknown.length > 0) problems.push(`${where}.locations: ${unknown.map((id) => `'${id}'`).join(', ')} not among the locations of ${folder} (${known.join(', ')})`);
    problems.push(...egressProblems(where, entry.egress, entry.posOrderUrl));
    const displayName = entry.displayName ?? entry.name;
    const identity: PartnerIdentity = { name: entry.name, nonProdKey, apiKey: entry.apiKey };
    partners.push({
      identity,
      displayName,
      adminToken,
      fixtures: partnerFixtures(fixtures, { name: entry.name, displayName, nonProdKey, apiKey: entry.apiKey }, entry.locations),
      posOrderUrl: entry.posOrderUrl,
      capabilities: checklistCapabilities(entry.capabilities ?? []),
      egress: { allow: [...(entry.egress?.allow ?? [])], allowNetworks: [...(entry.egress?.allowNetworks ?? [])] },
      quotas: { ...fileQuotas, ...entry.quotas },
    });
  });
  const warnings: string[] = [];
  const reportKeys = value.reportSigning === undefined ? undefined : readReportKeys(value.reportSigning, base, options.env, problems, warnings);
  if (problems.length > 0) throw partnersError(file, problems);
  return { partners, operatorToken, harExportsInAll, deliveriesInAll, tellUnknownPartners: value.tellUnknownPartners === true, reportKeys, warnings };
}

function readReportKeys(settings: NonNullable<PartnersFile['reportSigning']>, base: string, env: Record<string, string | undefined>, problems: string[], warnings: string[]): ReportKeys | undefined {
  const before = problems.length;
  const entries = settings.keys.map((entry, at) => {
    const read = readSecret(entry.key, base, env);
    if (read.problem !== undefined) problems.push(`reportSigning.keys[${at}].key: ${read.problem}`);
    return { kid: entry.kid, text: read.value, retired: entry.retired === true, ...(entry.retiredAt === undefined ? {} : { retiredAt: entry.retiredAt }) };
  });
  if (problems.length > before) return undefined;
  return operatorReportKeys(settings.deployment, entries, problems, warnings);
}

/** Pure: a fixture set cut to `locations` (all when undefined), with `partner` in place of its own. */
export function partnerFixtures(fixtures: Fixtures, partner: Fixtures['partner'], locations: readonly string[] | undefined): Fixtures {
  const kept = (id: string) => locations === undefined || locations.includes(id);
  return {
    partner: apiKeyless(partner),
    locations: fixtures.locations.filter((location) => kept(location.id)),
    menus: Object.fromEntries(Object.entries(fixtures.menus).filter(([id]) => kept(id))),
    orders: fixtures.orders.filter((order) => kept(order.LocationId)),
    templates: fixtures.templates,
  };
}

/** An absent apiKey stays absent (JSON has no undefined). */
function apiKeyless(partner: Fixtures['partner']): Fixtures['partner'] {
  return partner.apiKey === undefined ? { name: partner.name, displayName: partner.displayName, nonProdKey: partner.nonProdKey } : partner;
}

/** A secret's value, or why it cannot be had. A file's trailing newline is not part of it. */
export function readSecret(secret: Secret, base: string, env: Record<string, string | undefined>): { value: string; problem?: string } {
  if (typeof secret === 'string') return { value: secret };
  if ('env' in secret) {
    const value = env[secret.env];
    return value === undefined || value === '' ? { value: '', problem: `the environment variable ${secret.env} is not set` } : { value };
  }
  const path = resolve(base, secret.file);
  const read = readSecretFile(path);
  return typeof read === 'string' ? { value: read.replace(/\r?\n$/, '') } : { value: '', problem: read.problem };
}

/** The most a secret file may hold: a key or a token is a line; anything larger is not a secret file. */
export const MAX_SECRET_FILE_BYTES = 64 * 1024;

/** A secret file's text, or why it cannot be one: a regular file of at most MAX_SECRET_FILE_BYTES. */
function readSecretFile(path: string): string | { problem: string } {
  const read = readPlainFile(path, MAX_SECRET_FILE_BYTES, 'a secret');
  return 'text' in read ? read.text : { problem: read.problem };
}

function partnersError(file: string, problems: string[]): ConfigError {
  return new ConfigError([`the partners file ${file} cannot be used:`, ...problems.map((problem) => `  - ${problem}`)].join('\n'));
}


/** Pure: a partner's `egress` checked and made a policy; its posOrderUrl and --pos-order-url are the operator's own words, allowed unlisted. */

/** Every problem of an entry's egress, each at its place (`partners[1].egress.allow[0]: …`). */
export function egressProblems(where: string, egress: { allow?: readonly string[]; allowNetworks?: readonly string[] } | undefined, posOrderUrl: string | undefined): string[] {
  const problems: string[] = [];
  if (posOrderUrl !== undefined && !URL.canParse(posOrderUrl)) problems.push(`${where}.posOrderUrl '${posOrderUrl}' is not a URL`);
  (egress?.allow ?? []).forEach((rule, at) => {
    const parsed = parseOriginRule(rule);
    if (typeof parsed === 'string') problems.push(`${where}.egress.allow[${at}]: ${parsed}`);
  });
  (egress?.allowNetworks ?? []).forEach((network, at) => {
    const problem = networkProblem(network);
    if (problem !== undefined) problems.push(`${where}.egress.allowNetworks[${at}]: ${problem}`);
  });
  return problems;
}

/** The policy of a hosted partner: its allowed origins, plus those of the order URLs the operator gave. */
export function hostedEgress(partner: string, egress: { allow: readonly string[]; allowNetworks: readonly string[] }, orderUrls: ReadonlyArray<string | undefined>): EgressPolicy {
  const implied = orderUrls.filter((url): url is string => url !== undefined).map((url) => new URL(url).origin);
  return partnerEgress(partner, [...new Set([...egress.allow, ...implied])], egress.allowNetworks);
}
