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

/** The stored state is another partner's: its orders and menus would answer this partner's calls. */
export function otherPartnerError(owner: string, partner: string, where: { dataFile: string; segmentsFolder: string }): StoreError {
  return new StoreError(
    [
      `${where.dataFile} holds the state of partner '${owner}' (its orders, refunds and menus), but this sandbox runs as partner '${partner}' (SANDBOX_PARTNER, or the fixtures' partner): its orders would answer the other partner's calls, so the sandbox did not start (nothing on disk was changed).`,
      `To start afresh for '${partner}', start with --fresh-state: it moves ${where.dataFile} and ${where.segmentsFolder} aside (renamed with the time, nothing deleted). Or give --data a file of its own, or start with --memory.`,
      `To go on with '${owner}', start with SANDBOX_PARTNER=${owner} (and its key).`,
    ].join('\n'),
  );
}
