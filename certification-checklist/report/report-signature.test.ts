import { createHash, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
// An independent verifier: jose, not the code that signs.
import { compactVerify, createLocalJWKSet, EmbeddedJWK } from 'jose';
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import { operatorReportKeys } from '../../server/checklist/report-keys.js';
import { CHECKLIST } from '../items/all-items.js';
import { judgedItems, runOutcome } from '../run-outcome.js';
import { runKind } from '../run-kind.js';
import type { RunResult } from '../runner.js';
import { TEST_KEYS } from '../test/test-signer.js';
import { sha256Of } from './canonical-json.js';
import { buildReport, sealReport, type Report } from './report-model.js';
import { renderReportFiles } from './render-report-files.js';
import { checkDetached, manifestOf, manifestText } from './report-signature.js';
import { jwksOf, keysFromJwks, selfSigner, type ReportSigner } from './signing-keys.js';
import { verifyReport } from './verify-report.js';
import { signedFolderFiles } from './write-report.js';

const pem = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
const OLD = pem();
const NOW = pem();

/** The operator's set after a rotation: 2026-q3 retired (its reports still verify), 2026-q4 signing. */
function operatorKeys(entries = [{ kid: '2026-q3', text: OLD, retired: true }, { kid: '2026-q4', text: NOW, retired: false }]) {
  const problems: string[] = [];
  const keys = operatorReportKeys('hosted-eu', entries, problems);
  expect(problems).toEqual([]);
  return keys!;
}
const ROTATED = operatorKeys();
/** What signed before the rotation: the same deployment with 2026-q3 as its active key. */
const BEFORE = operatorKeys([{ kid: '2026-q3', text: OLD, retired: false }]);
const PUBLISHED = jwksOf(ROTATED.keys);

const entry: JournalEntry = {
  id: 'j-000001',
  requestId: 'r1',
  time: '2026-11-27T10:00:00.000Z',
  direction: 'inbound',
  method: 'POST',
  path: '/v2/order/status',
  query: {},
  locationId: 'loc-1',
  token: { header: { alg: 'HS256' }, claims: { aud: 'io.service.pos.brokers.openapi', sub: 'loc-1' }, sha256: 'x' },
  request: { headers: {}, body: {}, bodyBytes: 2 },
  response: { status: 200, headers: {} },
  latencyMs: 1,
  findings: [],
};

function reportSignedBy(signer: Pick<ReportSigner, 'kind' | 'deployment' | 'kid'>): Report {
  const step = { id: 'all-traffic', startedAt: '2026-11-27T10:00:00.000Z', durationMs: 5, waits: [], asked: {}, entries: [entry], orders: [], refunds: [] };
  const results = CHECKLIST.map((item) => (item.id === 'AUTH-02' ? { item, ...item.judge({ entries: [entry] } as never), evidence: [entry], judgedOver: 'all-traffic' } : { item, status: 'skipped' as const, message: 'not selected', evidence: [] }));
  const pos = { name: 'acme-pos', version: '4.2.0', build: 'b-1187' };
  const run: RunResult = {
    runId: 'run-7',
    startedAt: '2026-11-27T10:00:00.000Z',
    finishedAt: '2026-11-27T10:00:05.000Z',
    mode: 'driver',
    capabilities: ['refund'],
    only: ['AUTH-02'],
    sandbox: { url: 'https://sandbox.example', version: '0.1.0', partner: 'acme-pos' },
    pos,
    kind: runKind({ mode: 'driver', only: ['AUTH-02'], pos }),
    results: results as RunResult['results'],
    steps: [step],
  };
  return buildReport(run, runOutcome(judgedItems(run.results)), signer);
}

const hosted = reportSignedBy(ROTATED.signer);
const folder = signedFolderFiles(hosted, ROTATED.signer);
const keys = (keysFromJwks(JSON.parse(JSON.stringify(PUBLISHED))) as { keys: never }).keys;

/** jose's verdict on a detached JWS over `text`: the payload put back, as RFC 7515 appendix F says. */
async function joseVerifies(jws: string, text: string, key: Parameters<typeof compactVerify>[1]): Promise<string> {
  const [header, , signature] = jws.trim().split('.');
  const { payload, protectedHeader } = await compactVerify(`${header}.${Buffer.from(text).toString('base64url')}.${signature}`, key, { algorithms: ['EdDSA'] });
  expect(new TextDecoder().decode(payload)).toBe(text);
  return protectedHeader.kid!;
}

describe('a report signed with the operator key', () => {
  it('verifies with the published JWKS in jose, manifest and statement alike, and the manifest names every file and the run', async () => {
    expect(await joseVerifies(folder['signature.jws'], folder['manifest.json'], createLocalJWKSet(PUBLISHED as never))).toBe('2026-q4');
    expect(await joseVerifies(folder['statement.jws'], folder['statement.json'], createLocalJWKSet(PUBLISHED as never))).toBe('2026-q4');
    expect(JSON.parse(folder['manifest.json'])).toEqual({
      format: 'pos-sandbox/report-manifest',
      formatVersion: 1,
      runId: 'run-7',
      kind: 'partial',
      checklistVersion: hosted.checklistVersion,
      pos: { name: 'acme-pos', version: '4.2.0', build: 'b-1187' },
      partner: 'acme-pos',
      sandbox: { version: '0.1.0', deployment: 'hosted-eu' },
      signer: { kind: 'operator', deployment: 'hosted-eu', kid: '2026-q4' },
      startedAt: '2026-11-27T10:00:00.000Z',
      finishedAt: '2026-11-27T10:00:05.000Z',
      files: Object.fromEntries(Object.keys(renderReportFiles(hosted)).map((name) => [name, expect.stringMatching(/^[0-9a-f]{64}$/)])),
    });
    expect(verifyReport(folder, keys)).toMatchObject({ intact: true, problems: [], signature: { valid: true, kid: '2026-q4', kind: 'operator', retired: false, checkedWith: 'keys', problems: [] } });
  });

  it('publishes public members only, the retired key marked', () => {
    expect(PUBLISHED.keys.map((key) => ({ ...key, x: typeof key.x }))).toEqual([
      { kty: 'OKP', crv: 'Ed25519', x: 'string', kid: '2026-q3', alg: 'EdDSA', use: 'sig', retired: true },
      { kty: 'OKP', crv: 'Ed25519', x: 'string', kid: '2026-q4', alg: 'EdDSA', use: 'sig' },
    ]);
  });

  it('is not checked without keys, and says so rather than failing', () => {
    expect(verifyReport(folder)).toMatchObject({
      intact: true,
      signature: { valid: false, kid: '2026-q4', kind: 'operator', checkedWith: 'nothing', problems: ["not checked: it was signed by kid 2026-q4, an operator's key: give the deployment's keys (--keys) to check it"] },
    });
  });

  it('a report signed before the rotation still verifies, in jose and here, and says its key is retired', async () => {
    const old = signedFolderFiles(reportSignedBy(BEFORE.signer), BEFORE.signer);
    expect(await joseVerifies(old['signature.jws'], old['manifest.json'], createLocalJWKSet(PUBLISHED as never))).toBe('2026-q3');
    expect(verifyReport(old, keys)).toMatchObject({ intact: true, signature: { valid: true, kid: '2026-q3', retired: true } });
  });

  it('a key not in the set fails, naming the kid and the set', async () => {
    const other = operatorKeys([{ kid: '2027-q1', text: pem(), retired: false }]);
    const foreign = signedFolderFiles(reportSignedBy(other.signer), other.signer);
    await expect(joseVerifies(foreign['signature.jws'], foreign['manifest.json'], createLocalJWKSet(PUBLISHED as never))).rejects.toThrow();
    // The files are as that key signed them: not an edit, and not verified.
    expect(verifyReport(foreign, keys)).toMatchObject({
      intact: true,
      signature: {
        valid: false,
        kid: '2027-q1',
        problems: ['signature.jws: kid 2027-q1 is not in the key set given (2026-q3, 2026-q4): no key of that set signed it (if the deployment rotated its keys since, fetch its current jwks.json)'],
      },
    });
  });

  it('a file edited and every digest resealed, the manifest too, fails both verifiers, naming the signature', async () => {
    const copy = JSON.parse(JSON.stringify(hosted)) as Report;
    copy.pos.build = 'b-9999';
    for (const piece of copy.evidence) piece.sha256 = sha256Of(piece.entry);
    const resealed = sealReport(copy);
    const files = { ...renderReportFiles(resealed), 'signature.jws': folder['signature.jws'], 'statement.jws': folder['statement.jws'], 'manifest.json': manifestText(manifestOf(resealed, renderReportFiles(resealed))) };
    await expect(joseVerifies(files['signature.jws'], files['manifest.json'], createLocalJWKSet(PUBLISHED as never))).rejects.toThrow('signature verification failed');
    expect(verifyReport(files, keys)).toMatchObject({
      intact: true,
      problems: [],
      signature: { valid: false, kid: '2026-q4', problems: ["signature.jws: the signature of kid 2026-q4 does not match: manifest.json was changed after signing, or the signature is not this folder's"] },
    });
    // The statement edited and resealed alone: its own signature fails.
    const statement = { ...folder, 'statement.json': folder['statement.json'].replace('"b-1187"', '"b-9999"') };
    statement['manifest.json'] = folder['manifest.json'].replace(JSON.parse(folder['manifest.json']).files['statement.json'], createHash('sha256').update(statement['statement.json']).digest('hex'));
    expect(verifyReport(statement, keys).signature!.problems).toEqual(["signature.jws: the signature of kid 2026-q4 does not match: manifest.json was changed after signing, or the signature is not this folder's"]);
    const manifestKept = { ...folder, 'statement.json': statement['statement.json'] };
    expect(verifyReport(manifestKept, keys)).toMatchObject({ signature: { valid: false, problems: ["statement.jws: the signature of kid 2026-q4 does not match: statement.json was changed after signing, or the signature is not its own"] } });
  });

  it('a file edited without touching the manifest fails, naming the file', () => {
    const edited = { ...folder, 'evidence.har': folder['evidence.har'].replace('"status": 200', '"status": 401') };
    expect(verifyReport(edited, keys).problems).toEqual(['evidence.har does not match its sha256 in manifest.json: it was changed after signing', 'evidence.har does not match what report.json renders to: one of the two was edited']);
  });

  it('a signature replaced by another report\'s fails, and so does one that names alg none or HS256', () => {
    const elsewhere = signedFolderFiles({ ...hosted, runId: 'run-8' }, ROTATED.signer);
    expect(verifyReport({ ...folder, 'signature.jws': elsewhere['signature.jws'] }, keys).signature!.problems).toEqual([
      "signature.jws: the signature of kid 2026-q4 does not match: manifest.json was changed after signing, or the signature is not this folder's",
    ]);
    const header = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const alg of ['none', 'HS256']) {
      expect(checkDetached(`${header({ alg, kid: '2026-q4' })}..AAAA`, folder['manifest.json'], keys)).toEqual({ valid: false, kid: '2026-q4', problem: `its alg is "${alg}"; a report is signed with EdDSA (Ed25519) only` });
    }
    expect(checkDetached('not a jws', folder['manifest.json'], keys)).toEqual({ valid: false, problem: 'it is not a detached JWS (header..signature, base64url)' });
  });
});

describe('a header with a critical extension', () => {
  it('is refused though its signature verifies, as jose refuses it, naming the extension (RFC 7515 §4.1.11)', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: '2026-q4', crit: ['exp'], exp: 1 })).toString('base64url');
    const manifest = folder['manifest.json'];
    const signature = sign(null, Buffer.from(`${header}.${Buffer.from(manifest).toString('base64url')}`), createPrivateKey(NOW)).toString('base64url');
    const jws = `${header}..${signature}`;
    await expect(joseVerifies(jws, manifest, createLocalJWKSet(PUBLISHED as never))).rejects.toThrow('Extension Header Parameter "exp" is not recognized');
    expect(checkDetached(jws, manifest, keys)).toEqual({
      valid: false,
      kid: '2026-q4',
      problem: 'its header marks ["exp"] as critical (crit), extensions this verifier does not understand, so it takes no signature of it (RFC 7515 §4.1.11)',
    });
    expect(verifyReport({ ...folder, 'signature.jws': jws }, keys).signature!.problems).toEqual([
      'signature.jws: its header marks ["exp"] as critical (crit), extensions this verifier does not understand, so it takes no signature of it (RFC 7515 §4.1.11)',
    ]);
    // Without the crit member, the same key's signature over the same header is taken: the refusal is the crit's alone.
    const plainHeader = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: '2026-q4', exp: 1 })).toString('base64url');
    const plain = sign(null, Buffer.from(`${plainHeader}.${Buffer.from(manifest).toString('base64url')}`), createPrivateKey(NOW)).toString('base64url');
    expect(checkDetached(`${plainHeader}..${plain}`, manifest, keys)).toMatchObject({ valid: true, kid: '2026-q4' });
  });
});

describe('a retired key', () => {
  const retiredOn = (at: string) => operatorKeys([{ kid: '2026-q3', text: OLD, retired: true, retiredAt: at } as never, { kid: '2026-q4', text: NOW, retired: false }]);

  it('verifies what it signed before its retiredAt, publishes the date, and refuses a run that finished after it', () => {
    const old = signedFolderFiles(reportSignedBy(BEFORE.signer), BEFORE.signer);
    const before = retiredOn('2026-11-27T10:00:05.000Z');
    expect(jwksOf(before.keys).keys[0]).toMatchObject({ kid: '2026-q3', retired: true, retiredAt: '2026-11-27T10:00:05.000Z' });
    expect(verifyReport(old, (keysFromJwks(jwksOf(before.keys)) as { keys: never }).keys)).toMatchObject({ intact: true, signature: { valid: true, retired: true, problems: [] } });
    const after = retiredOn('2026-11-27T10:00:04.999Z');
    expect(verifyReport(old, (keysFromJwks(jwksOf(after.keys)) as { keys: never }).keys).signature).toMatchObject({
      valid: false,
      problems: ['signature.jws: kid 2026-q3 was retired at 2026-11-27T10:00:04.999Z, but this run finished at 2026-11-27T10:00:05.000Z: a retired key signs nothing new'],
    });
  });

  it('given as its private key, is taken with a warning to keep its public key alone', () => {
    const problems: string[] = [];
    const warnings: string[] = [];
    operatorReportKeys('d', [{ kid: 'a', text: OLD, retired: true }, { kid: 'b', text: NOW, retired: false }], problems, warnings);
    expect([problems, warnings]).toEqual([
      [],
      ['reportSigning.keys[0] (kid a) is retired but given as its private key: nothing needs it to sign any more, and whoever holds it can still sign reports that verify; give its public key alone (openssl pkey -pubout) and destroy the private one'],
    ]);
  });
});

describe('a folder that is not as the sandbox wrote it', () => {
  it('names a kid that only looks like one, escaped, and an alg it does not take without a signer of no kind', () => {
    const header = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    expect(checkDetached(`${header({ alg: 'EdDSA', kid: '2026-q4\u200b' })}..AAAA`, folder['manifest.json'], keys)).toMatchObject({ valid: false, problem: 'kid "2026-q4\\u200b" is not in the key set given (2026-q3, 2026-q4)' });
    const none = verifyReport({ ...folder, 'signature.jws': `${header({ alg: 'none', kid: '2026-q4' })}..` }, keys).signature!;
    expect(none.problems).toEqual(['signature.jws: its alg is "none"; a report is signed with EdDSA (Ed25519) only: manifest.json was changed after signing, or the signature is not this folder\'s']);
  });

  it('refuses a self-signed folder that names a deployment, and lists files no signature covers', () => {
    const claimed = sealReport({ ...reportSignedBy(TEST_KEYS.signer), signer: { kind: 'self-signed', deployment: 'hosted-eu', kid: TEST_KEYS.signer.kid } });
    expect(verifyReport(signedFolderFiles(claimed, TEST_KEYS.signer)).signature!.problems).toEqual(['report.json names deployment "hosted-eu" for a self-signed report: a self-signed key speaks for no deployment']);
    expect(verifyReport(folder, keys, { unreadable: [], others: ['report.htm', 'sub'] })).toMatchObject({
      intact: false,
      problems: ['the folder holds files the sandbox did not write and no signature covers: "report.htm", "sub"'],
    });
  });
});

describe('a self-signed report', () => {
  const laptop = reportSignedBy(TEST_KEYS.signer);
  const files = signedFolderFiles(laptop, TEST_KEYS.signer);

  it('verifies with the key it carries, in jose (EmbeddedJWK) and here, and says self-signed in every rendering', async () => {
    expect(await joseVerifies(files['signature.jws'], files['manifest.json'], EmbeddedJWK)).toBe(TEST_KEYS.signer.kid);
    expect(verifyReport(files)).toMatchObject({ intact: true, signature: { valid: true, kind: 'self-signed', checkedWith: 'its own key' } });
    for (const name of ['report.json', 'report.md', 'report.html', 'junit.xml', 'evidence.har', 'statement.json'] as const) expect({ name, says: files[name].includes('self-signed') }).toEqual({ name, says: true });
    expect(JSON.parse(files['statement.json']).signer).toEqual({
      kind: 'self-signed',
      deployment: null,
      kid: TEST_KEYS.signer.kid,
      proves: 'integrity only: the files were not changed after they were signed; it does not prove that a sandbox the service runs judged the run',
    });
  });

  it("fails against a deployment's keys: the kid is not in them", () => {
    expect(verifyReport(files, keys).signature!.problems).toEqual([`signature.jws: kid ${TEST_KEYS.signer.kid} is not in the key set given (2026-q3, 2026-q4): no key of that set signed it (if the deployment rotated its keys since, fetch its current jwks.json)`]);
  });

  it('cannot pass for an operator report: report.json claiming the operator is named', () => {
    const claimed = sealReport({ ...laptop, signer: { kind: 'operator', deployment: 'hosted-eu', kid: TEST_KEYS.signer.kid } });
    const forged = signedFolderFiles(claimed, { ...TEST_KEYS.signer, kind: 'self-signed' });
    expect(verifyReport(forged).signature!.problems).toContain(`report.json names signer operator kid ${TEST_KEYS.signer.kid}, but signature.jws was made by self-signed kid ${TEST_KEYS.signer.kid}`);
  });
});

describe('a self-signed key whose kid begins with - or _', () => {
  // RFC 7638 thumbprints are base64url: one key in 32 has a kid that begins so, and it must work like any other.
  const key = (() => {
    for (let tries = 0; tries < 10_000; tries++) {
      const candidate = selfSigner(generateKeyPairSync('ed25519').privateKey);
      if (/^[-_]/.test(candidate.signer.kid)) return candidate;
    }
    throw new Error('no key with such a kid in 10,000 tries');
  })();

  it('is named as it is in every message, and its key set is taken', () => {
    const signed = signedFolderFiles(reportSignedBy(key.signer), key.signer);
    expect(verifyReport(signed)).toMatchObject({ intact: true, signature: { valid: true, kid: key.signer.kid } });
    expect(verifyReport(signed, keys).signature!.problems).toEqual([`signature.jws: kid ${key.signer.kid} is not in the key set given (2026-q3, 2026-q4): no key of that set signed it (if the deployment rotated its keys since, fetch its current jwks.json)`]);
    expect(keysFromJwks(jwksOf([{ kid: key.signer.kid, publicKey: key.signer.publicKey, retired: false }]))).toMatchObject({ keys: [{ kid: key.signer.kid }] });
  });
});

describe('keysFromJwks', () => {
  it('takes a JWKS or one JWK, and refuses a private key, another curve, a set without kids', () => {
    expect(keysFromJwks(PUBLISHED)).toMatchObject({ keys: [{ kid: '2026-q3', retired: true }, { kid: '2026-q4', retired: false }] });
    expect(keysFromJwks(PUBLISHED.keys[1])).toMatchObject({ keys: [{ kid: '2026-q4' }] });
    const secret = { ...(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }) as object), kid: 'k1' };
    expect(keysFromJwks({ keys: [secret] })).toEqual({ problem: 'keys[0] (kid "k1") holds a private key ("d"): a key set to verify with holds public keys only; give the JWKS the sandbox publishes' });
    expect(keysFromJwks({ keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b', kid: 'k' }] })).toEqual({ problem: 'keys[0] (kid "k") is not an Ed25519 public key (kty OKP, crv Ed25519, x)' });
    expect(keysFromJwks({ keys: [{ ...PUBLISHED.keys[0], kid: undefined }] })).toEqual({ problem: 'keys[0] has no kid of letters, digits and . _ : -' });
    expect(keysFromJwks([])).toEqual({ problem: 'it is not a JWKS (an object with a "keys" array) nor a single JWK' });
    expect(keysFromJwks({ keys: [] })).toEqual({ problem: 'it holds no key' });
    expect(keysFromJwks({ keys: [PUBLISHED.keys[0], PUBLISHED.keys[0]] })).toEqual({ problem: 'kid 2026-q3 names two keys' });
  });
});

describe('operatorReportKeys', () => {
  it('takes one signing key, names every problem without the key text', () => {
    const problems: string[] = [];
    const publicOnly = generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }) as string;
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    expect(operatorReportKeys('d', [{ kid: 'a', text: publicOnly, retired: false }, { kid: 'b', text: rsa, retired: true }, { kid: 'c', text: 'garbage', retired: true }, { kid: 'c', text: OLD, retired: true }], problems)).toBeUndefined();
    expect(problems).toEqual([
      'reportSigning.keys[0] (kid a).key is a public key: the key that signs must be the private key (PKCS #8 PEM); only a retired key may be given as its public key',
      'reportSigning.keys[1] (kid b).key is not an Ed25519 key in PEM (make one with: openssl genpkey -algorithm ed25519)',
      'reportSigning.keys[2] (kid c).key is not an Ed25519 key in PEM (make one with: openssl genpkey -algorithm ed25519)',
      'reportSigning.keys: kid c names two keys',
    ]);
    const two: string[] = [];
    operatorReportKeys('d', [{ kid: 'a', text: OLD, retired: false }, { kid: 'b', text: NOW, retired: false }], two);
    expect(two).toEqual(['reportSigning.keys must have exactly one key that is not retired, the one that signs (it has 2: a, b)']);
    const same: string[] = [];
    operatorReportKeys('d', [{ kid: 'a', text: OLD, retired: false }, { kid: 'b', text: OLD, retired: true }], same);
    expect(same).toEqual(['reportSigning.keys: kid b is the same key as kid a']);
    expect([...problems, ...two, ...same].join('\n')).not.toContain('PRIVATE KEY');
  });
});
