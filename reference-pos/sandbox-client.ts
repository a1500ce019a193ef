/** The reference POS's calls to the service (the sandbox): each with a fresh POS → service token and the v2 headers (§5). */
import { randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Bug } from './bugs.js';
import { SERVICE_ISSUER, secretKey } from './service-token-check.js';

/** How far ahead the clock of a POS with the clock-fast bug is: past the sandbox's 60 s tolerance on nbf. */
const CLOCK_AHEAD_S = 150;

export interface PosIdentity {
  posName: string;
  key: string;
  apiKey: string | undefined;
}

export interface SendOptions {
  /** Leave out x-service-locationid (the token's sub still names the location). */
  omitLocationHeader?: boolean;
}

export interface SandboxAnswer {
  status: number;
  body: unknown;
  findings: number | undefined;
  journalId: string | undefined;
}

/** A reused jti for the reuse-jti bug: one value for every token. */
const FIXED_JTI = 'reference-pos-jti';
const TOKEN_TTL_S = 300;
/** How many sends the retry-storm bug makes of one refused call. */
export const RETRY_STORM_SENDS = 10;
/** The waits before each new send of a call that met a 5xx: growing, the first a second, as the checklist asks. */
const RETRY_GAPS_MS = [1000, 2000];

export class SandboxClient {
  /** The key its tokens are signed with (the wrong-key bug's own), made once (secretKey says why). */
  private readonly signingKey: KeyObject;

  constructor(
    private readonly identity: PosIdentity,
    private readonly clock: () => number,
    private readonly bugs: ReadonlySet<Bug> = new Set(),
  ) {
    this.signingKey = secretKey(bugs.has('wrong-key') ? `not-the-partner-key-${identity.key}` : identity.key);
  }

  /** Never throws for a status: a 4xx is reported as it is, a 5xx sent again after growing waits, so an outage loses no refund. */
  async call(baseUrl: string, method: 'POST' | 'PUT', path: string, locationId: string, body: unknown, options: SendOptions = {}): Promise<SandboxAnswer> {
    let answer = await this.send(baseUrl, method, path, locationId, body, options);
    if (this.bugs.has('retry-storm')) {
      for (let sends = 1; sends < RETRY_STORM_SENDS && answer.status !== 200; sends++) answer = await this.send(baseUrl, method, path, locationId, body, options);
      return answer;
    }
    if (this.bugs.has('no-retry-after-5xx')) return answer;
    for (const gap of RETRY_GAPS_MS) {
      if (answer.status < 500) break;
      await new Promise((resolve) => setTimeout(resolve, gap));
      answer = await this.send(baseUrl, method, path, locationId, body, options);
    }
    return answer;
  }

  /** The waits-for-refund-result bug asks for what v1 answered; a correct v2 POS never does (§1). */
  async askRefundResult(baseUrl: string, locationId: string, externalId: string): Promise<SandboxAnswer> {
    return this.send(baseUrl, 'GET', `/v2/order/refund/${encodeURIComponent(externalId)}`, locationId, undefined, {});
  }

  private async send(baseUrl: string, method: 'GET' | 'POST' | 'PUT', path: string, locationId: string, body: unknown, options: SendOptions): Promise<SandboxAnswer> {
    const url = new URL(this.v1Path(path).replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    if (this.bugs.has('key-in-query')) url.searchParams.set('apiKey', this.identity.key);
    const headers: Record<string, string> = { authorization: `Bearer ${this.token(locationId)}`, 'content-type': 'application/json' };
    if (this.bugs.has('company-profile-header')) headers.CompanyProfileId = locationId;
    else if (!options.omitLocationHeader) headers['x-service-locationid'] = locationId;
    if (!this.bugs.has('no-migration-headers')) {
      headers['x-api-version'] = '2';
      if (this.identity.apiKey) headers['x-api-key'] = this.identity.apiKey;
    }
    const sent = body === undefined ? undefined : JSON.stringify(this.v1Body(path, body, locationId));
    const response = await fetch(url, { method, headers, ...(sent === undefined ? {} : { body: sent }) });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON: keep the text.
    }
    const findings = response.headers.get('x-sandbox-findings');
    return {
      status: response.status,
      body: parsed,
      findings: findings === null ? undefined : Number(findings),
      journalId: response.headers.get('x-sandbox-journal-id') ?? undefined,
    };
  }

  /** The path a half-migrated POS calls: a v1 habit's switch sends a call where v1 sent it. */
  private v1Path(path: string): string {
    if (this.bugs.has('v1-menu-endpoint') && path === '/v2/menu') return '/v1/pos/integration/menu';
    if (this.bugs.has('update-order-state') && path === '/v2/order/status') return '/v2/order/UpdateOrderState';
    return path;
  }

  /** The body a half-migrated POS sends: v1's fields beside v2's. */
  private v1Body(path: string, body: unknown, locationId: string): unknown {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
    return {
      ...body,
      ...(this.bugs.has('company-profile-field') ? { CompanyProfileId: locationId } : {}),
      ...(this.bugs.has('update-order-state-action') && path === '/v2/order/status' ? { Action: 'UpdateOrderState' } : {}),
    };
  }

  /** A fresh token per call, as §5 asks; each token bug spoils the one claim it names. */
  private token(locationId: string): string {
    const bugs = this.bugs;
    const nowSeconds = Math.floor(this.clock() / 1000) + (bugs.has('clock-fast') ? CLOCK_AHEAD_S : 0);
    const claims = {
      sub: bugs.has('sub-not-location') ? this.identity.posName : locationId,
      jti: bugs.has('reuse-jti') ? FIXED_JTI : randomUUID(),
      nbf: nowSeconds,
      exp: (nowSeconds + (bugs.has('long-lived-tokens') ? 24 * 3600 : TOKEN_TTL_S)) * (bugs.has('exp-in-ms') ? 1000 : 1),
      iss: bugs.has('wrong-issuer') ? 'reference-pos' : this.identity.posName,
      aud: bugs.has('wrong-token-audience') ? 'io.service.pos.brokers' : SERVICE_ISSUER,
    };
    return jwt.sign(claims, this.signingKey, { algorithm: 'HS256', noTimestamp: true });
  }
}
