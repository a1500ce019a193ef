/**
 * A line of a log file read at start in the form the log's writer writes, recognized (and so checked) by its reader
 * (refund-line.ts): its text, and the fields of its record that the indexes need (the record's view, `S`). The record
 * log keeps the text and parses it when the record itself is asked for: JSON.parse of every line and the schema check
 * of every record were ~0.7 s of a start with 100,000 refunds, for records that are mostly never read again. The text
 * takes about the memory the parsed record took.
 */
export class LoggedLine<S> {
  constructor(
    readonly view: S,
    readonly text: string,
  ) {}
}
