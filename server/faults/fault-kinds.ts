/** Pure data: what each fault kind does, which direction it applies to and which parameters it takes. */

export const FAULT_KINDS = [
  'status',
  'delay',
  'drop',
  'hang',
  'malformed',
  'rate-limit',
  'bad-signature',
  'expired-token',
  'wrong-audience',
  'duplicate',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/** Token and delivery faults only make sense on an order the sandbox sends. */
export const OUTBOUND_ONLY_KINDS: readonly FaultKind[] = ['bad-signature', 'expired-token', 'wrong-audience', 'duplicate'];

export type FaultParameter = 'status' | 'body' | 'contentType' | 'ms' | 'retryAfter';

/** For each kind: the parameters it needs, and those it may take. */
export const KIND_PARAMETERS: Record<FaultKind, { required: FaultParameter[]; optional: FaultParameter[] }> = {
  status: { required: ['status'], optional: ['body', 'contentType'] },
  delay: { required: ['ms'], optional: [] },
  drop: { required: [], optional: [] },
  hang: { required: [], optional: [] },
  malformed: { required: [], optional: ['status'] },
  'rate-limit': { required: [], optional: ['retryAfter'] },
  'bad-signature': { required: [], optional: [] },
  'expired-token': { required: [], optional: [] },
  'wrong-audience': { required: [], optional: [] },
  duplicate: { required: [], optional: [] },
};

/** A status fault answers an error: a 2xx that did nothing would lie about the state. */
export const STATUS_FAULT_RANGE = { min: 400, max: 599 } as const;
export const DEFAULT_MALFORMED_STATUS = 500;
export const DEFAULT_RETRY_AFTER_S = 1;
