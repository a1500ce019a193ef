/**
 * Pure: what one partner may use of a sandbox (docs/hosting.md, "Exposing it to partners"). A hosted sandbox serves
 * many partners from one process: without a bound, one partner's event streams, exports, checklist runs or request
 * rate slow every other. A laptop serves one person, so its bounds are only those that keep the process alive.
 * Every figure can be set for all partners and for each in the partners file; `null` means no limit.
 */

export interface Quotas {
  /** Requests a second a partner may send, on average (POS API and control API alike); null: no limit. */
  requestsPerSecond: number | null;
  /** How many may come at once above that rate. */
  burst: number;
  /** Event streams (`GET /_sandbox/events`) open at once. */
  eventStreams: number;
  /** HAR exports (`GET /_sandbox/journal.har`) under way at once. */
  harExports: number;
  /** HAR exports started in any hour; null: no limit. */
  harExportsPerHour: number | null;
  /** How fast an export is written, in bytes a second: a whole journal is tens of megabytes; null: as fast as it goes. */
  harExportBytesPerSecond: number | null;
  /** Checklist runs the control API starts in any hour; null: no limit. */
  checklistRunsPerHour: number | null;
  /** Report folders kept; older ones are removed, with the orders their run made. null: all. */
  reportsKept: number | null;
  /** Days a report folder is kept; null: for ever. */
  reportMaxAgeDays: number | null;
  /** Requests a fault rule holds at once (hang, delay): each holds a connection open. */
  heldRequests: number;
  /** Journal entries kept in memory. */
  journalEntries: number;
  /** Bytes of bodies and headers the journal keeps in memory, all entries together. */
  journalBytes: number;
  /** The largest body of a POS call. */
  bodyBytes: number;
}

/** The body limit every sandbox has: a §2 payload is a few KiB (a 500-item menu about 60). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** One person's sandbox: no rate, and bounds far past what a POS under test does. */
export const LAPTOP_QUOTAS: Quotas = {
  requestsPerSecond: null,
  burst: 0,
  eventStreams: 64,
  harExports: 4,
  harExportsPerHour: null,
  harExportBytesPerSecond: null,
  checklistRunsPerHour: null,
  reportsKept: null,
  reportMaxAgeDays: null,
  heldRequests: 1000,
  journalEntries: 5000,
  journalBytes: 256 * 1024 * 1024,
  bodyBytes: MAX_BODY_BYTES,
};

/**
 * A partner of a hosted sandbox: room for a POS under test and its checklist runs (a whole run, with its polling of the
 * journal, was never refused at 20 requests a second, and slowed at 10: docs/hosting.md), and a bound on everything
 * that costs the process memory or time, so that one partner at all its quotas keeps another's p99 within 2x.
 */
export const HOSTED_QUOTAS: Quotas = {
  requestsPerSecond: 20,
  burst: 40,
  eventStreams: 4,
  harExports: 1,
  harExportsPerHour: 60,
  harExportBytesPerSecond: 2 * 1024 * 1024,
  checklistRunsPerHour: 12,
  reportsKept: 20,
  reportMaxAgeDays: 30,
  heldRequests: 20,
  journalEntries: 5000,
  journalBytes: 16 * 1024 * 1024,
  bodyBytes: MAX_BODY_BYTES,
};

/** HAR exports under way at once across every partner of a hosted process. */
export const HOSTED_HAR_EXPORTS_IN_ALL = 2;

/** The quota fields, in the order the docs and messages list them. */
export const QUOTA_FIELDS = Object.keys(LAPTOP_QUOTAS) as Array<keyof Quotas>;

/** `base` with the fields `given` sets (a partners file's defaults, then a partner's own). */
export function withQuotas(base: Quotas, ...given: Array<Partial<Quotas> | undefined>): Quotas {
  const result = { ...base };
  for (const layer of given) for (const field of QUOTA_FIELDS) if (layer?.[field] !== undefined) (result as Record<string, unknown>)[field] = layer[field];
  return result;
}
