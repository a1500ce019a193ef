/** A self-signed key for the tests that build reports in the process, as a laptop sandbox run with --memory has. */
import { generateKeyPairSync } from 'node:crypto';
import { selfSigner } from '../report/signing-keys.js';

export const TEST_KEYS = selfSigner(generateKeyPairSync('ed25519').privateKey);
export const TEST_SIGNER = TEST_KEYS.signer;
