/**
 * Pure: text the sandbox did not write (an ExternalId, a POS's reply, a report read back, a fault rule's body) made
 * safe to print on a terminal. Every control character (C0, DEL, C1) and every character that reorders text on screen
 * (the bidirectional controls), the line and paragraph separators and the BOM is shown as its `\uXXXX` escape: an ESC sequence in an ExternalId could otherwise set
 * the window title, write the clipboard (OSC 52) or clear the screen, and a newline or a carriage return could print
 * a line that looks like the sandbox's own. In JSON text the same escape is the same character, so JSON stays JSON.
 */

// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]/;
const UNPRINTABLE_ALL = new RegExp(UNPRINTABLE.source, 'g');
/** What a terminal line of the sandbox's own may hold: its colours (SGR) and line ends; anything else is escaped. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const TERMINAL_UNSAFE = /\u001b\[[0-9;]*m|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]/g;

/** Characters that show nothing: a label holding one reads as another label. */
const INVISIBLE = /[\u200b-\u200d\u2060]/;

/**
 * Whether a value given to name something (a POS name, version or build; a label in a report) is 1 to 100
 * characters that print as they read: no control, bidirectional or invisible character (a right-to-left override in
 * a build id turned the rest of a report's title around), not starting with a space.
 */
export const isLabel = (value: string): boolean => value.length > 0 && value.length <= 100 && value.trimStart() === value && !UNPRINTABLE.test(value) && !INVISIBLE.test(value);

const escape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every control and bidirectional character shown as its escape: one line, in the order it was written. */
export function printable(text: string): string {
  return UNPRINTABLE.test(text) ? text.replace(UNPRINTABLE_ALL, escape) : text;
}

/** A copy of `value` with every string in it (keys too) printable; anything else as it is. */
export function printableDeep<T>(value: T): T {
  if (typeof value === 'string') return printable(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => printableDeep(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) Object.defineProperty(copy, printable(key), { value: printableDeep(item), enumerable: true, writable: true, configurable: true });
  return copy as T;
}

/**
 * A chunk of the sandbox's own terminal output, made safe whatever data it holds: its colours (SGR sequences), tabs
 * and line ends are kept, every other control character escaped. The last guard of the CLI's output; data is made
 * printable before it is formatted, which escapes newlines and colours inside it too.
 */
export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_UNSAFE, (found) => (found.length > 1 ? found : escape(found)));
}
