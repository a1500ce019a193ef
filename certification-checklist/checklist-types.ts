/** The shapes of the certification checklist: items, the traffic they judge, their verdicts. */
import type { JournalEntry } from '../server/journal/journal-entry.js';
import type { OrderRecord } from '../server/orders/order-rules.js';
import type { RefundRecord } from '../server/refunds/refund-rules.js';

export const CATEGORIES = ['AUTH', 'REFUND', 'MENU', 'ORDER', 'MIGRATION'] as const;
export type Category = (typeof CATEGORIES)[number];

/** What a partner declares its POS does; an item that needs an undeclared one is not_applicable. */
export const CAPABILITIES = ['refund', 'hub', 'kiosk', 'menu-form-b'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const ITEM_STATUSES = ['pass', 'fail', 'warn', 'blocked', 'not_applicable', 'skipped', 'error'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** The steps the runner performs, in this order; each makes the POS act once, and every item judging that step reads its traffic. */
export const STEP_IDS = [
  'order-accepted',
  'order-rejected-resent',
  'order-duplicate',
  'forged-bad-signature',
  'forged-expired-token',
  'forged-wrong-audience',
  'order-hub',
  'order-kiosk',
  'menu-partial',
  'menu-full',
  'menu-unknown-item',
  'menu-validation-error',
  'menu-hub',
  'menu-kiosk',
  'refund-order',
  'refund-invalid-payload',
  'refund-service-error',
  'refund-hub',
  'refund-kiosk',
  'all-traffic',
] as const;
export type StepId = (typeof STEP_IDS)[number];

/** What one step captured: the journal entries it caused (oldest first), the sandbox's records, what it asked for. */
export interface Traffic {
  entries: JournalEntry[];
  /** The orders the step is about, as the sandbox holds them once the step is over. */
  orders: OrderRecord[];
  /** The refunds the step's refund calls created. */
  refunds: RefundRecord[];
  /** What the step asked the POS to do (order ids, the location, the item and price …), for the verdict to compare. */
  asked: Record<string, unknown>;
  /** How the POS (its driver, or the person at it) answered the step's request, when the step asked it to act. */
  actor?: ActorAnswer;
}

/** `answered` false: the driver could not be reached or did not answer in time; nothing about the POS is known from it. */
export interface ActorAnswer {
  answered: boolean;
  status?: number;
  detail: string;
}

/** A verdict over captured traffic: the journal entries it rests on are its evidence. */
export interface Verdict {
  status: 'pass' | 'fail' | 'warn' | 'blocked';
  message: string;
  evidence: string[];
  /** A knock-on: the call this item needed broke another item's rule, and that item is the root cause to fix first. */
  blockedBy?: string;
  /** What kind of failure it is (`no-status-call`), when the same failure in an earlier item makes this one its knock-on. */
  cause?: string;
  /** What to change, when the evidence calls for another fix than the item's remediation (a POS that refused the order). */
  hint?: string;
}

export interface ChecklistItem {
  id: string;
  title: string;
  /** Where in the interface (§N) the rule comes from, and the page of our docs for what the interface leaves open. */
  section: string;
  category: Category;
  /** Refund items are optional (§1); everything else is required for certification. */
  required: boolean;
  /** Every capability the item needs; absent or empty for items every POS must pass. */
  capabilities?: Capability[];
  /** What to change in the POS when the item does not pass. */
  remediation: string;
  /** The step whose traffic the item is judged over: `all-traffic` for every call of the run. */
  step: StepId;
  /** Steps an `all-traffic` item needs run even when no item is judged over them alone (MENU-07 reads every menu update). */
  drives?: StepId[];
  /** True when the verdict can be given from whatever the journal holds (--passive). */
  passive: boolean;
  judge(traffic: Traffic): Verdict;
}
