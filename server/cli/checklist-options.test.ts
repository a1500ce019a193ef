/** `pos-sandbox checklist`'s options from flags and environment: the admin token a guarded or hosted sandbox needs. */
import { describe, expect, it } from '@jest/globals';
import { runOptions } from './checklist.js';

describe('checklist runOptions', () => {
  it("sends SANDBOX_ADMIN_TOKEN to the control API (a sandbox behind --admin-token, or a partner's of a hosted one)", () => {
    expect(runOptions({ passive: true, reportDir: 'certification-reports' }, { SANDBOX_ADMIN_TOKEN: 'partner-admin-token-01' }).adminToken).toBe('partner-admin-token-01');
    expect('adminToken' in runOptions({ passive: true, reportDir: 'certification-reports' }, {})).toBe(false);
    expect('adminToken' in runOptions({ passive: true, reportDir: 'certification-reports' }, { SANDBOX_ADMIN_TOKEN: '' })).toBe(false);
  });
});
