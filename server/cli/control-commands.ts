/** `orders`, `refunds`, `reset` and `status`, clients of a running sandbox's control API (docs/cli.md): aligned lines for people, `--json` for scripts. */
import { replayCommand } from './replay-command.js';
import { Command, Option } from 'commander';
import { REFUND_STATUSES } from '../refunds/refund-rules.js';
import { ControlError } from './control-client.js';
import { orderLines, refundLines, type OrderRow, type RefundRow } from './control-format.js';
import { printableDeep } from '../http/messages.js';
import { ident, jsonOption, paint, print, printJson, query, sandboxOption, wholeNumber, withSandbox, type Common } from './control-command-kit.js';

export function statusCommand(): Command {
  return new Command('status')
    .description('is the sandbox up: its address, version, partner, store, POS order URL, journal and fault counts')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((flags: Common) =>
      withSandbox(flags, async (client) => {
        const answer = await client.call<unknown>('GET', '/_sandbox/health');
        if (flags.json) return printJson(answer);
        if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) throw new ControlError(`GET ${client.baseUrl}/_sandbox/health answered JSON that is not the sandbox's health: is ${client.baseUrl} the sandbox?`);
        // Each field read on its own: a sandbox of another version may lack one, and says the rest all the same.
        const health = printableDeep(answer as Record<string, unknown>);
        const at = (...path: string[]): unknown => path.reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), health);
        const shown = (value: unknown) => (value === undefined ? '(not said)' : typeof value === 'object' ? JSON.stringify(value) : String(value));
        const posOrderUrl = at('delivery', 'posOrderUrl');
        print([
          `${paint.green('up')}  ${client.baseUrl}  pos-sandbox ${shown(at('version'))}, up ${shown(at('uptimeSeconds'))} s`,
          `  partner (token iss): ${shown(at('partner'))}`,
          `  store:               ${at('store') === undefined ? '(a hosted sandbox does not show it to a partner)' : shown(at('store'))}`,
          `  POS order URL:       ${posOrderUrl === null ? 'none (orders cannot be delivered: serve --pos-order-url URL)' : shown(posOrderUrl)}`,
          `  journal:             ${shown(at('journal', 'entries'))} of at most ${shown(at('journal', 'limit'))} entries`,
          `  fault rules:         ${shown(at('faults'))}`,
          `  strict:              ${shown(at('strict'))}`,
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
        const history = printableDeep(order.History ?? []).map((change) => `  ${change.at ?? ''}  ${change.status}${change.by ? ` (by ${change.by})` : ''}${change.detail ? `: ${change.detail}` : ''}`);
        // A fixture order is loaded in its state and never changed: an empty "history:" read as a history lost.
        print([...orderLines([order], paint), '', ...(history.length > 0 ? ['history:', ...history] : [`history: none: the order is ${order.Status} as it was loaded or created, unchanged since`])]);
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
  // Loaded with the orders command: the stress run's judge, without fast-check.
  orders.addCommand(replayCommand());
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
    .addOption(new Option('--status <status>', 'only this status').choices([...REFUND_STATUSES]))
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
