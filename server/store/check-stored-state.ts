/** Pure: every reason the stored state cannot be used as it is; none means it can. Each problem starts with its path. */
import { segmentProblems } from './check-segments.js';
import { stateDocumentProblems } from './check-state-document.js';
import type { StoredDocuments } from './stored-documents.js';

export function storedStateProblems(stored: StoredDocuments): string[] {
  const { dataFile, segmentsFolder, state, folder } = stored;
  const problems: string[] = [];
  if (typeof folder === 'object') problems.push(`${segmentsFolder}: ${folder.problem}`);
  const segments = stored.entries.filter((entry) => entry.segment || entry.log).length;
  if (state === undefined) {
    // Without the data file the start would seed the fixtures, and the first new segment would overwrite an old one.
    if (segments > 0) {
      problems.push(
        `${dataFile}: missing, but ${segmentsFolder} holds ${segments} file${segments === 1 ? '' : 's'} of an earlier run (its orders and refunds); a start without the data file would drop them`,
      );
    }
  } else if (!state.ok) {
    problems.push(`${dataFile}: ${state.problem}`);
  } else {
    problems.push(...stateDocumentProblems(state.value).map((problem) => `${dataFile}: ${problem}`));
  }
  // Every version has made the folder before it wrote the data file, so a data file alone lost its orders and refunds.
  if (state !== undefined && folder === 'missing') {
    problems.push(`${segmentsFolder}: missing, but ${dataFile} exists; the orders and refunds of that state are kept in this folder`);
  }
  problems.push(...segmentProblems(stored));
  return problems;
}
