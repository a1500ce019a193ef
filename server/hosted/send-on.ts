/** A request for a partner this instance does not lead: to the leader, or for a sleeping partner to its rendezvous owner (made here when that is this one), held up to the wait, then a 503 saying why. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import { BODY_LIMIT_BYTES } from '../http/json-body.js';
import { isOriginForm, ORIGIN_FORM_ONLY } from '../http/http-parser-errors.js';
import { forwardRequest, MAX_FORWARDED_BODY, readBody, refuse, unavailable } from './forwarding.js';
import type { Leadership } from './leadership.js';
import { PUT_AWAY, type Membership } from './leadership.js';

export interface SendingSlot {
  partner: string;
  instanceId: string;
  leadership: Leadership;
  membership: Membership;
  logger: Logger;
  waitMs: number;
  state(): 'leading' | 'stopped' | 'other';
  /** Where this instance answers, once it listens. */
  ownUrl(): string | undefined;
  /** A request came for a partner asleep that this instance owns: make it at once. */
  want(): void;
  tryLead(): Promise<boolean>;
}

/** The database did not answer a question of the forwarding: the answer says so, not that the leader is away. */
class DatabaseSilent extends Error {
  constructor(cause: unknown) {
    super(`the database does not answer (${cause instanceof Error ? cause.message : String(cause)})`);
  }
}

export function sendOn(slot: SendingSlot, req: IncomingMessage, res: ServerResponse): void {
  // Refused before the body is read: a target that names a host is never sent anywhere (http-parser-errors.ts).
  if (!isOriginForm(req.url ?? '')) return refuse(req, res, 400, 'INVALID_REQUEST', ORIGIN_FORM_ONLY);
  void forward(slot, req, res).catch((error: unknown) => {
    if (error instanceof DatabaseSilent) {
      // The database gone: every request says so until it is back; the log says why once a request, without a stack.
      slot.logger.warn({ partner: slot.partner }, `a request could not be sent on: ${error.message}`);
      return unavailable(req, res, "the sandbox's database does not answer, so no instance leads this partner just now; send it again in a few seconds (the operator's health says why)");
    }
    slot.logger.error({ err: error, partner: slot.partner }, 'forwarding a request to the leading instance failed');
    unavailable(req, res, 'the instance leading this partner could not be reached; send it again in a second');
  });
}

async function forward(slot: SendingSlot, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  // Over twice what any endpoint takes: the answer the leader would give, without sending it megabytes first.
  if (body === undefined) return refuse(req, res, 413, 'PAYLOAD_TOO_LARGE', `body is larger than ${MAX_FORWARDED_BODY} bytes; the sandbox accepts at most 1 MiB (${BODY_LIMIT_BYTES} bytes)`);
  const send = (leaderUrl: string) => forwardRequest({ req, res, body, leaderUrl, instanceId: slot.instanceId, forwardKey: slot.leadership.forwardKey });
  const deadline = Date.now() + slot.waitMs;
  for (;;) {
    const state = slot.state();
    if (state === 'leading') {
      // Led here now: the request goes in again at this instance's own address, as a new one, whole.
      const own = slot.ownUrl();
      if (own !== undefined && (await send(own)) === 'sent') return;
      return unavailable(req, res, 'this instance has just taken the lead of this partner and is not listening yet; send it again in a second');
    }
    if (state === 'stopped') return unavailable(req, res, 'this instance is stopping; send it again to another');
    const leader = await slot.leadership.leaderOf(slot.partner).catch((error: unknown) => {
      throw new DatabaseSilent(error);
    });
    if (leader?.url && leader.instanceId !== slot.instanceId && (await send(leader.url)) === 'sent') return;
    // Asleep (put away, or never run): its owner makes it. This instance, or the one it sends the request to.
    if (leader === undefined || leader.instanceId === PUT_AWAY) {
      const owner = slot.membership.ownerOf(slot.partner);
      const ownerUrl = owner === undefined ? undefined : slot.membership.urlOf(owner);
      if (owner === slot.instanceId) slot.want();
      else if (ownerUrl !== undefined && (await send(ownerUrl)) === 'sent') return;
    }
    // No leader answering: lead if this instance may, or wait for the one that does; no lock connection by then means the database is the answer.
    const led = await slot.tryLead().catch((error: unknown) => {
      throw new DatabaseSilent(error);
    });
    if (led) continue;
    if (Date.now() > deadline) {
      if (!slot.leadership.connected) throw new DatabaseSilent(new Error('the lock connection to the database is lost'));
      return unavailable(req, res, 'no instance leads this partner just now (one is taking over); send it again in a second');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
