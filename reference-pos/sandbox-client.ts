/** The reference POS's calls to the service (the sandbox): each with a fresh POS → service token and the v2 headers (§5). */
import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { SERVICE_ISSUER } from './service-token-check.js';

export interface PosIdentity {
  posName: string;
  key: string;
  apiKey: string | undefined;
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

export class SandboxClient {
  constructor(
    private readonly identity: PosIdentity,
    private readonly clock: () => number,
    private readonly options: { reuseJti: boolean },
  ) {}

  /** Calls `method path` on the sandbox at `baseUrl` for `locationId`; never throws for an HTTP status. */
  async call(baseUrl: string, method: 'POST' | 'PUT', path: string, locationId: string, body: unknown): Promise<SandboxAnswer> {
    const nowSeconds = Math.floor(this.clock() / 1000);
    const token = jwt.sign(
      { sub: locationId, jti: this.options.reuseJti ? FIXED_JTI : randomUUID(), nbf: nowSeconds, exp: nowSeconds + TOKEN_TTL_S, iss: this.identity.posName, aud: SERVICE_ISSUER },
      this.identity.key,
      { algorithm: 'HS256', noTimestamp: true },
    );
    const response = await fetch(new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`), {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-service-locationid': locationId,
        'x-api-version': '2',
        ...(this.identity.apiKey ? { 'x-api-key': this.identity.apiKey } : {}),
      },
      body: JSON.stringify(body),
    });
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
}
