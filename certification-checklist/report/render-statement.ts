/** Pure: statement.json, the page the service's team reads first, rendered from report.json (so verify-report finds any disagreement) and signed on its own to travel alone. */
import type { Report } from './report-model.js';

export const STATEMENT_FORMAT = 'pos-sandbox/certification-statement';

/** What a signature of each kind proves, in the words every rendering uses. */
export function signerWords(signer: Report['signer']): { who: string; proves: string } {
  if (signer === undefined) return { who: 'not signed', proves: 'nothing: the report carries no signature' };
  if (signer.kind === 'self-signed') {
    return {
      who: `self-signed (kid ${signer.kid}): signed on the partner's machine by the sandbox's own key`,
      proves: "integrity only: the files were not changed after they were signed; it does not prove that a sandbox the service runs judged the run",
    };
  }
  return {
    who: `deployment ${signer.deployment ?? '(unnamed)'} (kid ${signer.kid}), with the operator's key`,
    proves: `that the sandbox of deployment ${signer.deployment ?? '(unnamed)'} judged this run and wrote these files, unchanged since; not that the POS build named produced the traffic (its name, version and build are what the partner gave)`,
  };
}

export interface Statement {
  format: typeof STATEMENT_FORMAT;
  formatVersion: 1;
  partner: string;
  pos: { name: string; version: string | null; build: string | null };
  capabilities: string[];
  verdict: string;
  verdictReason: string;
  kind: Report['kind'];
  kindReason: string;
  checklistVersion: string;
  runId: string;
  startedAt: string;
  finishedAt: string;
  sandbox: { version: string; deployment: string | null };
  report: { sha256: string };
  signer: { kind: string; deployment: string | null; kid: string | null; proves: string };
}

export function statementOf(report: Report): Statement {
  const signer = report.signer;
  return {
    format: STATEMENT_FORMAT,
    formatVersion: 1,
    partner: report.sandbox.partner,
    pos: { name: report.pos.name, version: report.pos.version ?? null, build: report.pos.build ?? null },
    capabilities: report.capabilities,
    verdict: report.outcome.verdict,
    verdictReason: report.outcome.reason,
    kind: report.kind,
    kindReason: report.kindReason,
    checklistVersion: report.checklistVersion,
    runId: report.runId,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    sandbox: { version: report.sandboxVersion, deployment: signer?.deployment ?? null },
    report: { sha256: report.digest?.value ?? '' },
    signer: { kind: signer?.kind ?? 'none', deployment: signer?.deployment ?? null, kid: signer?.kid ?? null, proves: signerWords(signer).proves },
  };
}

export const renderStatement = (report: Report): string => `${JSON.stringify(statementOf(report), null, 2)}\n`;

/** The statement as rows, for the top of report.html and report.md. */
export function statementRows(report: Report): Array<[string, string]> {
  const statement = statementOf(report);
  const { pos } = statement;
  return [
    ['Partner', statement.partner],
    ['POS build', [pos.name, pos.version ?? '(no version)', pos.build === null ? undefined : `build ${pos.build}`].filter(Boolean).join(' ')],
    ['Capabilities', statement.capabilities.length > 0 ? statement.capabilities.join(', ') : 'none beyond the required items'],
    ['Verdict', `${statement.verdict.toUpperCase()}: ${statement.verdictReason}`],
    ['Kind of run', `${statement.kind}: ${statement.kindReason}`],
    ['Report digest (sha256)', statement.report.sha256],
    ['Signed by', signerWords(report.signer).who],
    ['The signature proves', statement.signer.proves],
  ];
}
