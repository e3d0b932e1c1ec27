import type { Plan } from '@vigil/contracts';
import { unixSeconds } from '../../lib/clock.ts';

/** Every plan Vigil sells, in the order the pricing page shows them. The one place plan limits are written. */
export const PLAN_CATALOGUE: readonly Plan[] = [
  {
    name: 'Free',
    priceMonthlyCents: 0,
    periodDays: 14,
    maxMonitors: 3,
    minIntervalSeconds: 300,
    channels: ['email'],
    smsPerMonth: 0,
    callsPerMonth: 0,
    highlights: ['3 monitors', 'Checks every 5 minutes', 'Email alerts', '14 days, renew any time'],
    checkout: false,
  },
  {
    name: 'Starter',
    priceMonthlyCents: 1900,
    periodDays: 30,
    maxMonitors: 20,
    minIntervalSeconds: 60,
    channels: ['email', 'sms'],
    smsPerMonth: 100,
    callsPerMonth: 0,
    highlights: ['20 monitors', 'Checks every minute', 'Email and SMS alerts', '100 SMS a month'],
    checkout: true,
  },
  {
    name: 'Pro',
    priceMonthlyCents: 4900,
    periodDays: 30,
    maxMonitors: 100,
    minIntervalSeconds: 60,
    channels: ['email', 'sms', 'call'],
    smsPerMonth: 500,
    callsPerMonth: 100,
    highlights: ['100 monitors', 'Checks every minute', 'Phone call alerts', '500 SMS and 100 calls a month'],
    checkout: true,
  },
  {
    name: 'Business',
    priceMonthlyCents: 14900,
    periodDays: 30,
    maxMonitors: 500,
    minIntervalSeconds: 30,
    channels: ['email', 'sms', 'call'],
    smsPerMonth: 2000,
    callsPerMonth: 500,
    highlights: [
      '500 monitors',
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

/** The plan a user has now: a paid plan whose period ended counts as Free. */
export function effectivePlan(user: { plan: string; planExpiresAt: number | null }, now: Date): Plan {
  const plan = findPlan(user.plan) ?? FREE_PLAN;
  if (plan.checkout && (user.planExpiresAt ?? 0) <= unixSeconds(now)) return FREE_PLAN;
  return plan;
}
