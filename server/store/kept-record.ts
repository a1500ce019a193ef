/**
 * A record as a record log keeps it (record-log.ts): its view (the record itself, or only the fields of it that the
 * indexes need), the text of its latest line while that line is as read at start, and where that line is.
 *
 * A start keeps a line it read in the writer's own form as its text and parses it when the record itself is asked
 * for: JSON.parse of every line and the schema check of every record were ~0.7 s of a start with 100,000 refunds, for
 * records that are mostly never read again. The text takes about the memory the parsed record took. The line's reader
 * (refund-line.ts) makes this object itself, so that a start holds one object a line rather than two: every object a
 * start makes outlives it, and the collector copies each one it finds.
 */
export class KeptRecord<V> {
  /** The log file (number) holding the record's latest line; 0 for a record not written to a log yet. */
  file = 0;
  /** Which line of that file it is, from 0: a rewrite copies the line from the file rather than render it again. */
  row = 0;
  /** Whether that line is of a record that will change again (`changesAgain`): its file is not rewritten meanwhile. */
  held = false;

  constructor(
    /** The record; or, while `line` holds its text, only the fields read out of that text. */
    public view: V,
    /** The record's latest line as read at start, when the record has not been parsed or changed since. */
    public line: string | undefined,
  ) {}
}
