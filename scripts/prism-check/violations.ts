/** Pure: Prism's `sl-violations` split into what the sandbox answered wrong and what the request did, judged for one step. */

export interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

export interface Verdict {
  /** The answer disagrees with the document: always a failure. */
  response: Violation[];
  /** The request disagrees with the document: expected when the step sends an invalid request on purpose. */
  request: Violation[];
  /** Request violations on a step meant to be valid: the document refuses what the sandbox accepts, a failure too. */
  unexpectedRequest: Violation[];
}

/** Prism truncates a long list with this prefix; what follows is no longer JSON. */
const TRUNCATED = 'Too many violations! ';

export function parseViolations(header: string | null): Violation[] {
  if (header === null || header === '') return [];
  if (header.startsWith(TRUNCATED)) return [{ location: ['response'], severity: 'Error', message: `Prism cut the list short: ${header.slice(TRUNCATED.length, 300)}…` }];
  try {
    const parsed = JSON.parse(header) as unknown;
    return Array.isArray(parsed) ? (parsed as Violation[]) : [{ location: ['response'], severity: 'Error', message: `unreadable sl-violations: ${header}` }];
  } catch {
    return [{ location: ['response'], severity: 'Error', message: `unreadable sl-violations: ${header.slice(0, 300)}` }];
  }
}

/** One step's verdict: `invalidOnPurpose` steps may draw request violations; nothing may draw a response violation. */
export function judge(violations: Violation[], invalidOnPurpose: boolean): Verdict {
  const response = violations.filter((v) => v.location[0] !== 'request');
  const request = violations.filter((v) => v.location[0] === 'request');
  return { response, request, unexpectedRequest: invalidOnPurpose ? [] : request };
}

export function describeViolation(v: Violation): string {
  return `${v.severity.toLowerCase()} at ${v.location.join('.') || '(no location)'}: ${v.message}`;
}
