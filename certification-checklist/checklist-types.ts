/** The shapes of the certification checklist (SANDBOX-SPEC §9): items, the traffic they judge, their verdicts. */
import type { JournalEntry } from '../server/journal/journal-entry.js';
import type { OrderRecord } from '../server/domain/order-record.js';
import type { RefundRecord } from '../server/domain/refund-outcome.js';

export const CATEGORIES = ['AUTH', 'REFUND', 'MENU', 'ORDER'] as const;
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
  orders: OrderRecord[];
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
}

export interface ChecklistItem {
  id: string;
  title: string;
  /** Where in interface-v2.md (or the sandbox spec) the rule comes from. */
  section: string;
  category: Category;
  /** Refund items are optional (§1); everything else is required for certification. */
  required: boolean;
  /** Every capability the item needs; absent or empty for items every POS must pass. */
  capabilities?: Capability[];
  /** What to change in the POS when the item does not pass. */
  remediation: string;
  step: StepId;
  /** True when the verdict can be given from whatever the journal holds (--passive). */
  passive: boolean;
  judge(traffic: Traffic): Verdict;
}
