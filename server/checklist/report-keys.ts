/** I/O: the key a laptop signs its reports with, made at first start in the data folder (0600) and the same every start after; a sandbox with no data folder makes one for the process. */
import { generateKeyPairSync, createPrivateKey, type KeyObject, createPublicKey } from 'node:crypto';
import { linkSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readPlainFile } from '../store/read-plain-file.js';
import { dirname, join } from 'node:path';
import { selfSigner, type ReportKeys, type VerificationKey } from '../../certification-checklist/report/signing-keys.js';
import { ConfigError } from '../config.js';

export const LAPTOP_KEY_FILE = 'signing-key.pem';

/** A key for this process only. */
export function processReportKeys(): ReportKeys {
  return selfSigner(generateKeyPairSync('ed25519').privateKey);
}

/** Two processes starting at once make one key between them: each links its own into place, and the one that finds it taken reads the other's. */
export function laptopReportKeys(file: string): ReportKeys {
  const existing = readKey(file);
  return selfSigner(existing ?? saveKey(file, generateKeyPairSync('ed25519').privateKey));
}

/** For `serve`: the key, or a new one `save` writes once the sandbox started, so a start that fails leaves the data folder as it was. */
export function laptopReportKeysOnStart(file: string): { keys: ReportKeys; save(): void } {
  const existing = readKey(file);
  if (existing !== undefined) return { keys: selfSigner(existing), save: () => undefined };
  const made = generateKeyPairSync('ed25519').privateKey;
  return {
    keys: selfSigner(made),
    save: () => {
      const kept = saveKey(file, made);
      // Another process made the folder's key between our read and our write: ours signs nothing, so say so now.
      if (kept !== made) throw new ConfigError(`another pos-sandbox made the signing key ${file} while this one started; start again to sign with it`);
    },
  };
}

/** Links `key` into `file` unless a key is there already; answers the key the file holds. */
function saveKey(file: string, key: KeyObject): KeyObject {
  mkdirSync(dirname(file), { recursive: true });
  const aside = join(dirname(file), `.${LAPTOP_KEY_FILE}.${process.pid}.${Date.now()}`);
  writeFileSync(aside, key.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  try {
    linkSync(aside, file);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new ConfigError(`the signing key ${file} cannot be made (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    return readKey(file)!;
  } finally {
    rmSync(aside, { force: true });
  }
}

/** A key file is a line or two of PEM. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

function readKey(file: string): KeyObject | undefined {
  const read = readPlainFile(file, MAX_KEY_FILE_BYTES, 'a signing key');
  if ('problem' in read) {
    if (read.missing === true) return undefined;
    throw new ConfigError(`the signing key cannot be used: ${read.problem}`);
  }
  try {
    const key = createPrivateKey(read.text);
    if (key.asymmetricKeyType === 'ed25519') return key;
  } catch {
    // Said below, without the file's text.
  }
  throw new ConfigError(
    `${file} is not an Ed25519 private key in PEM. If it is this sandbox's signing key and was damaged, move it away and a new one is made at the next start (reports signed with the old one then verify only with its exported key); otherwise name the key with --signing-key`,
  );
}

/** Pure: the operator's report keys from the partners file (docs/certification.md, "Key rotation"): the one not retired signs, the retired stay published; a key's text is never in a message. */

export interface KeyEntry {
  kid: string;
  /** PEM: PKCS #8 private key; a retired key may be given as its public key (SPKI) alone. */
  text: string;
  retired: boolean;
  /** When it stopped signing (ISO 8601): published, and a report it signed after that is refused. */
  retiredAt?: string;
}

/** `warnings`: what the operator should change, though the sandbox can start (a retired key whose private half is given). */
export function operatorReportKeys(deployment: string, entries: readonly KeyEntry[], problems: string[], warnings: string[] = []): ReportKeys | undefined {
  const keys: VerificationKey[] = [];
  let signing: { kid: string; privateKey: KeyObject; publicKey: KeyObject } | undefined;
  entries.forEach((entry, at) => {
    const where = `reportSigning.keys[${at}] (kid ${entry.kid})`;
    let privateKey: KeyObject | undefined;
    let publicKey: KeyObject | undefined;
    try {
      privateKey = createPrivateKey(entry.text);
      publicKey = createPublicKey(privateKey);
    } catch {
      try {
        publicKey = createPublicKey(entry.text);
      } catch {
        // Said below.
      }
    }
    if (publicKey?.asymmetricKeyType !== 'ed25519') return problems.push(`${where}.key is not an Ed25519 key in PEM (make one with: openssl genpkey -algorithm ed25519)`);
    if (entry.retired && privateKey !== undefined) {
      warnings.push(`${where} is retired but given as its private key: nothing needs it to sign any more, and whoever holds it can still sign reports that verify; give its public key alone (openssl pkey -pubout) and destroy the private one`);
    }
    if (!entry.retired && entry.retiredAt !== undefined) problems.push(`${where} has retiredAt but is not retired: set "retired": true, or remove retiredAt`);
    if (!entry.retired) {
      if (privateKey === undefined) return problems.push(`${where}.key is a public key: the key that signs must be the private key (PKCS #8 PEM); only a retired key may be given as its public key`);
      signing = { kid: entry.kid, privateKey, publicKey };
    }
    keys.push({ kid: entry.kid, publicKey, retired: entry.retired, ...(entry.retired && entry.retiredAt !== undefined ? { retiredAt: entry.retiredAt } : {}) });
  });
  const active = entries.filter((entry) => !entry.retired);
  if (active.length !== 1) problems.push(`reportSigning.keys must have exactly one key that is not retired, the one that signs (it has ${active.length}${active.length > 1 ? `: ${active.map((entry) => entry.kid).join(', ')}` : ''})`);
  const kids = entries.map((entry) => entry.kid);
  const twice = kids.find((kid, at) => kids.indexOf(kid) !== at);
  if (twice !== undefined) problems.push(`reportSigning.keys: kid ${twice} names two keys`);
  const fingerprints = keys.map((key) => key.publicKey.export({ format: 'jwk' }).x);
  const again = fingerprints.findIndex((x, at) => fingerprints.indexOf(x) !== at);
  if (again !== -1) problems.push(`reportSigning.keys: kid ${keys[again]!.kid} is the same key as kid ${keys[fingerprints.indexOf(fingerprints[again])]!.kid}`);
  if (problems.length > 0 || signing === undefined) return undefined;
  return { signer: { kind: 'operator', deployment, ...signing }, keys };
}
