/** The server's own types, imported as types only, so the page and the API cannot drift apart. */
export type { Finding } from '../../server/http/findings.js';
export type { TokenDefect } from '../../server/tokens/pos-token-rules.js';
export type { JournalEntry } from '../../server/journal/journal-entry.js';
export type { MenuChange } from '../../server/menus/apply-menu-update.js';
export type { Location } from '../../server/fixtures/fixture-schemas.js';
export type { OrderRecord } from '../../server/orders/order-rules.js';
export type { RefundRecord } from '../../server/refunds/refund-rules.js';
export type { FaultRuleView as FaultRule } from '../../server/faults/fault-registry.js';
export type { ReadyScript } from '../../server/faults/fault-rules.js';
export type { ChecklistRun, ReportListing } from '../../server/checklist/checklist-runs.js';
export type { MigrationReport } from '../../server/migration/migration-report.js';
export type { TokenExplanation } from '../../server/tokens/explain-pos-token.js';
/** A journal summary: what a `journal` event carries, and what Traffic lists. */
export type { JournalSummary as TrafficRow } from '../../server/journal/journal-entry.js';
export type { StressRun } from '../../server/stress/stress-run-view.js';
