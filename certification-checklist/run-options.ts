/** What a checklist run is given, and what it says of each item: apart from the runner, which its start checks need. */
import type { JournalEntry } from '../server/journal/journal-entry.js';
import type { Capability, ChecklistItem, ItemStatus } from './checklist-types.js';
import type { PosUnderTest } from './run-kind.js';
import type { RunMode } from './scope.js';

export interface RunOptions {
  sandboxUrl: string;
  /** The sandbox's --admin-token, sent with every control call when it has one. */
  adminToken?: string;
  posOrderUrl?: string;
  mode: RunMode;
  driverUrl?: string;
  capabilities: Capability[];
  only?: string[];
  /** The POS under test as the partner names it; the name defaults to the sandbox's partner (the token's iss). */
  pos?: Partial<PosUnderTest>;
  /** How long to wait for the POS once asked (default 15 s with a driver, 120 s for a person). */
  waitMs?: number;
  /** How long to watch for retries after an injected error (default 3 s). */
  windowMs?: number;
  /** How often a wait reads the sandbox again (default 100 ms); tests shorten it, since most waits end at a read. */
  pollMs?: number;
  /** How long the start checks wait for the driver's /health and the order endpoint to answer (default 3 s); tests shorten it. */
  startWaitMs?: number;
  /** Where the live lines go; `live` lets the countdown rewrite its line (a terminal). */
  out: { write(text: string): unknown };
  live?: boolean;
  onItem?: (result: ItemResult) => void;
  /** How the POS (its driver and order endpoint) is called: fetch itself, or one a hosted sandbox holds to its egress policy. */
  fetch?: (input: string | URL, init?: RequestInit) => Promise<Response>;
}

export interface ItemResult {
  item: ChecklistItem;
  status: ItemStatus;
  message: string;
  /** The journal entries the verdict rests on. */
  evidence: JournalEntry[];
  /** A knock-on: the item whose rule stopped the call this one needed. */
  blockedBy?: string;
  /** The fix the evidence calls for, when it is not the item's remediation. */
  hint?: string;
  /** The captured traffic the item was judged over (a step id, or `journal` in passive mode). */
  judgedOver?: string;
  startedAt?: string;
  durationMs?: number;
}
