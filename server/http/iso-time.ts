/** Pure: the sandbox's times both ways in `toISOString`'s form, written and read from their digits because Date's own are a visible share of a refund (docs/performance.md). */
const DAY_MS = 86_400_000;
/** The day's prefix ("2026-11-29T") and the last time written, in its buffer. */
const written = Buffer.from('0000-01-01T00:00:00.000Z', 'latin1');
let dayStart = Number.NaN;
let lastMs = Number.NaN;
let lastText = '';

export function isoTime(ms: number): string {
  if (ms === lastMs) return lastText;
  let inDay = ms - dayStart;
  if (!(inDay >= 0 && inDay < DAY_MS && Number.isInteger(ms))) {
    const text = new Date(ms).toISOString();
    if (text.length !== 24 || !Number.isInteger(ms)) return text;
    written.write(text, 'latin1');
    dayStart = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
    lastMs = ms;
    return (lastText = text);
  }
  const seconds = Math.floor(inDay / 1000);
  inDay -= seconds * 1000;
  digits(Math.floor(seconds / 3600), 11);
  digits(Math.floor(seconds / 60) % 60, 14);
  digits(seconds % 60, 17);
  written[20] = 48 + Math.floor(inDay / 100);
  digits(inDay % 100, 21);
  lastMs = ms;
  return (lastText = written.toString('latin1', 0, 24));
}

/** Writes `value` (0–99) as two digits at `at`. */
function digits(value: number, at: number): void {
  written[at] = 48 + Math.floor(value / 10);
  written[at + 1] = 48 + (value % 10);
}

/** Read from its digits (days-from-civil); any other form goes to Date.parse. */
export function isoTimeMs(text: string): number {
  if (text.length !== 24 || text.charCodeAt(19) !== 46 /* . */) return Date.parse(text);
  const year = digitsIn(text, 0, 4);
  const month = digitsIn(text, 5, 2);
  // The year counted from March, so that February's leap day is the last of it.
  const marchYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(marchYear / 400);
  const yearOfEra = marchYear - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + digitsIn(text, 8, 2) - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  const days = era * 146_097 + dayOfEra - 719_468;
  const seconds = (digitsIn(text, 11, 2) * 60 + digitsIn(text, 14, 2)) * 60 + digitsIn(text, 17, 2);
  return (days * 86_400 + seconds) * 1000 + digitsIn(text, 20, 3);
}

/** The number written by `count` digits of `text` from `from`. */
function digitsIn(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
}
