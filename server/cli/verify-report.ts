/** `pos-sandbox verify-report DIR [--keys FILE|URL] [--rejudge]`: the folder's signature, digests and renderings, and its verdicts when asked. */
import { Command } from 'commander';
import { FOLDER_FILES, readReportFolder } from '../../certification-checklist/report/write-report.js';
import { verifyReport, type ReportCheck } from '../../certification-checklist/report/verify-report.js';
import { rejudgeReport } from '../../certification-checklist/report/rejudge.js';
import { signerWords } from '../../certification-checklist/report/render-statement.js';
import { printable } from '../http/messages.js';
import { keysFromJwks, type VerificationKey } from '../../certification-checklist/report/signing-keys.js';
import { readPlainFile } from '../store/read-plain-file.js';

export function verifyReportCommand(): Command {
  return new Command('verify-report')
    .description("check a report folder: its signature, that every file is as the sandbox wrote it (every sha256, each rendering against report.json), and, asked to, every verdict")
    .argument('<dir>', 'the report folder (certification-reports/<run-id>)')
    .option('--keys <file-or-url>', "the signer's public keys (a JWKS): a file, or a deployment's https://…/.well-known/jwks.json; without it a self-signed report is checked with the key it carries")
    .option('--insecure-keys', 'take a key set fetched over plain http, which anyone on the way could have changed; the output says so')
    .option('--rejudge', "also judge every item again from the report's own evidence, with this checklist, and compare the verdicts")
    .addHelpText(
      'after',
      [
        '',
        "Without --keys, a self-signed folder is checked with the key it carries (integrity only), and an operator's signature is NOT CHECKED: give the deployment's keys.",
        'Exit codes: 0 signed and checked, intact (and, with --rejudge, every verdict follows from the evidence); 1 a signature fails or was not checked, a file was edited, or a verdict differs; 2 not a report folder, a report of another checklist version, or keys that cannot be read.',
      ].join('\n'),
    )
    .action(async (dir: string, flags: { rejudge?: boolean; keys?: string; insecureKeys?: boolean }) => {
      let keys: VerificationKey[] | undefined;
      const overHttp = flags.keys !== undefined && /^http:\/\//i.test(flags.keys);
      if (flags.keys !== undefined) {
        const read = await readKeySet(flags.keys, { insecure: flags.insecureKeys === true });
        if ('problem' in read) {
          process.stderr.write(`pos-sandbox verify-report: --keys ${flags.keys}: ${read.problem}\n`);
          process.exit(2);
        }
        keys = read.keys;
        if (overHttp) process.stderr.write(`pos-sandbox verify-report: WARNING: the keys of ${flags.keys} came over plain http (--insecure-keys): anyone on the way could have changed them\n`);
      }
      const folder = readReportFolder(dir);
      if (folder === undefined) {
        process.stderr.write(`pos-sandbox verify-report: ${printable(dir)} is no folder: give a report folder (certification-reports/<run-id>)\n`);
        process.exit(2);
      }
      if (folder.files['report.json'] === undefined && folder.unreadable.length === 0) {
        const held = Object.keys(folder.files);
        process.stderr.write(`pos-sandbox verify-report: ${printable(dir)} holds no report.json, so it is no report folder${held.length > 0 ? ` (it holds ${held.join(', ')})` : ` (a report folder holds ${FOLDER_FILES.join(', ')})`}\n`);
        process.exit(2);
      }
      const check = verifyReport(folder.files, keys, folder);
      if (check.unsupported) {
        process.stderr.write(`pos-sandbox verify-report: ${check.unsupported}\n`);
        process.exit(2);
      }
      const report = check.report;
      // What a report holds is data, and an edited one may hold anything: shown, never sent to the terminal as it is.
      process.stdout.write(signatureLines(check, flags.keys, overHttp));
      // The POS build as the signed manifest says it; report.json's only when the folder has no manifest to read.
      const said = signedPos(folder.files['manifest.json']) ?? (report ? { ...report.pos, partner: report.sandbox.partner } : undefined);
      if (said) process.stdout.write(`POS build: ${printable([said.name, said.version ?? '(no version)', said.build === undefined ? undefined : `build ${said.build}`].filter(Boolean).join(' '))}, partner ${printable(said.partner)}\n`);
      if (check.intact) process.stdout.write(`intact: ${dir}\n  ${printable(report!.title)}\n  run ${printable(report!.runId)}, ${printable(report!.outcome.verdict)}, sha256 ${printable(report!.digest!.value)}\n`);
      else process.stdout.write(`EDITED: ${dir} is not as the sandbox wrote it\n${check.problems.map((problem) => `  - ${printable(problem)}\n`).join('')}`);
      // Not signed as it says, or signed by a key not checked, is no verified report: exit 1 as for an edit.
      if (!check.intact || check.signature?.valid !== true) process.exitCode = 1;
      if (!flags.rejudge) return;
      if (!report) {
        process.stderr.write('pos-sandbox verify-report: report.json cannot be read, so there is nothing to judge again\n');
        process.exit(2);
      }
      const rejudged = rejudgeReport(report);
      if ('unsupported' in rejudged) {
        process.stderr.write(`pos-sandbox verify-report: cannot judge again: ${rejudged.unsupported}\n`);
        process.exit(2);
      }
      if (rejudged.problems.length === 0) {
        process.stdout.write(`rejudged: ${rejudged.judged} verdicts, the outcome and the kind of run all follow from the report's evidence (checklist ${report.checklistVersion})\n`);
        return;
      }
      process.stdout.write(`VERDICTS DO NOT FOLLOW FROM THE EVIDENCE:\n${rejudged.problems.map((problem) => `  - ${printable(problem)}\n`).join('')}`);
      process.exitCode = 1;
    });
}

/** The POS and partner manifest.json names, when it is one. */
function signedPos(text: string | undefined): { name: string; version?: string; build?: string; partner: string } | undefined {
  try {
    const manifest = JSON.parse(text ?? '') as { pos?: { name?: unknown; version?: unknown; build?: unknown }; partner?: unknown };
    const { name, version, build } = manifest.pos ?? {};
    if (typeof name !== 'string' || typeof manifest.partner !== 'string') return undefined;
    return { name, ...(typeof version === 'string' ? { version } : {}), ...(typeof build === 'string' ? { build } : {}), partner: manifest.partner };
  } catch {
    return undefined;
  }
}

/** The first lines: whose key signed, whether it verifies and with what, and what it proves. */
function signatureLines(check: ReportCheck, keysGiven: string | undefined, overHttp: boolean): string {
  const signature = check.signature;
  if (signature === undefined) return '';
  const signer = check.report?.signer;
  const who = signer !== undefined && signer.kid === signature.kid && signer.kind === signature.kind ? signerWords(signer).who : signature.kid === undefined ? 'no key named' : `kid ${signature.kid}`;
  if (signature.valid) {
    const with_ = signature.checkedWith === 'keys' ? `a key of ${keysGiven ?? ''}` : 'the key it carries';
    return [
      `signature: valid, kid ${printable(signature.kid ?? '')}, checked with ${printable(with_)}`,
      ...(overHttp && signature.checkedWith === 'keys' ? ['  WARNING: those keys came over plain http (--insecure-keys): the check is only as good as the way they came'] : []),
      `  signer: ${printable(who)}`,
      ...(signature.retired === true ? ['  the key is retired: it still verifies what it signed, and signs nothing new'] : []),
      `  it proves ${printable(signerWords(signer).proves)}`,
      '',
    ].join('\n');
  }
  if (signature.checkedWith === 'nothing' && signature.kind === 'operator') {
    return `signature: NOT CHECKED: it claims to be signed by ${printable(who)}; give the deployment's keys with --keys (its https://…/.well-known/jwks.json, or the file \`pos-sandbox keys export\` wrote)\n`;
  }
  return `signature: FAILS\n${signature.problems.map((problem) => `  - ${printable(problem)}\n`).join('')}`;
}

/** I/O: the key set `verify-report --keys` names: a JWKS file, or a deployment's /.well-known/jwks.json over HTTP(S). */

/** A key set is small; a larger answer is not one (and is not read whole). */
const MAX_BYTES = 256 * 1024;
const TIMEOUT_MS = 10_000;

export async function readKeySet(source: string, options: { insecure?: boolean } = {}): Promise<{ keys: VerificationKey[] } | { problem: string }> {
  let text: string;
  if (/^http:\/\//i.test(source) && options.insecure !== true) {
    return { problem: 'is plain http, and keys fetched so could have been changed on the way: give the https URL, or the file `pos-sandbox keys export` writes (--insecure-keys takes http anyway, and says so)' };
  }
  if (/^https?:\/\//i.test(source)) {
    const fetched = await fetchText(source);
    if ('problem' in fetched) return fetched;
    text = fetched.text;
  } else {
    const read = readPlainFile(source, MAX_BYTES, 'a key set');
    if ('problem' in read) return { problem: read.problem };
    text = read.text;
  }
  if (text.trimStart().startsWith('-----BEGIN')) return { problem: 'is a PEM file, not a key set: give a JWKS (JSON), as `pos-sandbox keys export` writes it or a deployment serves at /.well-known/jwks.json' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `is not JSON (${(error as Error).message}): a key set is a JWKS, as a deployment serves at /.well-known/jwks.json` };
  }
  return keysFromJwks(value);
}

/** No redirect followed: the keys checked are those of the URL given, and a set that moved is named so. */
async function fetchText(url: string): Promise<{ text: string } | { problem: string }> {
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  try {
    const response = await fetch(url, { signal, headers: { accept: 'application/json' }, redirect: 'manual' });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      return { problem: `answered ${response.status}, a redirect to ${response.headers.get('location') ?? '(no location)'}: give the URL of the key set itself` };
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { problem: `answered ${response.status}, not the key set` };
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > MAX_BYTES) return { problem: `answered more than ${MAX_BYTES} bytes; a key set is smaller` };
      chunks.push(chunk);
    }
    return { text: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    // The time runs out while the headers or the body come: said as such, never a stack.
    if (signal.aborted) return { problem: `did not answer whole within ${TIMEOUT_MS / 1000} s` };
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { problem: `cannot be fetched (${cause?.code ?? cause?.message ?? (error as Error).message})` };
  }
}
