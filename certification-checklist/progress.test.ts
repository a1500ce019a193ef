import { describe, expect, it } from '@jest/globals';
import { itemLine } from './progress.js';

describe('itemLine', () => {
  it("shows what a POS's reply quoted in a message as escapes: no terminal control, no forged line", () => {
    const line = itemLine({
      id: 'ORDER-03',
      title: 'A rejected order reaches REJECTED',
      required: true,
      status: 'fail',
      message: 'the POS answered 500: boom\u001b]52;c;Zm9v\u0007\nPASS     ORDER-04  forged\r',
      remediation: 'answer 2xx',
    });
    expect(line).toBe(
      '  FAIL     ORDER-03     A rejected order reaches REJECTED: the POS answered 500: boom\\u001b]52;c;Zm9v\\u0007\\u000aPASS     ORDER-04  forged\\u000d\n           fix: answer 2xx\n',
    );
  });
});
