/** Pure: a journal entry as a curl command that sends the same call again, with a fresh token. */
import type { JournalEntry } from './types.js';

/** Headers curl sets itself, or that describe the old connection; the token and the key are replaced below. */
const LEFT_OUT = new Set(['host', 'authorization', 'content-length', 'connection', 'accept-encoding', 'transfer-encoding', 'x-api-key', 'user-agent', 'expect']);

/** A single-quoted shell word: safe whatever the text holds. */
export const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

export function curlCommand(entry: Pick<JournalEntry, 'method' | 'path' | 'query' | 'request'>, origin: string, token: string | undefined): string {
  const query = new URLSearchParams(entry.query).toString();
  const lines = [`curl -i -X ${entry.method} ${shellQuote(`${origin}${entry.path}${query === '' ? '' : `?${query}`}`)}`];
  if (token !== undefined) lines.push(`-H ${shellQuote(`Authorization: Bearer ${token}`)}`);
  for (const [name, value] of Object.entries(entry.request.headers)) {
    if (!LEFT_OUT.has(name.toLowerCase())) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  // The journal keeps a hash of x-api-key, never the key: the sandbox checks that it is there, so any value does.
  if ('x-api-key' in entry.request.headers) lines.push(`-H "x-api-key: \${POS_API_KEY:-your-x-api-key}"`);
  const body = entry.request.bodyText ?? (entry.request.body === undefined ? undefined : JSON.stringify(entry.request.body));
  if (body !== undefined) lines.push(`--data-raw ${shellQuote(body)}`);
  return lines.join(' \\\n  ');
}
