/**
 * A hosted sandbox with two partners (serve --partners), built from a real partners file in a temp folder, for the
 * tests of what partners share and what keeps them apart: the partners, their POS calls and control calls.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { createHostedSandbox, type HostedSandbox, type HostedSandboxOptions } from '../hosted/hosted-sandbox.js';
import { loadPartnersFile } from '../hosted/partners-file.js';
import { memoryStorage } from '../store/segment-storage.js';
import { silentLogger } from '../logger.js';
import { FIXTURES_DIR, NOW_S, signHs256, validClaims } from './helpers.js';

export const ALPHA = { name: 'alpha-pos', key: 'alpha-nonprod-key-'.padEnd(40, 'a'), admin: 'alpha-admin-token-0001', apiKey: 'alpha-x-api-key' };
export const BETA = { name: 'beta-pos', key: 'beta-nonprod-key-'.padEnd(40, 'b'), admin: 'beta-admin-token-00001', apiKey: 'beta-x-api-key' };
export const OPERATOR = 'operator-token-0000001';
export type Partner = typeof ALPHA;

export interface HostedTest {
  dir: string;
  hosted: HostedSandbox;
  app: RequestListener;
  clock: { now: number };
  /** A POS call of `partner` (its iss, signed with its key unless told). */
  pos(partner: Partner, method: 'post' | 'put', path: string, body: unknown, options?: { key?: string; location?: string; claims?: Record<string, unknown> }): request.Test;
  refund(partner: Partner, externalId: string, options?: { key?: string }): request.Test;
  /** A GET of the control API with `token`. */
  control(token: string, path: string, headers?: Record<string, string>): request.Test;
  close(): void;
}

/**
 * Alpha (every location, capabilities listed) and beta (two locations, its token in a file, its key in the
 * environment). `more` adds to each partner's entry and to the file's top level.
 */
export async function startHosted(
  more: { alpha?: Record<string, unknown>; beta?: Record<string, unknown>; file?: Record<string, unknown> } = {},
  options: Partial<HostedSandboxOptions> = {},
): Promise<HostedTest> {
  const dir = mkdtempSync(join(tmpdir(), 'partners-'));
  writeFileSync(join(dir, 'beta-admin-token'), `${BETA.admin}\n`);
  writeFileSync(
    join(dir, 'partners.json'),
    JSON.stringify({
      operatorToken: { env: 'TEST_OPERATOR_TOKEN' },
      ...more.file,
      partners: [
        { name: ALPHA.name, displayName: 'Alpha POS', nonProdKey: ALPHA.key, apiKey: ALPHA.apiKey, adminToken: ALPHA.admin, capabilities: ['refunds', 'orders'], ...more.alpha },
        { name: BETA.name, nonProdKey: { env: 'TEST_BETA_KEY' }, apiKey: BETA.apiKey, adminToken: { file: 'beta-admin-token' }, locations: ['loc-std-001', 'loc-kiosk-001'], ...more.beta },
      ],
    }),
  );
  const setup = loadPartnersFile(join(dir, 'partners.json'), { env: { TEST_OPERATOR_TOKEN: OPERATOR, TEST_BETA_KEY: BETA.key }, defaultFixturesDir: FIXTURES_DIR });
  const clock = { now: NOW_S * 1000 };
  let next = 0;
  const hosted = await createHostedSandbox({
    setup,
    storageFor: () => memoryStorage(),
    logger: silentLogger(),
    reportDir: join(dir, 'reports'),
    refundDelayMs: 0,
    clock: () => clock.now,
    newId: () => `id-${++next}`,
    setTimer: () => () => undefined,
    dispatch: { attemptTimeoutMs: 2_000 },
    sleep: async () => undefined,
    ...options,
  });
  const app = hosted.listener;
  const pos: HostedTest['pos'] = (partner, method, path, body, callOptions = {}) => {
    const location = callOptions.location ?? 'loc-std-001';
    const token = signHs256({ alg: 'HS256', typ: 'JWT' }, validClaims({ iss: partner.name, sub: location, ...callOptions.claims }), callOptions.key ?? partner.key);
    const call = method === 'post' ? request(app).post(path) : request(app).put(path);
    return call
      .set('authorization', `Bearer ${token}`)
      .set('x-service-locationid', location)
      .set('x-api-key', partner.apiKey)
      .set('x-api-version', '2')
      .set('content-type', 'application/json')
      .send(JSON.stringify(body));
  };
  return {
    dir,
    hosted,
    app,
    clock,
    pos,
    refund: (partner, externalId, callOptions = {}) => pos(partner, 'post', '/v2/order/refund', { ExternalId: externalId }, callOptions),
    control: (token, path, headers = {}) => request(app).get(path).set({ authorization: `Bearer ${token}`, ...headers }),
    close: () => {
      hosted.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
