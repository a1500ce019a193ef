/**
 * Pure: the operator's report keys from the partners file's `reportSigning` (docs/certification.md, "Key
 * rotation"): every key with its kid, the one not retired signs, the retired ones stay published so the reports
 * they signed still verify. A key's text never appears in a message.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { ReportKeys, VerificationKey } from '../../certification-checklist/report/signing-keys.js';

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
