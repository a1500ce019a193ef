/** What a record log's reader makes of a line it recognizes (refund-line.ts), for the log to keep as its text. */

/**
 * A line of a log file read at start in the form the log's writer writes, recognized (and so checked) by its reader:
 * its text, and the fields of its record that the indexes need.
 */
export class LoggedLine<S> {
  constructor(
    readonly view: S,
    readonly text: string,
  ) {}
}
