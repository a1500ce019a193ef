/** Pure: a closed log file with only its records' latest lines, copied as they are, not rendered again; a line not where its record says is rendered from the record. */

export interface LatestLine {
  /** The line of the file that is this record's latest, from 0. */
  row: number;
  /** The record's key: the line holds it as a JSON string, wherever the writer put it. */
  key: string;
  /** The record's line rendered anew, for when the file does not hold it where it should. */
  render: () => string;
}

/** The new text: each record's line, in the order given, one a line; '' for none. */
export function latestLines(written: string, records: readonly LatestLine[]): string {
  if (records.length === 0) return '';
  const rows = written.split('\n');
  // The part after the last newline is no whole line (empty, or a line whose write never finished).
  const whole = rows.length - 1;
  let text = '';
  for (const { row, key, render } of records) {
    const line = row < whole ? rows[row]! : undefined;
    text += `${line !== undefined && line.includes(`"${key}"`) ? line : render()}\n`;
  }
  return text;
}
