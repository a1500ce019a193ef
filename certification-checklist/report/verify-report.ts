/**
 * Pure: whether a report folder is as the sandbox that judged it wrote and signed it: the signature over its
 * manifest (with the keys given, or the key a self-signed folder carries), every file against the manifest, the
 * layout of report.json, every digest, and the renderings.
 */
import { sha256Of } from './canonical-json.js';
import { REPORT_FORMAT, REPORT_FORMAT_VERSION, sealReport, type Report } from './report-model.js';
import { renderReportFiles, REPORT_FILES, type ReportFile } from './render-report-files.js';
import { checkDetached, manifestOf, manifestText, sha256Hex, type Manifest, type SignatureCheck } from './report-signature.js';
import type { VerificationKey } from './signing-keys.js';

export interface ReportCheck {
  intact: boolean;
  problems: string[];
  /** The report, when report.json could be read as one (it may still have been edited). */
  report?: Report;
  /** Set when the folder holds a report this pos-sandbox cannot check (another format): why, and what can. */
  unsupported?: string;
  /** The signature over manifest.json; absent when the folder has none to check. */
  signature?: SignatureCheck & { checkedWith: 'keys' | 'its own key' | 'nothing' };
}

/**
 * `files` holds the texts of the folder's files by name; `keys`, the set to check the signature with (the
 * deployment's JWKS): without it a self-signed folder is checked with the key it carries, and an operator's
 * signature is left unchecked (said, not failed).
 */
export function verifyReport(files: Partial<Record<string, string>>, keys?: readonly VerificationKey[]): ReportCheck {
  const text = files['report.json'];
  if (text === undefined) return { intact: false, problems: ['report.json is missing'] };
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
  const problems: string[] = [];
  const signature = signatureProblems(report, files, keys, problems);
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
    return { intact: false, problems: [...problems, `report.json cannot be rendered (${(error as Error).message}): it was edited`], report, ...(signature ? { signature } : {}) };
  }
  for (const name of REPORT_FILES.filter((file) => file !== 'report.json')) {
    if (files[name] === undefined) problems.push(`${name} is missing`);
    else if (files[name] !== rendered[name]) problems.push(`${name} does not match what report.json renders to: one of the two was edited`);
  }
  return { intact: problems.length === 0, problems, report, ...(signature ? { signature } : {}) };
}

/** Checks the signatures and the manifest, pushing what fails onto `problems`; answers the manifest's signature. */
function signatureProblems(report: Report, files: Partial<Record<string, string>>, keys: readonly VerificationKey[] | undefined, problems: string[]): ReportCheck['signature'] {
  const manifest = files['manifest.json'];
  const jws = files['signature.jws'];
  if (manifest === undefined || jws === undefined) {
    problems.push(`${manifest === undefined ? 'manifest.json' : 'signature.jws'} is missing: the folder is not signed as the sandbox wrote it`);
    return undefined;
  }
  const checked = checkDetached(jws, manifest, keys);
  const checkedWith = keys !== undefined ? 'keys' : checked.kind === 'self-signed' ? 'its own key' : 'nothing';
  // An operator's signature with no keys given is not checked, and not a failure: the output says what to give.
  if (!checked.valid && checkedWith !== 'nothing') problems.push(`signature.jws: ${checked.problem}: manifest.json was changed after signing, or the signature is not this folder's`);
  const signer = report.signer;
  if (checked.kid !== undefined && (signer?.kid !== checked.kid || signer.kind !== checked.kind)) {
    problems.push(`report.json names signer ${signer ? `${signer.kind} kid ${signer.kid}` : '(none)'}, but signature.jws was made by ${checked.kind} kid ${checked.kid}`);
  }
  let stated: Manifest | undefined;
  try {
    stated = JSON.parse(manifest) as Manifest;
  } catch {
    problems.push('manifest.json is not valid JSON: it was edited or cut');
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
  if (statement !== undefined) {
    if (statementJws === undefined) problems.push('statement.jws is missing: statement.json is not signed on its own');
    else if (checkedWith !== 'nothing') {
      const own = checkDetached(statementJws, statement, keys);
      if (!own.valid) problems.push(`statement.jws: ${own.problem}: statement.json was changed after signing, or the signature is not its own`);
      else if (own.kid !== checked.kid) problems.push(`statement.jws was made by kid ${own.kid}, signature.jws by kid ${checked.kid ?? '(none)'}`);
    }
  }
  return { ...checked, checkedWith };
}
