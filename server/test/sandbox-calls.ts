/** Calls a test makes to a sandbox process over real HTTP: a clean refund, and a wait for an event-stream client. */
import { mintPosToken } from '../tokens/mint-pos-token.js';
import { PARTNER } from './test-identity.js';

/** Resolves once the sandbox counts a client on its event stream: a `--follow` has opened it. */
export async function streamOpen(sandboxUrl: string): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const health = (await (await fetch(`${sandboxUrl}/_sandbox/health`)).json()) as { events: { clients: number } };
    if (health.events.clients > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('no client on the event stream');
}

/** A clean refund of `externalId` at loc-std-001 (with `extra` body fields); the answer's status. */
export async function refundAt(sandboxUrl: string, externalId: string, extra: Record<string, unknown> = {}): Promise<number> {
  const { token } = mintPosToken({ posName: PARTNER.name, key: PARTNER.nonProdKey, locationId: 'loc-std-001', ttlSeconds: 600, nowSeconds: Math.floor(Date.now() / 1000) });
  const response = await fetch(`${sandboxUrl}/v2/order/refund`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-service-locationid': 'loc-std-001', 'x-api-key': PARTNER.apiKey ?? 'k', 'x-api-version': '2', 'content-type': 'application/json' },
    body: JSON.stringify({ ExternalId: externalId, ...extra }),
  });
  await response.arrayBuffer();
  return response.status;
}
