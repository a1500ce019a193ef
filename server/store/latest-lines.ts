/**
 * Pure: a closed log file's text with only the latest lines of its records, for a rewrite (record-log.ts). The lines
 * are copied from the file as it is, not rendered again: a file was rewritten a few times as its refunds were decided,
 * and rendering its lines anew was 2.6% of a refund's CPU under load, two fifths of the log's share
 * (docs/performance.md). A line that is not where its record says (the file changed under the sandbox) is rendered
 * from the record instead: copying it would put another record in this one's place.
 */

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
