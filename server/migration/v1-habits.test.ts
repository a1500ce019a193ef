import { describe, expect, it } from '@jest/globals';
import { companyProfileIdHeaderOf, isCompanyProfileId, isUpdateOrderState, MIGRATION_STEPS, stepOf, v1BodyHabits } from './v1-habits.js';

describe('v1 habits', () => {
  it.each(['CompanyProfileId', 'companyProfileId', 'company_profile_id', 'COMPANY_PROFILE_ID', 'companyprofileid', 'company-profile-id', 'x-company-profile-id', 'X_CompanyProfileId'])('knows %s as CompanyProfileId', (name) => {
    expect(isCompanyProfileId(name)).toBe(true);
  });

  it.each(['CompanyProfile', 'ProfileId', 'CompanyId', 'LocationId', 'company profile id', 'xcompany-profile-idx'])('does not take %s for it', (name) => {
    expect(isCompanyProfileId(name)).toBe(false);
  });

  it.each(['UpdateOrderState', 'updateOrderState', 'update_order_state', 'update-order-state', 'UPDATEORDERSTATE'])('knows %s as UpdateOrderState', (name) => {
    expect(isUpdateOrderState(name)).toBe(true);
  });

  it("names §9's steps in the interface's order", () => {
    expect(MIGRATION_STEPS).toHaveLength(7);
    expect(stepOf('refactor payloads')).toBe("step 3 of §9's migration, refactor payloads");
  });

  it('finds the habits of a body: CompanyProfileId, UpdateOrderState as a field or as an action, and nothing else', () => {
    const habits = v1BodyHabits({ ExternalId: 'X', company_profile_id: 7, Action: 'updateOrderState', UpdateOrderState: true, Comment: 'UpdateOrderState' });
    expect(habits.map((habit) => habit.field)).toEqual(['company_profile_id', 'Action', 'UpdateOrderState']);
    expect(habits[0]!.instead).toBe("company_profile_id is v1's CompanyProfileId: v2 names the location LocationId (form A's body) and sends it in the x-service-locationid header on every call (§9: LocationId replaces CompanyProfileId; step 3 of §9's migration, refactor payloads)");
    expect(habits[1]!.instead).toMatch(/^Action 'updateOrderState' is v1's UpdateOrderState: v2 decides an order with POST \/v2\/order\/status/);
  });

  it('finds the header a v1 client named the location with', () => {
    expect(companyProfileIdHeaderOf({ authorization: 'x', 'x-company-profile-id': '7' })).toBe('x-company-profile-id');
    expect(companyProfileIdHeaderOf({ 'x-service-locationid': 'loc' })).toBeUndefined();
  });
});
