import { describe, expect, it } from '@jest/globals';
import { reportFields } from './report-fields.js';

describe('reportFields', () => {
  it('names each field a report prints by the flag that gave it, and leaves out those not given', () => {
    expect(reportFields({ pos: { name: 'acme', version: '4.2.0' }, driverUrl: 'http://pos.test', sandboxUrl: 'http://127.0.0.1:4100' })).toEqual({
      '--pos-name': 'acme',
      '--pos-version': '4.2.0',
      '--driver': 'http://pos.test',
      '--sandbox': 'http://127.0.0.1:4100',
    });
  });
});
