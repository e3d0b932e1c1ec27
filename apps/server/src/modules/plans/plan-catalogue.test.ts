import { plan as planSchema } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { DAY_MS, unixSeconds } from '../../lib/clock.ts';
import { createTestClock } from '../../test/test-clock.ts';
import {
  effectivePlan,
  findPlan,
  FREE_PLAN,
  NO_PLAN,
  PLAN_CATALOGUE,
  planInForceUntil,
} from './plan-catalogue.ts';

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

  describe('effectivePlan() over time', () => {
    const start = new Date('2026-11-10T12:00:00.000Z');
    const inForce = (user: { plan: string; planExpiresAt: number | null }, at: Date) =>
      effectivePlan(user, at).name;

    it('gives Free limits, enforcing nothing, before any plan was chosen', () => {
      const clock = createTestClock(start);
      const user = { plan: 'Free', planExpiresAt: null };
      expect(effectivePlan(user, clock.now())).toBe(FREE_PLAN);
      clock.advance(400 * DAY_MS);
      expect(effectivePlan(user, clock.now())).toBe(FREE_PLAN);
      expect(planInForceUntil(user)).toBeNull();
    });

    it('runs a chosen Free period for 14 days, then no plan until Free is chosen again', () => {
      const clock = createTestClock(start);
      const end = unixSeconds(clock.now()) + 14 * 86_400;
      const user = { plan: 'Free', planExpiresAt: end };
      expect(inForce(user, clock.now())).toBe('Free');
      clock.advance(14 * DAY_MS - 1000);
      expect(inForce(user, clock.now())).toBe('Free');
      clock.advance(1000);
      expect(effectivePlan(user, clock.now())).toBe(NO_PLAN);
      expect(NO_PLAN).toMatchObject({ name: 'None', maxMonitors: 0, maxAccounts: 0, channels: [] });
      expect(planInForceUntil(user)).toBe(end);
      // Choosing Free again starts another period.
      const again = { plan: 'Free', planExpiresAt: unixSeconds(clock.now()) + 14 * 86_400 };
      expect(inForce(again, clock.now())).toBe('Free');
    });

    it('activates a paid plan, follows its end with 14 days of Free, then no plan', () => {
      const clock = createTestClock(start);
      const end = unixSeconds(clock.now()) + 30 * 86_400;
      const pro = { plan: 'Pro', planExpiresAt: end };
      expect(inForce(pro, clock.now())).toBe('Pro');
      clock.advance(30 * DAY_MS - 1000);
      expect(inForce(pro, clock.now())).toBe('Pro');
      clock.advance(1000);
      expect(effectivePlan(pro, clock.now())).toBe(FREE_PLAN);
      expect(planInForceUntil(pro)).toBe(end + 14 * 86_400);
      clock.advance(14 * DAY_MS - 1000);
      expect(inForce(pro, clock.now())).toBe('Free');
      clock.advance(1000);
      expect(effectivePlan(pro, clock.now())).toBe(NO_PLAN);
      // Written down by the plan-limits job, the follow-up Free period gives the same answers.
      const followUp = { plan: 'Free', planExpiresAt: end + 14 * 86_400 };
      expect(effectivePlan(followUp, clock.now())).toBe(NO_PLAN);
      clock.advance(-1000);
      expect(inForce(followUp, clock.now())).toBe('Free');
    });

    it('reads a plan name it does not know as Free', () => {
      const clock = createTestClock(start);
      const user = { plan: 'Platinum', planExpiresAt: unixSeconds(clock.now()) + 86_400 };
      expect(effectivePlan(user, clock.now())).toBe(FREE_PLAN);
    });
  });
});
