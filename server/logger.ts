/** The sandbox's logger: pino, pretty in a terminal, one JSON line per event otherwise; every line redacted. */
import { pino, type Logger, type LoggerOptions } from 'pino';
import type { Redactor } from './journal/redactor.js';
import { printable, printableDeep } from './http/messages.js';

export type { Logger };

/** A request's pretty line: its message, then duration, location, findings and request id, and any other field as JSON. */
const PRETTY_REQUEST_LINE = '{msg}{if ms}  {ms} ms{end}{if location}  {location}{end}{if findings}  findings: {findings}{end}{if requestId}  {requestId}{end}';

export function createLogger(options: { level: string; pretty: boolean; colour?: boolean; redactor?: Redactor }): Logger {
  const { redactor } = options;
  const hooks: LoggerOptions['hooks'] = redactor
    ? {
        logMethod(args, method) {
          method.apply(this, redactLogArguments(args, redactor) as Parameters<typeof method>);
        },
      }
    : undefined;
  if (!options.pretty) return pino({ level: options.level, hooks });
  return pino({
    level: options.level,
    hooks,
    transport: {
      target: 'pino-pretty',
      options: {
        colorize: options.colour ?? true,
        singleLine: true,
        messageFormat: PRETTY_REQUEST_LINE,
        ignore: 'pid,hostname,requestId,status,ms,location,findings',
        translateTime: 'HH:MM:ss.l',
      },
    },
  });
}

/** A log call's arguments redacted as the journal is and made printable, so no log line can print a secret or drive the terminal. */
export function redactLogArguments(args: unknown[], redactor: Redactor): unknown[] {
  return args.map((arg) => {
    if (typeof arg === 'string') return printable(redactor.text(arg));
    if (arg instanceof Error) return redactError(arg, redactor);
    if (typeof arg !== 'object' || arg === null) return arg;
    const fields: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(arg)) fields[name] = value instanceof Error ? redactError(value, redactor) : printableDeep(redactor.value(value));
    return fields;
  });
}

function redactError(error: Error, redactor: Redactor): Error {
  const copy = new Error(printable(redactor.text(error.message)));
  copy.name = error.name;
  // The stack keeps its line ends: they are the sandbox's own.
  copy.stack = redactor.text(error.stack ?? '').split('\n').map(printable).join('\n');
  return copy;
}

/** A logger that writes nothing, for tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
