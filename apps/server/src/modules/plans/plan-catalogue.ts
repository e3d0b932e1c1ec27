import type { Plan } from '@vigil/contracts';
import { unixSeconds } from '../../lib/clock.ts';

/** Every plan Vigil sells, in the order the pricing page shows them. The one place plan limits are written. */
export const PLAN_CATALOGUE: readonly Plan[] = [
  {
    name: 'Free',
    priceYearlyCents: 0,
    maxAccounts: 1,
    priceMonthlyCents: 0,
    periodDays: 14,
    maxMonitors: 3,
    minIntervalSeconds: 300,
    channels: ['email'],
    smsPerMonth: 0,
    callsPerMonth: 0,
    highlights: [
      '3 monitors, 1 connected account',
      'Checks every 5 minutes',
      'Email alerts',
      '14 days, renew any time',
    ],
    checkout: false,
  },
  {
    name: 'Starter',
    priceYearlyCents: 19000,
    maxAccounts: 3,
    priceMonthlyCents: 1900,
    periodDays: 30,
    maxMonitors: 20,
    minIntervalSeconds: 60,
    channels: ['email', 'sms'],
    smsPerMonth: 100,
    callsPerMonth: 0,
    highlights: [
      '20 monitors, 3 connected accounts',
      'Checks every minute',
      'Email and SMS alerts',
      '100 SMS a month',
    ],
    checkout: true,
  },
  {
    name: 'Pro',
    priceYearlyCents: 49000,
    maxAccounts: 10,
    priceMonthlyCents: 4900,
    periodDays: 30,
    maxMonitors: 100,
    minIntervalSeconds: 60,
    channels: ['email', 'sms', 'call'],
    smsPerMonth: 500,
    callsPerMonth: 100,
    highlights: [
      '100 monitors, 10 connected accounts',
      'Checks every minute',
      'Phone call alerts',
      '500 SMS and 100 calls a month',
    ],
    checkout: true,
  },
  {
    name: 'Business',
    priceYearlyCents: 149000,
    maxAccounts: 50,
    priceMonthlyCents: 14900,
    periodDays: 30,
    maxMonitors: 500,
    minIntervalSeconds: 30,
    channels: ['email', 'sms', 'call'],
    smsPerMonth: 2000,
    callsPerMonth: 500,
    highlights: [
      '500 monitors, 50 connected accounts',
      'Checks every 30 seconds',
      'Phone call alerts',
      '2,000 SMS and 500 calls a month',
    ],
    checkout: true,
  },
];

export const FREE_PLAN = PLAN_CATALOGUE[0]!;

/** The plan of that name, ignoring case and surrounding spaces ('free' is Free). */
export function findPlan(name: string): Plan | undefined {
  const wanted = name.trim().toLowerCase();
  return PLAN_CATALOGUE.find((plan) => plan.name.toLowerCase() === wanted);
}

/**
 * What runs when no plan does (a Free period that ended): nothing is checked, so every monitor is paused
 * until a plan starts again. Never listed or sold.
 */
export const NO_PLAN: Plan = {
  ...FREE_PLAN,
  name: 'None',
  maxMonitors: 0,
  maxAccounts: 0,
  channels: [],
  highlights: [],
};

const FREE_PERIOD_SECONDS = FREE_PLAN.periodDays * 86_400;

/**
 * The plan in force at `now`:
 * - a plan whose period runs (`planExpiresAt` ahead) is itself;
 * - a paid plan that ended is followed by a Free period of 14 days from its end (the plan-limits job writes
 *   that period down), so the monitors keep running on Free's limits while the person decides;
 * - a Free period that ended is no plan at all (NO_PLAN): DESIGN.md §1 item 3, choosing Free starts another;
 * - before any plan was chosen (`planExpiresAt` null) Free's limits apply: the spec's rule 2 sends the person
 *   to the pricing page, and nothing is enforced on an account that has not started.
 */
export function effectivePlan(user: { plan: string; planExpiresAt: number | null }, now: Date): Plan {
  const plan = findPlan(user.plan) ?? FREE_PLAN;
  if (user.planExpiresAt === null) return FREE_PLAN;
  const nowSeconds = unixSeconds(now);
  if (user.planExpiresAt > nowSeconds) return plan;
  if (plan.checkout && user.planExpiresAt + FREE_PERIOD_SECONDS > nowSeconds) return FREE_PLAN;
  return NO_PLAN;
}

/** When the plan in force ends, in Unix seconds (a paid plan's Free follow-up included); null if never started. */
export function planInForceUntil(user: { plan: string; planExpiresAt: number | null }): number | null {
  if (user.planExpiresAt === null) return null;
  const plan = findPlan(user.plan) ?? FREE_PLAN;
  return plan.checkout ? user.planExpiresAt + FREE_PERIOD_SECONDS : user.planExpiresAt;
}
