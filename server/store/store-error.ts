/** The error of a stored state that cannot be used or moved aside; `serve` prints its message and exits with code 2. */

export class StoreError extends Error {
  override name = 'StoreError';
}

/** How many problems the message lists; a folder of broken segments would otherwise fill the terminal. */
const LISTED = 20;

/** The check refused the state: what is wrong, file by file, and the two ways on. */
export function damagedStateError(problems: string[], where: { dataFile: string; segmentsFolder: string }): StoreError {
  const listed = problems.slice(0, LISTED).map((problem) => `  - ${problem}`);
  if (problems.length > LISTED) listed.push(`  - … and ${problems.length - LISTED} more`);
  return new StoreError(
    [
      'the stored state cannot be used, so the sandbox did not start (nothing on disk was changed):',
      ...listed,
      'To keep its records, repair or restore the files named above.',
      `To start afresh from the fixtures, start with --fresh-state: it moves ${where.dataFile} and ${where.segmentsFolder} aside (renamed with the time, nothing deleted). Or start with --memory.`,
    ].join('\n'),
  );
}
