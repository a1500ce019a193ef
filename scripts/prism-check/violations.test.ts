import { describe, expect, it } from '@jest/globals';
import { judge, parseViolations } from './violations.js';

const requestSide = { location: ['request', 'header', 'x-service-locationid'], severity: 'Error', message: "must have required property 'x-service-locationid'" };
const responseSide = { location: ['response', 'body'], severity: 'Error', message: "must have required property 'errors'" };

describe('the sl-violations header of prism proxy', () => {
  it('reads no header as no violation', () => {
    expect(parseViolations(null)).toEqual([]);
  });

  it('counts a response violation against the sandbox, whether the request was valid or not', () => {
    const violations = parseViolations(JSON.stringify([requestSide, responseSide]));
    expect(judge(violations, true)).toEqual({ response: [responseSide], request: [requestSide], unexpectedRequest: [] });
    expect(judge(violations, false)).toEqual({ response: [responseSide], request: [requestSide], unexpectedRequest: [requestSide] });
  });

  it('counts a list Prism cut short, or one it could not write as JSON, as a response violation', () => {
    expect(judge(parseViolations('Too many violations! [{"location":["resp'), true).response).toHaveLength(1);
    expect(judge(parseViolations('{oops'), true).response).toHaveLength(1);
  });
});
