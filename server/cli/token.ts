/** `pos-sandbox token`: prints a valid POS → service token, for curl, Postman or a POS under test. */
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { ConfigError, partnerOverrideFromEnv, resolvePartner } from '../config.js';
import { MAX_TOKEN_LIFETIME_S } from '../http/findings.js';
import { mintPosToken } from '../tokens/mint-pos-token.js';
import { loadFixtures } from '../fixtures/load-fixtures.js';
import { PACKAGE_ROOT } from '../version.js';
import { exitWith } from './cli-output.js';

interface TokenFlags {
  location: string;
  partner?: string;
  ttl: number;
  fixtures: string;
  json: boolean;
}

export function tokenCommand(): Command {
  return new Command('token')
    .description('print a POS → service token (HS256, the partner key, the six §5 claims) on stdout')
    .requiredOption('--location <id>', 'the location the token is for (its sub claim)')
    .option('--partner <name>', 'the POS name (iss); default: SANDBOX_PARTNER or the fixture partner')
    .option('--ttl <seconds>', 'lifetime in seconds', parseTtl, 3600)
    .option('--fixtures <dir>', 'fixture folder (for the partner, its key and the locations)', join(PACKAGE_ROOT, 'fixtures'))
    .option('--json', 'print {token, claims} as JSON instead of the bare token', false)
    .addHelpText('after', '\nThe key is SANDBOX_NONPROD_KEY when set, otherwise the fixture partner\'s non-prod key.\nExample: TOKEN=$(npx pos-sandbox token --location loc-std-001)')
    .action(async (flags: TokenFlags) => {
      await exitWith(async () => printToken(flags));
    });
}

function printToken(flags: TokenFlags): void {
  const fixtures = loadFixtures(flags.fixtures);
  const override = partnerOverrideFromEnv(process.env);
  const partner = resolvePartner(fixtures.partner, { ...override, name: flags.partner ?? override.name });
  if (flags.location.trim() === '') throw new ConfigError('--location must not be empty');
  if (!fixtures.locations.some((location) => location.id === flags.location)) {
    const known = fixtures.locations.map((location) => location.id).join(', ');
    process.stderr.write(`note: location '${flags.location}' is not in the fixtures (${known}); the token is minted anyway\n`);
  }
  if (flags.ttl > MAX_TOKEN_LIFETIME_S) {
    process.stderr.write(`note: a lifetime over ${MAX_TOKEN_LIFETIME_S} s draws the TOKEN_LIFETIME_OVER_1H finding\n`);
  }
  const minted = mintPosToken({
    posName: partner.name,
    key: partner.nonProdKey,
    locationId: flags.location,
    ttlSeconds: flags.ttl,
    nowSeconds: Math.floor(Date.now() / 1000),
  });
  process.stdout.write(flags.json ? `${JSON.stringify(minted, null, 2)}\n` : `${minted.token}\n`);
}

function parseTtl(value: string): number {
  const ttl = Number(value);
  if (!Number.isInteger(ttl) || ttl <= 0) throw new InvalidArgumentError('must be a whole number of seconds, more than 0');
  return ttl;
}
