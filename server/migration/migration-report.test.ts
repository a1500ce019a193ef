import { describe, expect, it } from '@jest/globals';
import type { JournalEntry } from '../journal/journal-entry.js';
import { finding } from '../http/findings.js';
import { migrationReport } from './migration-report.js';
import { companyProfileIdField, companyProfileIdHeader, REFUND_RESULT_INSTEAD, UPDATE_ORDER_STATE_INSTEAD } from './v1-habits.js';
import { queryCredentialMessage } from '../tokens/authenticate.js';

let n = 0;
/** An inbound call as the journal keeps it: only what the report reads. */
const call = (path: string, status: number, more: Partial<JournalEntry> = {}): JournalEntry =>
  ({ id: `j-${String(++n).padStart(6, '0')}`, direction: 'inbound', method: 'POST', path, query: {}, request: { headers: { 'x-api-key': 'k', 'x-api-version': '2' } }, response: { status, headers: {}, body: more.response?.body }, findings: [], token: { sha256: 'x', claims: {} }, locationId: 'loc-std-001', ...more }) as JournalEntry;

describe('migrationReport', () => {
  it('says every step is not yet exercised on a fresh sandbox', () => {
    expect(migrationReport([]).map((step) => `${step.number}. ${step.step}: ${step.state}`)).toEqual([
      '1. update authentication: not yet exercised',
      '2. adjust endpoints: not yet exercised',
      '3. refactor payloads: not yet exercised',
      '4. handle status management: not yet exercised',
      '5. validate menu synchronization: not yet exercised',
      '6. test in the sandbox: not yet exercised',
      '7. certify and go live: not yet exercised',
    ]);
  });

  it('marks a step in progress by the calls that still show a v1 habit, with their ids and the first one\'s words', () => {
    const retired = call('/v1/pos/integration/order/UpdateOrderState', 410, { response: { status: 410, headers: {}, body: { errors: [{ code: 'ENDPOINT_RETIRED', message: `POST /v1/pos/integration/order/UpdateOrderState is v1's UpdateOrderState: ${UPDATE_ORDER_STATE_INSTEAD}` }] } } });
    const field = call('/v2/order/refund', 200, { findings: [finding('V1_HABIT', companyProfileIdField('CompanyProfileId'))] });
    const status = call('/v2/order/status', 200);
    const report = migrationReport([retired, field, status]);
    expect(report.slice(1, 4).map((step) => [step.state, step.v1Calls])).toEqual([
      ['in progress', [retired.id]],
      ['in progress', [field.id]],
      ['in progress', [retired.id]],
    ]);
    expect(report[2]!.next).toBe(`V1_HABIT (§9): ${companyProfileIdField('CompanyProfileId')}`);
    expect(report[5]!.state).toBe('in progress');
  });

  it('marks the steps done by v2 traffic with no habit left, and certification by a passed certification report only', () => {
    const calls = [call('/v2/order/refund', 200), call('/v2/order/status', 200), { ...call('/v2/menu', 200), method: 'PUT' }];
    const report = migrationReport(calls, [{ verdict: 'passed', title: 'Demo run, not a certification' }]);
    // A demo's report is no attempt at certification; a failed certification run is one.
    expect(report.map((step) => step.state)).toEqual(['done', 'done', 'done', 'done', 'done', 'done', 'not yet exercised']);
    expect(report[6]!.next).toContain('(the 1 report(s) written so far are demo or practice runs)');
    const failed = { verdict: 'failed', title: 'POS certification report: acme-pos 4.2.0' };
    expect(migrationReport(calls, [failed])[6]!.state).toBe('in progress');
    expect(migrationReport(calls, [{ verdict: 'passed', title: 'POS certification report: acme-pos 4.2.1' }, failed])[6]).toMatchObject({ state: 'done', next: "attach the passed report ('POS certification report: acme-pos 4.2.1') to the certification request" });
  });

  it('reads a wait for a refund result as step 4, and a menu update sent to v1 as steps 2 and 5', () => {
    const poll = { ...call('/v2/order/refund/POS-1', 404, { response: { status: 404, headers: {}, body: { errors: [{ code: 'NOT_FOUND', message: `no endpoint at GET /v2/order/refund/POS-1; ${REFUND_RESULT_INSTEAD}` }] } } }), method: 'GET' };
    const menu = { ...call('/v1/pos/integration/menu', 410, { response: { status: 410, headers: {}, body: { errors: [{ Code: 'ENDPOINT_RETIRED', Message: "/v1/pos/integration/menu is the retired v1 integration API (step 2 of §9's migration, adjust endpoints); v2 serves PUT /v2/menu" }] } } }), method: 'PUT' };
    const report = migrationReport([poll, menu]);
    expect(report.slice(0, 5).map((step) => [step.number, step.state, step.v1Calls])).toEqual([
      [1, 'done', []],
      [2, 'in progress', [menu.id]],
      [3, 'not yet exercised', []],
      [4, 'in progress', [poll.id]],
      [5, 'in progress', [menu.id]],
    ]);
    expect(report[3]!.next).toContain("v1 waited for a refund's result");
  });

  it('takes a v2 endpoint called as step 2 taken, and a call refused for a v2 reason as no v1 habit', () => {
    const refused = call('/v2/order/refund', 400, { response: { status: 400, headers: {}, body: { errors: [{ code: 'INVALID_PAYLOAD', message: 'ExternalId must not be empty or blank' }] } } });
    const menu = { ...call('/v2/menu', 400, { response: { status: 400, headers: {}, body: { errors: [{ Code: 'VALIDATION_ERROR', Message: "Items[0].Prices[0].Price must be 0 or more" }] } } }), method: 'PUT' };
    expect(migrationReport([refused, menu]).slice(0, 5).map((step) => step.state)).toEqual(['done', 'done', 'not yet exercised', 'not yet exercised', 'not yet exercised']);
  });

  it('names every habit a call carries, not only the one the sandbox refused it for', () => {
    const refused = call('/v2/menu', 401, {
      method: 'PUT',
      query: { apiKey: '[redacted]' },
      request: { headers: { companyprofileid: 'loc-std-001' }, body: { Items: [], company_profile_id: 'loc-std-001' }, bodyBytes: 60 },
      response: { status: 401, headers: {}, body: { errors: [{ Code: 'UNAUTHORIZED', Message: queryCredentialMessage('apiKey') }] } },
    } as Partial<JournalEntry>);
    const report = migrationReport([refused]);
    expect(report.slice(0, 5).map((step) => [step.state, step.next])).toEqual([
      ['in progress', queryCredentialMessage('apiKey')],
      ['done', 'nothing: no v1 habit of this step is left'],
      ['in progress', companyProfileIdHeader('companyprofileid')],
      ['not yet exercised', expect.any(String)],
      // Step 5 is about the menu: the v1 field in the update, not the key in its URL (step 1's).
      ['in progress', companyProfileIdField('company_profile_id')],
    ]);
  });

  it('keeps step 1 in progress for a token refused for any defect, and counts every call beyond the 20 it lists', () => {
    const refused = call('/v2/order/refund', 401, { tokenDefects: [{ part: 'claims', rule: 'exp', message: 'token claim exp is 1795435391000, which looks like milliseconds' }] } as unknown as Partial<JournalEntry>);
    expect(migrationReport([refused])[0]).toMatchObject({ state: 'in progress', v1Calls: [refused.id], v1CallCount: 1, next: 'token claim exp is 1795435391000, which looks like milliseconds' });
    const many = [...Array(25)].map(() => call('/v2/order/refund', 200, { request: { headers: { 'x-api-version': '1', 'x-api-key': 'k' }, bodyBytes: 0 } }));
    const [first] = migrationReport(many);
    expect([first!.state, first!.v1Calls.length, first!.v1CallCount]).toEqual(['in progress', 20, 25]);
    expect(first!.next).toBe("header x-api-version: 1 names v1; this interface is Open API v2: send x-api-version: 2 (§5 migration notes; §9; step 1 of §9's migration, update authentication)");
  });
});
