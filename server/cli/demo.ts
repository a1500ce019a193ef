/**
 * `npm run demo` (`pos-sandbox demo`): a sandbox and the reference POS in this process, on free loopback ports,
 * and the whole checklist in driver mode against them; the summary and the report folder are printed.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Command } from 'commander';
import type { Express } from 'express';
import { createReferencePos } from '../../reference-pos/app.js';
import { BUGS, parseBugs } from '../../reference-pos/bugs.js';
import { CAPABILITIES } from '../../certification-checklist/checklist-types.js';
import { parseList } from '../../certification-checklist/scope.js';
import { partnerOverrideFromEnv, resolvePartner } from '../config.js';
import { loadFixtures } from '../fixtures/load-fixtures.js';
import { silentLogger } from '../logger.js';
import { createSandboxServer } from '../http-parser-errors.js';
import { createSandbox, DEFAULT_REFUND_DELAY_MS } from '../sandbox.js';
import { memoryStorage } from '../store/segment-storage.js';
import { PACKAGE_ROOT } from '../version.js';
import { DEFAULT_REPORT_DIR, runAndReport } from './checklist.js';

interface DemoFlags {
  bug?: string;
  capabilities: string;
  reportDir: string;
  windowMs: string;
  refundDelayMs: string;
}

export function demoCommand(): Command {
  return new Command('demo')
    .description('start a sandbox and the reference POS, run the whole checklist in driver mode, write the report')
    .option('--bug <list>', `break the reference POS on purpose, to see items fail: ${Object.keys(BUGS).join(', ')}`)
    .option('--capabilities <list>', 'capabilities the reference POS declares', 'refund,hub,kiosk')
    .option('--report-dir <dir>', 'where the report folder <run-id>/ is written', DEFAULT_REPORT_DIR)
    // As checklist's: four steps each watch this long, so it is most of a demo's time (README, the CLI table).
    .option('--window-ms <ms>', 'how long to watch for retries after an injected error', '3000')
    // As serve's: the refund steps wait for their refunds (four in all) to be decided, so a quick demo needs it short too.
    .option('--refund-delay-ms <ms>', 'how long a refund stays PENDING before it is decided', String(DEFAULT_REFUND_DELAY_MS))
    .action(async (flags: DemoFlags) => {
      let bugs;
      const capabilities = parseList(flags.capabilities, CAPABILITIES, 'capability', 'capabilities');
      const windowMs = Number(flags.windowMs);
      const refundDelayMs = Number(flags.refundDelayMs);
      try {
        bugs = parseBugs(flags.bug);
        if (!capabilities.ok) throw new Error(capabilities.problem);
        if (!Number.isInteger(windowMs) || windowMs < 0) throw new Error(`--window-ms must be a whole number, got '${flags.windowMs}'`);
        if (!Number.isInteger(refundDelayMs) || refundDelayMs < 0) throw new Error(`--refund-delay-ms must be a whole number, got '${flags.refundDelayMs}'`);
      } catch (error) {
        process.stderr.write(`pos-sandbox demo: ${(error as Error).message}\n`);
        process.exit(2);
      }
      const fixtures = loadFixtures(join(PACKAGE_ROOT, 'fixtures'));
      const partner = resolvePartner(fixtures.partner, partnerOverrideFromEnv(process.env));
      const sandbox = await createSandbox({ fixtures, partner, storage: memoryStorage(), logger: silentLogger(), refundDelayMs });
      const servers: Server[] = [];
      const listen = async (app: Express) => {
        const server = createSandboxServer(app);
        servers.push(server);
        server.listen(0, '127.0.0.1');
        await once(server, 'listening');
        return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      };
      const sandboxUrl = await listen(sandbox.app);
      const pos = createReferencePos({ identity: { posName: partner.name, key: partner.nonProdKey, apiKey: partner.apiKey }, sandboxUrl, menus: fixtures.menus, locations: fixtures.locations, bugs });
      const posUrl = await listen(pos);
      process.stdout.write(
        [
          'POS Sandbox demo',
          `  sandbox:        ${sandboxUrl}  (in memory, partner ${partner.name})`,
          `  reference POS:  ${posUrl}  (bugs: ${bugs.size > 0 ? [...bugs].join(', ') : 'none, a correct POS'})`,
          '',
        ].join('\n'),
      );
      const options = {
        sandboxUrl,
        posOrderUrl: `${posUrl}/order`,
        mode: 'driver' as const,
        driverUrl: posUrl,
        capabilities: capabilities.ok ? capabilities.values : [],
        windowMs,
        pos: { referencePos: true },
        out: process.stdout,
      };
      const code = await runAndReport(options, flags.reportDir);
      sandbox.close();
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      process.exit(code);
    });
}
