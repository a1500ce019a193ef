/**
 * How many refunds the sandbox keeps by default, in memory and on disk; the oldest go first (docs/state-file.md).
 * A certification run makes a few dozen and a day of testing a few thousand; 20,000 keeps all of those, while a
 * load test's hundred thousand would cost ~60 MB of memory and a slower start for records nobody reads.
 */
export const DEFAULT_REFUND_LIMIT = 20_000;
