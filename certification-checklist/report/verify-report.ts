/** Pure: whether a report folder is as its sandbox wrote and signed it: signature, files against the manifest, layout, digests, renderings. */
import { sha256Of } from './canonical-json.js';
import { REPORT_FORMAT, REPORT_FORMAT_VERSION, sealReport, type Report } from './report-model.js';
import { renderReportFiles, REPORT_FILES, type ReportFile } from './render-report-files.js';
import { checkDetached, manifestOf, manifestText, sha256Hex, type Manifest } from './report-signature.js';
import type { SignerKind, VerificationKey } from './signing-keys.js';

export interface ReportCheck {
  /** Every file is as written: against the manifest, the digests and report.json's renderings. */
  intact: boolean;
  /** What was edited, file by file; the signature's own problems are in `signature`. */
  problems: string[];
  /** The report, when report.json could be read as one (it may still have been edited). */
  report?: Report;
  /** Set when the folder holds a report this pos-sandbox cannot check (another format): why, and what can. */
  unsupported?: string;
  /** The signatures (manifest.json's and statement.json's); absent when report.json cannot be read. */
  signature?: SignatureVerdict;
}

/** Whether the folder is signed as it says, by whom, checked with what; `problems` says why not. */
export type SignatureVerdict = { checkedWith: 'keys' | 'its own key' | 'nothing'; valid: boolean; kid?: string; kind?: SignerKind; retired?: boolean; problems: string[] };

/** Without `keys` a self-signed folder is checked with the key it carries, and an operator's signature is said unchecked, not failed. */
export function verifyReport(files: Partial<Record<string, string>>, keys?: readonly VerificationKey[], folder: { unreadable: string[]; others: string[] } = { unreadable: [], others: [] }): ReportCheck {
  const text = files['report.json'];
  if (text === undefined) return { intact: false, problems: [...folder.unreadable, 'report.json is missing'] };
  let report: Report;
  try {
    report = JSON.parse(text) as Report;
  } catch (error) {
    return { intact: false, problems: [`report.json is not valid JSON (${(error as Error).message}): it was edited or cut`] };
  }
  if (report?.format !== REPORT_FORMAT || !report.digest) return { intact: false, problems: [`report.json is not a ${REPORT_FORMAT} with a digest`] };
  if (report.formatVersion !== REPORT_FORMAT_VERSION) {
    const unsupported = `report.json is report format ${String(report.formatVersion)}; this pos-sandbox reads format ${REPORT_FORMAT_VERSION}: verify it with the pos-sandbox ${String((report as { sandboxVersion?: unknown }).sandboxVersion ?? '')} that wrote it`;
    return { intact: false, problems: [unsupported], unsupported };
  }
  const problems: string[] = [...folder.unreadable];
  if (folder.others.length > 0) problems.push(`the folder holds files the sandbox did not write and no signature covers: ${folder.others.map((name) => JSON.stringify(name)).join(', ')}`);
  const signature = checkSignatures(report, files, keys, problems);
  if (`${JSON.stringify(report, null, 2)}\n` !== text) problems.push('report.json is not laid out as the runner wrote it: spaces or line breaks were changed');
  for (const piece of report.evidence ?? []) {
    if (sha256Of(piece.entry) !== piece.sha256) problems.push(`evidence ${piece.journalId} does not match its sha256: the entry was edited`);
  }
  const expected = sealReport(report).digest!.value;
  if (expected !== report.digest.value) problems.push(`the report's sha256 is ${expected}, not the ${report.digest.value} it states: its content was edited`);
  let rendered: Record<string, string>;
  try {
    rendered = renderReportFiles(report);
  } catch (error) {
    return { intact: false, problems: [...problems, `report.json cannot be rendered (${(error as Error).message}): it was edited`], report, signature };
  }
  for (const name of REPORT_FILES.filter((file) => file !== 'report.json')) {
    if (files[name] === undefined) problems.push(`${name} is missing`);
    else if (files[name] !== rendered[name]) problems.push(`${name} does not match what report.json renders to: one of the two was edited`);
  }
  return { intact: problems.length === 0, problems, report, signature };
}

/** A failed signature is not an edit of a file, and a key not in the set given is neither. */
function checkSignatures(report: Report, files: Partial<Record<string, string>>, keys: readonly VerificationKey[] | undefined, problems: string[]): SignatureVerdict {
  const manifest = files['manifest.json'];
  const jws = files['signature.jws'];
  if (manifest === undefined || jws === undefined) {
    return { checkedWith: 'nothing', valid: false, problems: [`${manifest === undefined ? 'manifest.json' : 'signature.jws'} is missing: the folder is not signed as the sandbox wrote it`] };
  }
  const own: string[] = [];
  const checked = checkDetached(jws, manifest, keys);
  const checkedWith = keys !== undefined ? 'keys' : checked.kind === 'self-signed' ? 'its own key' : 'nothing';
  if (!checked.valid && checkedWith !== 'nothing') own.push(`signature.jws: ${checked.problem}${signatureCause(checked)}`);
  const signer = report.signer;
  if (checked.kid !== undefined && checked.kind !== undefined && (signer?.kid !== checked.kid || signer.kind !== checked.kind)) {
    own.push(`report.json names signer ${signer ? `${signer.kind} kid ${signer.kid}` : '(none)'}, but signature.jws was made by ${checked.kind} kid ${checked.kid}`);
  }
  // A key of the partner's machine speaks for no deployment, whatever its folder says.
  if (signer?.kind === 'self-signed' && signer.deployment !== undefined) own.push(`report.json names deployment ${JSON.stringify(signer.deployment)} for a self-signed report: a self-signed key speaks for no deployment`);
  let stated: Manifest | undefined;
  try {
    stated = JSON.parse(manifest) as Manifest;
  } catch {
    problems.push('manifest.json is not valid JSON: it was edited or cut');
  }
  // A retired key signs nothing after the date its operator gave; what it signed before still verifies.
  const signedAt = typeof stated?.finishedAt === 'string' ? Date.parse(stated.finishedAt) : Number.NaN;
  if (checked.valid && checked.retiredAt !== undefined && !(signedAt <= Date.parse(checked.retiredAt))) {
    own.push(`signature.jws: kid ${checked.kid} was retired at ${checked.retiredAt}, but this run finished ${typeof stated?.finishedAt === 'string' ? `at ${stated.finishedAt}` : 'at no time the manifest states'}: a retired key signs nothing new`);
  }
  const digests = (stated?.files ?? {}) as Partial<Record<ReportFile, unknown>>;
  for (const name of REPORT_FILES) {
    const text = files[name];
    if (text !== undefined && digests[name] !== sha256Hex(text)) problems.push(`${name} does not match its sha256 in manifest.json: it was changed after signing`);
  }
  // Every field but the digests (each named above when it differs), against what report.json says.
  if (stated !== undefined && report.signer !== undefined) {
    const said = { ...manifestOf(report, Object.fromEntries(REPORT_FILES.map((name) => [name, ''])) as Record<ReportFile, string>), files: stated.files };
    if (manifestText(said) !== manifest) problems.push('manifest.json does not say what report.json says (its run, POS, partner, signer or times), or is not laid out as written: one of the two was edited');
  }
  const statement = files['statement.json'];
  const statementJws = files['statement.jws'];
  if (statement !== undefined && statementJws === undefined) own.push('statement.jws is missing: statement.json is not signed on its own');
  if (statement !== undefined && statementJws !== undefined && checkedWith !== 'nothing' && checked.valid) {
    const alone = checkDetached(statementJws, statement, keys);
    if (!alone.valid) own.push(`statement.jws: ${alone.problem}: statement.json was changed after signing, or the signature is not its own`);
    else if (alone.kid !== checked.kid) own.push(`statement.jws was made by kid ${alone.kid}, signature.jws by kid ${checked.kid ?? '(none)'}`);
  }
  return {
    checkedWith,
    valid: checked.valid && own.length === 0,
    ...(checked.kid === undefined ? {} : { kid: checked.kid }),
    ...(checked.kind === undefined ? {} : { kind: checked.kind }),
    ...(checked.valid ? { retired: checked.retired } : {}),
    problems: checkedWith === 'nothing' && !checked.valid ? [...own, `not checked: ${checked.problem}`] : own,
  };
}

/** What a failed signature says of the folder: a kid outside the set, a header refused as it is, or else a change. */
function signatureCause(checked: { kid?: string; problem: string }): string {
  if (checked.kid !== undefined && /is not in the key set given/.test(checked.problem)) return ': no key of that set signed it (if the deployment rotated its keys since, fetch its current jwks.json)';
  if (/\(crit\)/.test(checked.problem)) return '';
  return ": manifest.json was changed after signing, or the signature is not this folder's";
}
