/** `pos-sandbox journal tail` (with --follow, every new exchange) and `journal show ID`, one exchange whole. */
import { Command, Option } from 'commander';
import { JOURNAL_PAGE } from '../control/control-query.js';
import { exchangeLine, exchangeMatches, exchangeRow, type ExchangeRow } from './control-format.js';
import { ident, journalNumber, jsonOption, paint, print, printJson, query, sandboxOption, wholeNumber, withSandbox, type Common } from './control-command-kit.js';
import type { JournalEntry } from '../journal/journal-entry.js';
import { printableDeep } from '../http/messages.js';
import { createParser } from 'eventsource-parser';
import { ControlError, type ControlClient } from './control-client.js';

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
            : await client.list<Parameters<typeof exchangeRow>[0]>(
                `/_sandbox/journal${query({ limit: Math.min(flags.lines, JOURNAL_PAGE.maxLimit),  path: flags.path, status: flags.status, location: flags.location, findings: flags.findings ? 'true' : undefined })}`,
                flags.lines,
              );
        for (const entry of recent.reverse()) show(exchangeRow(entry));
        // Nothing printed reads as a command that did nothing: say so, on stderr, so --json's stdout stays JSON lines.
        if (recent.length === 0 && flags.lines > 0) process.stderr.write(`${noneLine(flags)}${flags.follow ? '; new ones are printed as they happen' : ''}\n`);
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
  journal
    .command('show')
    .description('one exchange whole: its line, the request and the response as the journal keeps them, its findings')
    .argument('<id>', 'the journal id (j-000012), as a report or a finding names it')
    .addOption(sandboxOption())
    .addOption(jsonOption())
    .action((id: string, flags: Common) =>
      withSandbox(flags, async (client) => {
        const entry = await client.call<JournalEntry>('GET', `/_sandbox/journal/${ident(id)}`);
        if (flags.json) return printJson(entry);
        // What the POS sent is shown, never sent to the terminal as it came (control characters made visible).
        const shown = printableDeep({ request: entry.request, response: entry.response, findings: entry.findings, tokenDefects: entry.tokenDefects });
        print([exchangeLine(exchangeRow(entry), paint), JSON.stringify(shown, null, 2)]);
      }),
    );
  return journal;
}

/** What an empty answer means: the filters given, or an empty journal. */
function noneLine(flags: TailFlags): string {
  const filters = [flags.findings && '--findings', flags.path !== undefined && `--path ${JSON.stringify(flags.path)}`, flags.status !== undefined && `--status ${flags.status}`, flags.location !== undefined && `--location ${flags.location}`].filter(Boolean);
  return filters.length > 0 ? `no exchange in the journal matches ${filters.join(' ')}` : 'the journal is empty: no exchange yet';
}

/** Takes a dropped stream up again from the last event seen (Last-Event-ID); the sandbox going away ends it with a ControlError. */

export async function followEvents(client: ControlClient, types: string, onData: (data: unknown) => void): Promise<never> {
  let lastId: string | undefined;
  for (;;) {
    const response = await client.open(`/_sandbox/events?types=${types}`, lastId === undefined ? {} : { 'last-event-id': lastId });
    const parser = createParser({
      onEvent(event) {
        if (event.id !== undefined) lastId = event.id;
        if (event.event === 'dropped') return;
        try {
          onData((JSON.parse(event.data) as { data: unknown }).data);
        } catch {
          // Not an event of ours: skipped rather than ending the stream.
        }
      },
    });
    const decoder = new TextDecoder();
    let received = false;
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        received = true;
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch (error) {
      // Opening it again says why better than the socket's "aborted"; one that broke before its first byte would only break again.
      if (!received) throw new ControlError(`the event stream of ${client.baseUrl} broke off: ${(error as Error).message}`);
    }
  }
}
