/** Pure: a run → the canonical report (SANDBOX-SPEC §9): every item with its evidence, a sha256 over each piece and over the whole. */
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import { scrubSecrets } from '../../server/journal/journal-entry.js';
import type { Capability, Category, ItemStatus } from '../checklist-types.js';
import { CHECKLIST_VERSION } from '../items/all-items.js';
import type { RunOutcome } from '../run-outcome.js';
import type { RunResult } from '../runner.js';
import { sha256Of } from './canonical-json.js';

export const REPORT_FORMAT = 'pos-sandbox/certification-report';
export const CANONICALIZATION = 'JSON with keys sorted at every level and no whitespace (RFC 8785 for strings and integers)';
/** Bodies longer than this (as JSON) are cut in an excerpt; the excerpt says so and keeps the whole body's sha256. */
const EXCERPT_BODY_LIMIT = 2000;

export interface EvidenceEntry {
  journalId: string;
  /** sha256 of the canonical JSON of `excerpt`. */
  sha256: string;
  excerpt: Record<string, unknown>;
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
  startedAt?: string;
  durationMs?: number;
  evidence: EvidenceEntry[];
}

export interface Report {
  format: string;
  formatVersion: 1;
  runId: string;
  checklistVersion: string;
  sandboxVersion: string;
  sandbox: { url: string; partner: string };
  pos: { orderUrl?: string; driverUrl?: string };
  mode: string;
  capabilities: Capability[];
  only?: string[];
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  outcome: RunOutcome;
  items: ReportItem[];
  digest?: { algorithm: 'sha256'; canonicalization: string; value: string };
}

export function buildReport(run: RunResult, outcome: RunOutcome): Report {
  const body: Report = {
    format: REPORT_FORMAT,
    formatVersion: 1,
    runId: run.runId,
    checklistVersion: CHECKLIST_VERSION,
    sandboxVersion: run.sandbox.version,
    sandbox: { url: run.sandbox.url, partner: run.sandbox.partner },
    pos: { ...(run.posOrderUrl ? { orderUrl: run.posOrderUrl } : {}), ...(run.driverUrl ? { driverUrl: run.driverUrl } : {}) },
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
      ...(result.startedAt ? { startedAt: result.startedAt, durationMs: result.durationMs } : {}),
      evidence: result.evidence.map(evidenceOf),
    })),
  };
  return sealReport(body);
}

/** The report with its digest: sha256 over the canonical JSON of everything but the digest. */
export function sealReport(report: Report): Report {
  const content: Report = { ...report };
  delete content.digest;
  return { ...content, digest: { algorithm: 'sha256', canonicalization: CANONICALIZATION, value: sha256Of(content) } };
}

export function evidenceOf(entry: JournalEntry): EvidenceEntry {
  const excerpt = excerptOf(entry);
  return { journalId: entry.id, sha256: sha256Of(excerpt), excerpt };
}

/** What a report keeps of a journal entry: tokens as header + claims + hash, headers already redacted, bodies cut. */
export function excerptOf(entry: JournalEntry): Record<string, unknown> {
  const excerpt = {
    journalId: entry.id,
    time: entry.time,
    direction: entry.direction,
    method: entry.method,
    path: entry.path,
    url: entry.url,
    query: Object.keys(entry.query).length > 0 ? entry.query : undefined,
    locationId: entry.locationId,
    orderId: entry.orderId,
    token: entry.token,
    request: { headers: entry.request.headers, body: cut(entry.request.body ?? entry.request.bodyText) },
    response: { status: entry.response.status, body: cut(entry.response.body), error: entry.response.error },
    latencyMs: entry.latencyMs,
    findings: entry.findings.length > 0 ? entry.findings : undefined,
    delivery: entry.delivery,
    fault: entry.fault,
    menuUpdate: entry.menuUpdate,
  };
  // No undefined left (the digest is over JSON), and no JWT signature even inside a body (scrubSecrets cuts them).
  return scrubSecrets(JSON.parse(JSON.stringify(excerpt)) as Record<string, unknown>, []);
}

function cut(body: unknown): unknown {
  if (body === undefined) return undefined;
  const text = JSON.stringify(body);
  if (text.length <= EXCERPT_BODY_LIMIT) return body;
  return { cut: `${text.length} characters, first ${EXCERPT_BODY_LIMIT} kept`, sha256: sha256Of(body), start: text.slice(0, EXCERPT_BODY_LIMIT) };
}
