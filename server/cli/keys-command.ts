/** `pos-sandbox keys export`: the public keys reports are signed with, as a JWKS (the operator's, or this machine's own), to keep beside the reports offline. */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { jwksOf, type ReportKeys } from '../../certification-checklist/report/signing-keys.js';
import { DEFAULT_SIGNING_KEY } from '../config.js';
import { laptopReportKeys } from '../checklist/report-keys.js';
import { PACKAGE_ROOT } from '../version.js';

interface ExportFlags {
  partners?: string;
  signingKey: string;
  out?: string;
}

export function keysCommand(): Command {
  const keys = new Command('keys').description('the keys reports are signed with: export the public ones (a JWKS)');
  keys
    .command('export')
    .description("print the public keys (a JWKS) reports are signed with: the operator's from --partners, else this machine's own")
    .option('--partners <file>', "the hosted sandbox's partners file: its reportSigning keys, every kid, the retired ones marked")
    .option('--signing-key <file>', "this machine's key, as serve (in its data folder) and checklist make it", DEFAULT_SIGNING_KEY)
    .option('--out <file>', 'write the JWKS there instead of printing it')
    .addHelpText('after', '\nOnly public members are written: never a private key. Exit codes: 0 written; 2 no key to export, or a partners file that cannot be used.')
    .action(async (flags: ExportFlags) => {
      let found: ReportKeys;
      try {
        found = flags.partners === undefined ? laptopKeys(flags.signingKey) : await operatorKeys(flags.partners);
      } catch (error) {
        process.stderr.write(`pos-sandbox keys export: ${(error as Error).message}\n`);
        process.exit(2);
      }
      const text = `${JSON.stringify(jwksOf(found.keys), null, 2)}\n`;
      if (flags.out === undefined) return void process.stdout.write(text);
      await writeFile(flags.out, text, 'utf8');
      const signer = found.signer.kind === 'operator' ? `deployment ${found.signer.deployment}, signing with kid ${found.signer.kid}` : `self-signed, kid ${found.signer.kid}`;
      process.stderr.write(`wrote ${found.keys.length} public key(s) to ${flags.out} (${signer})\n`);
    });
  return keys;
}

/** Only an existing key: exporting is no start, and a key made now would sign nothing written before. */
function laptopKeys(file: string): ReportKeys {
  if (!existsSync(file)) throw new Error(`no signing key at ${file} yet: it is made at the sandbox's first start (npm start) or the first checklist run in this folder; or name it with --signing-key`);
  return laptopReportKeys(file);
}

async function operatorKeys(file: string): Promise<ReportKeys> {
  const { loadPartnersFile } = await import('../hosted/partners-file.js');
  const setup = loadPartnersFile(file, { env: process.env, defaultFixturesDir: join(PACKAGE_ROOT, 'fixtures') });
  if (setup.reportKeys === undefined) throw new Error(`the partners file ${file} sets no reportSigning: its sandbox signs with a key of each process's own (docs/certification.md, "Signing keys")`);
  return setup.reportKeys;
}
