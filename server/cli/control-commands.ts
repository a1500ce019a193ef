/**
 * The control commands: `orders`, `refunds`, `faults`, `journal`, `reset` and `status`, each a client of the control
 * API of a running sandbox (docs/cli.md). People get aligned lines, coloured on a terminal; `--json` prints the
 * API's JSON for scripts. Every one finds its sandbox the same way (--sandbox, else SANDBOX_URL, else
 * http://127.0.0.1:4100) and says a failure once, with the URL, exit code 1; a bad command line exits 2.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import pc from 'picocolors';
import { PACKAGE_ROOT } from '../version.js';
import { ControlError, controlClient, type ControlClient } from './control-client.js';
import {
  exchangeLine,
  exchangeMatches,
  exchangeRow,
  faultLines,
  orderLines,
  refundLines,
  type ExchangeRow,
  type FaultRow,
  type OrderRow,
  type Paint,
  type RefundRow,
} from './control-format.js';
import { resolveSandboxUrl } from './sandbox-url.js';
import { printableDeep } from '../domain/printable-text.js';
import { followEvents } from './follow-events.js';

interface Common {
  sandbox?: string;
  json?: boolean;
}

/** picocolors decides: a terminal, FORCE_COLOR, no NO_COLOR. */
const paint: Paint = pc.createColors(pc.isColorSupported);

const sandboxOption = () => new Option('--sandbox <url>', 'the running sandbox (default: SANDBOX_URL, else http://127.0.0.1:4100)');
const jsonOption = () => new Option('--json', "print the control API's JSON instead of lines");

function wholeNumber(name: string, min = 1): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || parsed < min) throw new InvalidArgumentError(`${name} must be a whole number from ${min}, got '${value}'`);
    return parsed;
  };
}

/** Runs a control command: the client, the failure said once on stderr (exit 1), a bad sandbox URL exit 2. */
async function withSandbox(flags: Common, run: (client: ControlClient) => Promise<unknown>): Promise<void> {
  const resolved = resolveSandboxUrl(flags.sandbox, process.env);
  if (!resolved.ok) {
    process.stderr.write(`pos-sandbox: ${resolved.problem}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    await run(controlClient(resolved.url, process.env));
  } catch (error) {
    if (!(error instanceof ControlError)) throw error;
    process.stderr.write(`pos-sandbox: ${error.message}\n`);
    process.exitCode = 1;
  }
}

const print = (lines: string[]) => process.stdout.write(`${lines.join('\n')}\n`);
const printJson = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams(Object.entries(params).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])));
  return search.size === 0 ? '' : `?${search}`;
};
const ident = (id: string) => encodeURIComponent(id);
const journalNumber = (id: string) => Number(id.replace(/^j-/, ''));

export function statusCommand(): Command {
  return new Command('status')
    .description('is the sandbox up: its address, version, partner, store, POS order URL, journal and fault counts')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((flags: Common) =>
      withSandbox(flags, async (client) => {
        const answer = await client.call<Record<string, unknown> & { journal: { entries: number; limit: number }; delivery: { posOrderUrl: string | null } }>('GET', '/_sandbox/health');
        if (flags.json) return printJson(answer);
        const health = printableDeep(answer);
        print([
          `${paint.green('up')}  ${client.baseUrl}  pos-sandbox ${String(health.version)}, up ${String(health.uptimeSeconds)} s`,
          `  partner (token iss): ${String(health.partner)}`,
          `  store:               ${health.store === undefined ? '(a hosted sandbox does not show it to a partner)' : String(health.store)}`,
          `  POS order URL:       ${health.delivery.posOrderUrl ?? 'none (orders cannot be delivered: serve --pos-order-url URL)'}`,
          `  journal:             ${health.journal.entries} of at most ${health.journal.limit} entries`,
          `  fault rules:         ${String(health.faults)}`,
          `  strict:              ${String(health.strict)}`,
        ]);
      }),
    );
}

export function resetCommand(): Command {
  return new Command('reset')
    .description('put the sandbox back to its fixtures: refunds, journal, fault rules and seen token ids cleared')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((flags: Common) =>
      withSandbox(flags, async (client) => {
        const answer = await client.call<unknown>('POST', '/_sandbox/reset');
        if (flags.json) return printJson(answer ?? {});
        print([`reset: ${client.baseUrl} is back to its fixtures`]);
      }),
    );
}

interface OrderFlags extends Common {
  template?: string;
  location?: string;
  orderId?: string;
  wait?: boolean;
  status?: string;
  limit?: number;
}

export function ordersCommand(): Command {
  const orders = new Command('orders').description('create, list, show and resend the orders the sandbox sends to the POS');
  orders
    .command('create')
    .description('create an order from a template and send it to the POS')
    .addOption(new Option('--template <name>', 'the order template').choices(['standard', 'hub', 'kiosk']).makeOptionMandatory())
    .option('--location <id>', "the location (default: the template's own)")
    .option('--order-id <id>', 'the OrderId (default: a new one)')
    .option('--wait', 'answer once the delivery has settled (the POS answered, or every try failed)')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((flags: OrderFlags) =>
      withSandbox(flags, async (client) => {
        const body = { template: flags.template, ...(flags.location === undefined ? {} : { locationId: flags.location }), ...(flags.orderId === undefined ? {} : { orderId: flags.orderId }) };
        const order = await client.call<OrderRow>('POST', `/_sandbox/orders${flags.wait ? '?wait=true' : ''}`, body);
        if (flags.json) return printJson(order);
        print(orderLines([order], paint));
      }),
    );
  orders
    .command('list')
    .description('the orders, oldest first')
    .option('--location <id>', 'only this location')
    .option('--status <status>', 'only this status (NEW, DISPATCHED, AWAITING_STATUS, ACCEPTED, REJECTED, DELIVERY_FAILED, …)')
    .addOption(new Option('--template <name>', 'only this template').choices(['standard', 'hub', 'kiosk']))
    .option('--limit <n>', 'at most this many', wholeNumber('--limit'))
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((flags: OrderFlags) =>
      withSandbox(flags, async (client) => {
        const list = await client.call<OrderRow[]>('GET', `/_sandbox/orders${query({ location: flags.location, status: flags.status, template: flags.template, limit: flags.limit })}`);
        if (flags.json) return printJson(list);
        print(orderLines(list, paint));
      }),
    );
  orders
    .command('show')
    .description('one order, with its deliveries and its status history')
    .argument('<id>', 'the OrderId')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((id: string, flags: Common) =>
      withSandbox(flags, async (client) => {
        const order = await client.call<OrderRow & { History?: Array<{ at?: string; status: string; by?: string; detail?: string }> }>('GET', `/_sandbox/orders/${ident(id)}`);
        if (flags.json) return printJson(order);
        print([...orderLines([order], paint), '', 'history:', ...printableDeep(order.History ?? []).map((change) => `  ${change.at ?? ''}  ${change.status}${change.by ? ` (by ${change.by})` : ''}${change.detail ? `: ${change.detail}` : ''}`)]);
      }),
    );
  orders
    .command('resend')
    .description('send a REJECTED or DELIVERY_FAILED order again: same OrderId, new RequestId')
    .argument('<id>', 'the OrderId')
    .option('--wait', 'answer once the delivery has settled')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((id: string, flags: OrderFlags) =>
      withSandbox(flags, async (client) => {
        const order = await client.call<OrderRow>('POST', `/_sandbox/orders/${ident(id)}/resend${flags.wait ? '?wait=true' : ''}`);
        if (flags.json) return printJson(order);
        print(orderLines([order], paint));
      }),
    );
  return orders;
}

interface RefundFlags extends Common {
  location?: string;
  status?: string;
  externalId?: string;
  limit?: number;
}

export function refundsCommand(): Command {
  const refunds = new Command('refunds').description('the refunds the POS asked for, and what became of them');
  refunds
    .command('list')
    .description('the refunds, newest first')
    .option('--location <id>', 'only this location')
    .addOption(new Option('--status <status>', 'only this status').choices(['PENDING', 'SUCCEEDED', 'FAILED']))
    .option('--external-id <id>', "only this order's refunds (the ExternalId the POS gave it)")
    .option('--limit <n>', 'at most this many', wholeNumber('--limit'))
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((flags: RefundFlags) =>
      withSandbox(flags, async (client) => {
        const list = await client.call<RefundRow[]>('GET', `/_sandbox/refunds${query({ location: flags.location, status: flags.status, externalId: flags.externalId, limit: flags.limit })}`);
        if (flags.json) return printJson(list);
        print(refundLines(list, paint));
      }),
    );
  return refunds;
}

interface FaultFlags extends Common {
  rule?: string;
  id?: string;
  kind?: string;
  path?: string;
  method?: string;
  location?: string;
  direction?: string;
  status?: number;
  ms?: number;
  times?: number;
}

/** A rules file by path, or a ready script of fixtures/faults/ by its name (`slow-service`). */
function readRules(file: string): unknown {
  const ready = join(PACKAGE_ROOT, 'fixtures', 'faults', file.endsWith('.json') ? file : `${file}.json`);
  const path = existsSync(file) ? file : existsSync(ready) ? ready : undefined;
  if (path === undefined) throw new ControlError(`no file ${file}, and no ready script of that name in ${join(PACKAGE_ROOT, 'fixtures', 'faults')}`);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ControlError(`${path} is not JSON: ${(error as Error).message}`);
  }
}

export function faultsCommand(): Command {
  const faults = new Command('faults').description('the fault rules in force: add, list, remove, load a file of them, reset');
  faults
    .command('list')
    .description('the fault rules in force, in the order they are tried (newest first), with their counters')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((flags: Common) =>
      withSandbox(flags, async (client) => {
        const list = await client.call<FaultRow[]>('GET', '/_sandbox/faults');
        if (flags.json) return printJson(list);
        print(faultLines(list, paint));
      }),
    );
  faults
    .command('add')
    .description('add a fault rule: whole with --rule JSON, or from --kind and the flags below')
    .option('--rule <json>', 'a rule (or a list of rules) as JSON, as POST /_sandbox/faults takes it')
    .option('--id <id>', 'the rule id (default: one the sandbox makes)')
    .option('--kind <kind>', 'status, delay, drop, hang, malformed, rate-limit, bad-signature, expired-token, wrong-audience, duplicate')
    .option('--path <path>', 'match: requests to this path (any mount)')
    .option('--method <method>', 'match: this method')
    .option('--location <id>', 'match: this location')
    .addOption(new Option('--direction <direction>', 'match: inbound (POS → sandbox) or outbound (sandbox → POS)').choices(['inbound', 'outbound']))
    .option('--status <code>', 'with --kind status (or malformed): the status to answer', wholeNumber('--status', 100))
    .option('--ms <ms>', 'with --kind delay: how long', wholeNumber('--ms', 0))
    .option('--times <n>', 'fire this many times, then stop (default: no limit)', wholeNumber('--times'))
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((flags: FaultFlags, command: Command) =>
      withSandbox(flags, async (client) => {
        let rule: unknown;
        if (flags.rule !== undefined) {
          try {
            rule = JSON.parse(flags.rule);
          } catch (error) {
            command.error(`error: --rule is not JSON: ${(error as Error).message}`, { exitCode: 2 });
          }
        } else if (flags.kind !== undefined) {
          const match = Object.fromEntries(Object.entries({ path: flags.path, method: flags.method, location: flags.location, direction: flags.direction }).filter(([, value]) => value !== undefined));
          const action = { kind: flags.kind, ...(flags.status === undefined ? {} : { status: flags.status }), ...(flags.ms === undefined ? {} : { ms: flags.ms }) };
          rule = { ...(flags.id === undefined ? {} : { id: flags.id }), match, action, ...(flags.times === undefined ? {} : { times: flags.times }) };
        } else {
          command.error('error: say the rule: --kind KIND [--path …] or --rule JSON', { exitCode: 2 });
        }
        const added = await client.call<FaultRow | FaultRow[]>('POST', '/_sandbox/faults', rule);
        if (flags.json) return printJson(added);
        print(faultLines(Array.isArray(added) ? added : [added], paint));
      }),
    );
  faults
    .command('remove')
    .description('remove one fault rule')
    .argument('<id>', 'the rule id')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((id: string, flags: Common) =>
      withSandbox(flags, async (client) => {
        const answer = await client.call<unknown>('DELETE', `/_sandbox/faults/${ident(id)}`);
        if (flags.json) return printJson(answer ?? { removed: id });
        print([`removed fault rule ${id}`]);
      }),
    );
  faults
    .command('load')
    .description('add every rule of a JSON file (a list of rules), or of a ready script of fixtures/faults/ by name')
    .argument('<file>', 'a file, or a ready script: duplicate-deliveries, flaky-network, forged-tokens-to-pos, rate-limited, service-outage, slow-service')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((file: string, flags: Common) =>
      withSandbox(flags, async (client) => {
        const added = await client.call<FaultRow | FaultRow[]>('POST', '/_sandbox/faults', readRules(file));
        if (flags.json) return printJson(added);
        print(faultLines(Array.isArray(added) ? added : [added], paint));
      }),
    );
  faults
    .command('reset')
    .description('remove every fault rule')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((flags: Common) =>
      withSandbox(flags, async (client) => {
        const answer = await client.call<unknown>('DELETE', '/_sandbox/faults');
        if (flags.json) return printJson(answer ?? {});
        print(['every fault rule removed']);
      }),
    );
  return faults;
}

interface TailFlags extends Common {
  lines: number;
  follow?: boolean;
  findings?: boolean;
  path?: string;
  status?: string;
  location?: string;
}

export function journalCommand(): Command {
  const journal = new Command('journal').description('the requests the sandbox saw and sent, one line per exchange');
  journal
    .command('tail')
    .description('the last exchanges, oldest first, both directions; --follow keeps printing new ones until Ctrl-C')
    .option('-n, --lines <n>', 'how many of the last exchanges', wholeNumber('--lines', 0), 20)
    .option('-f, --follow', 'keep printing new exchanges as they happen')
    .option('--findings', 'only exchanges with at least one finding')
    .option('--path <text>', 'only paths that contain this')
    .option('--status <status>', 'only this status (401) or class (4xx)')
    .option('--location <id>', 'only this location')
    .addOption(sandboxOption())
    .addOption(new Option('--json', 'print each exchange as one JSON line (the summary the event stream carries) instead'))
    .action((flags: TailFlags) =>
      withSandbox(flags, async (client) => {
        const filter = { path: flags.path, status: flags.status, location: flags.location, findings: flags.findings ? true : undefined };
        const show = (row: ExchangeRow) => process.stdout.write(`${flags.json ? JSON.stringify(row) : exchangeLine(row, paint)}\n`);
        const recent =
          flags.lines === 0
            ? []
            : await client.call<Parameters<typeof exchangeRow>[0][]>(
                'GET',
                `/_sandbox/journal${query({ limit: flags.lines, path: flags.path, status: flags.status, location: flags.location, findings: flags.findings ? 'true' : undefined })}`,
              );
        for (const entry of recent.reverse()) show(exchangeRow(entry));
        if (!flags.follow) return;
        const newest = recent.at(-1)?.id;
        await followEvents(client, 'journal', (data) => {
          const row = data as ExchangeRow;
          // Held events a reconnect replays may be older than what the list showed.
          if (newest !== undefined && journalNumber(row.id) <= journalNumber(newest)) return;
          if (exchangeMatches(row, filter)) show(row);
        });
      }),
    );
  return journal;
}
