/** The sandbox's logger: pino, pretty in a terminal, one JSON line per event otherwise. */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(options: { level: string; pretty: boolean }): Logger {
  if (!options.pretty) return pino({ level: options.level });
  return pino({
    level: options.level,
    transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss.l' } },
  });
}

/** A logger that writes nothing, for tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
