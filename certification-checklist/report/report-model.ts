/** Pure: a run → the canonical report: its kind, POS and scope, every verdict, every step's traffic, each journal entry once with its sha256, under one digest, so `verify-report --rejudge` can judge it again. */
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import { journalSequence } from '../../server/journal/journal.js';
import type { Capability, Category, ItemStatus } from '../checklist-types.js';
import { CHECKLIST_VERSION } from '../items/all-items.js';
import type { RunOutcome } from '../run-outcome.js';
import { reportTitle, type RunKind } from '../run-kind.js';
import type { RunResult, StepRecord } from '../runner.js';
import { sha256Of } from './canonical-json.js';
import type { ReportSigner, SignerKind } from './signing-keys.js';

export const REPORT_FORMAT = 'pos-sandbox/certification-report';
/** 3: reports are signed (`signer`, manifest.json, signature.jws, statement.json). */
export const REPORT_FORMAT_VERSION = 3;
export const CANONICALIZATION = 'JSON with keys sorted at every level and no whitespace (RFC 8785 for the values a report holds)';

/** One journal entry of the run's traffic, stored once; `sha256` is over the canonical JSON of `entry`. */
export interface EvidenceEntry {
  journalId: string;
  sha256: string;
  entry: JournalEntry;
}

export interface ReportItem {
  id: string;
  title: string;
  section: string;
  category: Category;
  required: boolean;
  capabilities: Capability[];
  status: ItemStatus;
  message: string;
  remediation: string;
  /** The fix the evidence calls for, shown in place of `remediation` when the item's own fix would not fit. */
  hint?: string;
  /** A knock-on: the item whose failure stopped the call this one needed. */
  blockedBy?: string;
  /** The step (or `journal`, in passive mode) whose traffic the verdict was given over. */
  judgedOver?: string;
  startedAt?: string;
  durationMs?: number;
  /** Journal ids of the entries the verdict rests on, each in `evidence`. */
  evidence: string[];
}

/** What one step asked and captured, as the runner recorded it; its entries are journal ids into `evidence`. */
export type ReportStep = Omit<StepRecord, 'entries'> & { entries: string[] };

export interface Report {
  format: string;
  formatVersion: typeof REPORT_FORMAT_VERSION;
  /** The title every rendering carries: "POS certification report: …" or "… run, not a certification: …". */
  title: string;
  kind: RunKind;
  kindReason: string;
  runId: string;
  checklistVersion: string;
  sandboxVersion: string;
  sandbox: { url: string; partner: string };
  pos: { name: string; version?: string; build?: string; referencePos?: boolean; orderUrl?: string; driverUrl?: string };
  mode: string;
  capabilities: Capability[];
  only?: string[];
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  outcome: RunOutcome;
  items: ReportItem[];
  steps: ReportStep[];
  /** Every journal entry of the run's traffic, once, in journal order. */
  evidence: EvidenceEntry[];
  /** Whose key signs the folder (manifest.json, signature.jws): an operator's deployment, or the partner's own machine. */
  signer?: { kind: SignerKind; deployment?: string; kid: string };
  digest?: { algorithm: 'sha256'; canonicalization: string; value: string };
}

export function buildReport(run: RunResult, outcome: RunOutcome, signer: Pick<ReportSigner, 'kind' | 'deployment' | 'kid'>): Report {
  const entries = new Map<string, JournalEntry>();
  for (const step of run.steps) for (const entry of step.entries) entries.set(entry.id, entry);
  const body: Report = {
    format: REPORT_FORMAT,
    formatVersion: REPORT_FORMAT_VERSION,
    title: reportTitle(run.kind.kind, run.pos),
    kind: run.kind.kind,
    kindReason: run.kind.reason,
    runId: run.runId,
    checklistVersion: CHECKLIST_VERSION,
    sandboxVersion: run.sandbox.version,
    sandbox: { url: run.sandbox.url, partner: run.sandbox.partner },
    pos: { ...run.pos, ...(run.posOrderUrl ? { orderUrl: run.posOrderUrl } : {}), ...(run.driverUrl ? { driverUrl: run.driverUrl } : {}) },
    mode: run.mode,
    capabilities: run.capabilities,
    ...(run.only ? { only: run.only } : {}),
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    durationMs: Date.parse(run.finishedAt) - Date.parse(run.startedAt),
    outcome,
    items: run.results.map((result) => ({
      id: result.item.id,
      title: result.item.title,
      section: result.item.section,
      category: result.item.category,
      required: result.item.required,
      capabilities: result.item.capabilities ?? [],
      status: result.status,
      message: result.message,
      remediation: result.item.remediation,
      ...(result.hint ? { hint: result.hint } : {}),
      ...(result.blockedBy ? { blockedBy: result.blockedBy } : {}),
      ...(result.judgedOver ? { judgedOver: result.judgedOver } : {}),
      ...(result.startedAt ? { startedAt: result.startedAt, durationMs: result.durationMs } : {}),
      evidence: result.evidence.map((entry) => entry.id),
    })),
    steps: run.steps.map((step) => ({
      id: step.id,
      startedAt: step.startedAt,
      durationMs: step.durationMs,
      waits: step.waits,
      asked: step.asked,
      ...(step.actor ? { actor: step.actor } : {}),
      entries: step.entries.map((entry) => entry.id),
      orders: step.orders,
      refunds: step.refunds,
    })),
    evidence: [...entries.values()].sort((a, b) => journalSequence(a.id) - journalSequence(b.id)).map((entry) => ({ journalId: entry.id, sha256: sha256Of(entry), entry })),
    signer: { kind: signer.kind, ...(signer.deployment === undefined ? {} : { deployment: signer.deployment }), kid: signer.kid },
  };
  // What goes into report.json is what the digest is over: a round trip drops anything JSON does not keep.
  return sealReport(JSON.parse(JSON.stringify(body)) as Report);
}

/** The report with its digest: sha256 over the canonical JSON of everything but the digest. */
export function sealReport(report: Report): Report {
  const content: Report = { ...report };
  delete content.digest;
  return { ...content, digest: { algorithm: 'sha256', canonicalization: CANONICALIZATION, value: sha256Of(content) } };
}

/** The stored entries by journal id. */
export const evidenceById = (report: Pick<Report, 'evidence'>): Map<string, JournalEntry> => new Map((report.evidence ?? []).map((piece) => [piece.journalId, piece.entry]));
