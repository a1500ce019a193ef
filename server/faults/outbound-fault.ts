/** What an outbound fault does to one delivery try: a token fault changes the token; status, rate-limit, delay, hang, drop, malformed and duplicate change how the order travels (docs/faults.md). */
import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { finding, type Finding } from '../http/findings.js';
import { mintServiceToken } from '../tokens/mint-pos-token.js';
import { faultLabel, type FiredFault } from './fault-registry.js';
import { injectedReply } from './inbound-faults.js';
import { postOrder, type PostOrderResult, type ReplyVerdict } from '../orders/post-order.js';
import type { EgressPolicy } from '../hosted/egress.js';

/** An expired token is this far past its exp: beyond the 60 s tolerance a POS may allow (§5). */
const EXPIRED_BY_S = 300;
/** The audience of a token meant for some other POS. */
export const WRONG_AUDIENCE = 'another-pos';

export interface TokenInput {
  posName: string;
  key: KeyObject;
  locationId: string;
  ttlSeconds: number;
  nowSeconds: number;
}

/** The service → POS token of one send, as the fault (if any) spoils it. */
export function serviceTokenFor(fault: FiredFault | undefined, input: TokenInput): string {
  switch (fault?.kind) {
    case 'bad-signature':
      return mintServiceToken({ ...input, key: createSecretKey(randomBytes(32)) }).token;
    case 'expired-token':
      return mintServiceToken({ ...input, nowSeconds: input.nowSeconds - input.ttlSeconds - EXPIRED_BY_S }).token;
    case 'wrong-audience':
      return mintServiceToken({ ...input, posName: WRONG_AUDIENCE }).token;
    default:
      return mintServiceToken(input).token;
  }
}

export interface OutboundSend {
  url: string;
  /** The headers of a send; called once per copy, so each carries its own token. */
  headers: () => Record<string, string>;
  body: string;
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
  /** Which addresses the order may go to (hosted/egress.ts). */
  egress?: EgressPolicy;
}

/** One send as it went: the headers it carried and what came back (or why nothing did). */
export interface SendOutcome {
  headers: Record<string, string>;
  body: string;
  result: PostOrderResult;
}

/** Sends one try through the fault; two outcomes for a duplicate, one otherwise. */
export async function sendThroughFault(fault: FiredFault | undefined, send: OutboundSend): Promise<SendOutcome[]> {
  const headers = send.headers();
  const plain = { url: send.url, headers, body: send.body, timeoutMs: send.timeoutMs, egress: send.egress };
  const by = fault ? faultLabel(fault) : '';
  switch (fault?.kind) {
    case 'status':
    case 'rate-limit': {
      const reply = injectedReply(fault.action, 'order', by);
      const result = { status: reply.status, bodyText: reply.body, responseHeaders: reply.headers, error: `answered ${reply.status} by ${by}; the order did not reach the POS` };
      return [{ headers, body: send.body, result }];
    }
    case 'delay': {
      const ms = fault.action.ms ?? 0;
      if (ms >= send.timeoutMs) {
        await send.sleep(send.timeoutMs);
        return [{ headers, body: send.body, result: { error: `no answer within ${send.timeoutMs} ms: ${by} held the order ${ms} ms, so it never left` } }];
      }
      await send.sleep(ms);
      return [{ headers, body: send.body, result: await postOrder({ ...plain, timeoutMs: send.timeoutMs - ms }) }];
    }
    case 'hang': {
      const result = await postOrder(plain);
      const answered = result.status === undefined ? (result.error ?? 'no answer') : `${result.status}`;
      await send.sleep(send.timeoutMs);
      return [{ headers, body: send.body, result: { ...result, error: `no answer within ${send.timeoutMs} ms: ${by} withheld the POS's reply (${answered})` } }];
    }
    case 'drop': {
      const cutAt = Math.floor(Buffer.byteLength(send.body) / 2);
      const result = await postOrder({ ...plain, cutAfterBytes: cutAt });
      return [{ headers, body: send.body, result: { ...result, error: `${by} dropped the connection after ${cutAt} of ${Buffer.byteLength(send.body)} bytes of the order` } }];
    }
    case 'malformed': {
      const broken = send.body.slice(0, Math.ceil(send.body.length / 2));
      return [{ headers, body: broken, result: await postOrder({ ...plain, body: broken }) }];
    }
    case 'duplicate': {
      // Both copies at once, as an at-least-once broker may: a POS that books before it looks for the OrderId shows itself.
      const again = send.headers();
      const [first, second] = await Promise.all([postOrder(plain), postOrder({ ...plain, headers: again })]);
      return [
        { headers, body: send.body, result: first },
        { headers: again, body: send.body, result: second },
      ];
    }
    default:
      return [{ headers, body: send.body, result: await postOrder(plain) }];
  }
}

const TOKEN_FAULTS: ReadonlySet<string> = new Set(['bad-signature', 'expired-token', 'wrong-audience']);
const SPOILED_TOKEN: Record<string, string> = {
  'bad-signature': 'a token signed with another key',
  'expired-token': 'an expired token',
  'wrong-audience': `a token for another POS (aud ${WRONG_AUDIENCE})`,
};

/** A spoiled token is meant to be refused: a 401 is the POS doing its job, and the verdict says so. */
export function judgeTokenFault(fault: FiredFault | undefined, verdict: ReplyVerdict, status: number | undefined): ReplyVerdict {
  if (!fault || !TOKEN_FAULTS.has(fault.kind) || verdict.delivered || status === undefined) return verdict;
  const token = `${SPOILED_TOKEN[fault.kind]} (${faultLabel(fault)})`;
  return {
    delivered: false,
    problem: status === 401 ? `the POS refused ${token} with 401, as it must` : `the POS refused ${token} with ${status}; 401 UNAUTHORIZED is expected`,
  };
}

/** The findings of a delivered try: accepting an order whose token should have been refused is a security hole. */
export function tokenFaultFindings(fault: FiredFault | undefined): Finding[] {
  if (!fault || !TOKEN_FAULTS.has(fault.kind)) return [];
  return [
    finding(
      'FORGED_TOKEN_ACCEPTED',
      `the POS accepted an order carrying ${SPOILED_TOKEN[fault.kind]} (${faultLabel(fault)}); it must answer 401 and create nothing`,
    ),
  ];
}

/** A duplicate delivery must be answered as the first was: the same ExternalId. */
export function duplicateFindings(verdicts: ReplyVerdict[]): Finding[] {
  if (verdicts.length < 2) return [];
  const [first, second] = verdicts as [ReplyVerdict, ReplyVerdict];
  if (!first.delivered && !second.delivered) return [];
  if (first.delivered && second.delivered) {
    if (first.externalId === second.externalId) return [];
    return [finding('DUPLICATE_NOT_IDEMPOTENT', `the same delivery (same OrderId and RequestId) sent twice was answered ExternalId '${first.externalId}', then '${second.externalId}'; a duplicate must get the same ExternalId, and create no second order`)];
  }
  const failed = first.delivered ? second : first;
  const which = first.delivered ? 'the duplicate copy' : 'the first copy';
  return [finding('DUPLICATE_NOT_IDEMPOTENT', `the same delivery was sent twice and only one copy delivered it; ${which} failed: ${failed.delivered ? '' : failed.problem}`)];
}
