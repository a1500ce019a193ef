/** Pure: every verdict of a report judged again from its own evidence, which digests cannot show: an edited status, message or excerpt gives another verdict. */
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import { CHECKLIST, CHECKLIST_VERSION } from '../items/all-items.js';
import { runOutcome, type JudgedItem } from '../run-outcome.js';
import { reportTitle, runKind } from '../run-kind.js';
import { outOfScope, type RunMode } from '../scope.js';
import { trafficOf } from '../traffic.js';
import { linkSameCause } from '../same-cause.js';
import type { Verdict } from '../checklist-types.js';
import { canonicalJson } from './canonical-json.js';
import { evidenceById, type Report, type ReportItem } from './report-model.js';

export type Rejudged = { judged: number; problems: string[] } | { unsupported: string };

const quote = (text: string) => JSON.stringify(text.length > 160 ? `${text.slice(0, 157)}…` : text);

export function rejudgeReport(report: Report): Rejudged {
  if (report.checklistVersion !== CHECKLIST_VERSION) {
    return {
      unsupported: `the report was judged by checklist ${report.checklistVersion}; this pos-sandbox has checklist ${CHECKLIST_VERSION}. Judge it again with the pos-sandbox that wrote it (sandbox ${report.sandboxVersion})`,
    };
  }
  const problems: string[] = [];
  const entries = evidenceById(report);
  const steps = new Map((report.steps ?? []).map((step) => [step.id, step]));
  const mode = report.mode as RunMode;
  const scope = { capabilities: new Set(report.capabilities), ...(report.only ? { only: new Set(report.only) } : {}), mode };
  const rejudged: JudgedItem[] = [];
  // In the order the runner judged them: the order decides which item is the root.
  const verdicts = new Map<string, Verdict>();
  const stepOrder = new Map((report.steps ?? []).map((step, index) => [step.id, index]));
  const position = (id: string) => stepOrder.get(report.items.find((candidate) => candidate.id === id)?.judgedOver ?? '') ?? -1;
  let judged = 0;
  for (const item of [...CHECKLIST].sort((a, b) => position(a.id) - position(b.id))) {
    const reported = report.items.find((candidate) => candidate.id === item.id);
    if (!reported) {
      problems.push(`${item.id}: the report does not list it`);
      continue;
    }
    for (const field of ['title', 'section', 'remediation', 'required', 'category'] as const) {
      if (reported[field] !== item[field]) problems.push(`${item.id}: its ${field} is not the checklist's (${quote(String(reported[field]))})`);
    }
    const out = outOfScope(item, scope);
    if (out) {
      if (reported.status !== out.status || reported.message !== out.message) problems.push(`${item.id}: the report says ${reported.status}, but in this run's scope it is ${out.status} (${out.message})`);
      rejudged.push({ id: item.id, required: item.required, status: out.status, message: out.message });
      continue;
    }
    // An item whose step could not be run, or whose verdict threw, has nothing to judge again; it fails the run as it is.
    if (reported.status === 'error') {
      rejudged.push({ id: item.id, required: item.required, status: 'error', message: reported.message });
      continue;
    }
    const step = reported.judgedOver === undefined ? undefined : steps.get(reported.judgedOver);
    if (!step) {
      problems.push(`${item.id}: the report says ${reported.status} but holds no traffic it was judged over`);
      continue;
    }
    const missing = step.entries.filter((id) => !entries.has(id));
    if (missing.length > 0) {
      problems.push(`${item.id}: its step ${step.id} names journal entries the report does not hold (${missing.join(', ')})`);
      continue;
    }
    let verdict: Verdict;
    try {
      const own = item.judge(trafficOf({ ...step, entries: step.entries.map((id) => entries.get(id) as JournalEntry) }));
      verdict = linkSameCause(item.id, own, verdicts);
      verdicts.set(item.id, own);
    } catch (error) {
      problems.push(`${item.id}: its evidence cannot be judged (${(error as Error).message})`);
      continue;
    }
    judged++;
    const mismatch = compare(reported, verdict);
    if (mismatch) problems.push(`${item.id}: ${mismatch}`);
    rejudged.push({ id: item.id, required: item.required, status: verdict.status, message: verdict.message, ...(verdict.blockedBy ? { blockedBy: verdict.blockedBy } : {}) });
  }
  const checklistOrder = (id: string) => CHECKLIST.findIndex((item) => item.id === id);
  const outcome = runOutcome(rejudged.sort((a, b) => checklistOrder(a.id) - checklistOrder(b.id)));
  if (canonicalJson(outcome) !== canonicalJson(report.outcome)) {
    const said = (o: Report['outcome']) => `${o.verdict} (exit ${o.exitCode}, ${quote(o.reason)}; ${canonicalJson(o.counts)})`;
    problems.push(`the outcome: the report says ${said(report.outcome)}; its items give ${said(outcome)}`);
  }
  const kind = runKind({ mode, ...(report.only ? { only: report.only } : {}), pos: report.pos });
  if (kind.kind !== report.kind || kind.reason !== report.kindReason) problems.push(`the kind of run: the report says ${report.kind}, its scope and POS make it ${kind.kind} (${kind.reason})`);
  const title = reportTitle(kind.kind, report.pos);
  if (title !== report.title) problems.push(`the title: the report says ${quote(report.title)}, its kind and POS make it ${quote(title)}`);
  return { judged, problems };
}

/** What differs between the verdict a report states and the one its evidence gives, in a sentence; undefined when none. */
function compare(reported: ReportItem, verdict: Verdict): string | undefined {
  const stated = `${reported.status}${reported.blockedBy ? ` by ${reported.blockedBy}` : ''}`;
  const given = `${verdict.status}${verdict.blockedBy ? ` by ${verdict.blockedBy}` : ''}`;
  if (reported.message === verdict.message && stated !== given) return `the report says ${stated}, its evidence gives ${given}: ${quote(verdict.message)}`;
  if (stated !== given || reported.message !== verdict.message) {
    return `the report says ${stated}: ${quote(reported.message)}; its evidence gives ${given}: ${quote(verdict.message)}`;
  }
  const hint = verdict.blockedBy ? undefined : verdict.hint;
  if (reported.hint !== hint) return `the report gives the fix ${quote(reported.hint ?? reported.remediation)}; its evidence calls for ${quote(hint ?? reported.remediation)}`;
  if (canonicalJson(reported.evidence) !== canonicalJson(verdict.evidence)) {
    return `the report cites ${reported.evidence.join(', ') || 'no entry'} as evidence; the verdict rests on ${verdict.evidence.join(', ') || 'no entry'}`;
  }
  return undefined;
}
