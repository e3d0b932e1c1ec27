import { plan as planSchema } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { findPlan, FREE_PLAN, PLAN_CATALOGUE } from './plan-catalogue.ts';

describe('the plan catalogue', () => {
  it('matches the contract of a plan', () => {
    for (const plan of PLAN_CATALOGUE) expect(planSchema.parse(plan)).toEqual(plan);
  });

  it('has Free as the only plan chosen without checkout, email only, for 14 days', () => {
    expect(PLAN_CATALOGUE.filter((plan) => !plan.checkout)).toEqual([FREE_PLAN]);
    expect(FREE_PLAN).toMatchObject({
      name: 'Free',
      priceMonthlyCents: 0,
      periodDays: 14,
      channels: ['email'],
    });
  });

  it('keeps calls to paid plans and grows limits with the price', () => {
    expect(
      PLAN_CATALOGUE.filter((plan) => plan.channels.includes('call')).every((plan) => plan.checkout),
    ).toBe(true);
    for (let i = 1; i < PLAN_CATALOGUE.length; i++) {
      const [cheaper, dearer] = [PLAN_CATALOGUE[i - 1]!, PLAN_CATALOGUE[i]!];
      expect(dearer.priceMonthlyCents).toBeGreaterThan(cheaper.priceMonthlyCents);
      expect(dearer.maxMonitors).toBeGreaterThan(cheaper.maxMonitors);
      expect(dearer.minIntervalSeconds).toBeLessThanOrEqual(cheaper.minIntervalSeconds);
    }
  });

  it('findPlan() ignores case and spaces, and knows no other plan', () => {
    expect(findPlan(' pro ')?.name).toBe('Pro');
    expect(findPlan('FREE')).toBe(FREE_PLAN);
    expect(findPlan('Platinum')).toBeUndefined();
  });
});
