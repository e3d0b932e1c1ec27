import { type Clock, DAY_MS, unixSeconds } from '../../lib/clock.ts';
import { findPlan, PLAN_CATALOGUE } from '../plans/plan-catalogue.ts';
import type { UserRepository } from './user.repository.ts';

/**
 * The sandbox page's "start a plan without checkout": puts an account on a plan for the plan's period, as
 * paying at checkout will. Paid plans cannot be bought yet, so without it the embedded demo could never try
 * SMS or call alerts. main.ts hands it to the sandbox only with SANDBOX=on, which is never on in production.
 */
export function createSandboxPlanGrant(deps: { users: UserRepository; clock: Clock }) {
  const { users, clock } = deps;
  return {
    names: PLAN_CATALOGUE.map((plan) => plan.name),

    async grant(email: string, name: string): Promise<{ ok: boolean; message: string }> {
      const plan = findPlan(name);
      if (!plan) return { ok: false, message: `There is no plan called "${name.trim().slice(0, 40)}".` };
      const user = await users.findByEmail(email.trim().toLowerCase());
      if (!user) return { ok: false, message: 'No account uses that email.' };
      const now = clock.now();
      const planExpiresAt = unixSeconds(now) + Math.round((plan.periodDays * DAY_MS) / 1000);
      await users.update(user.id, { plan: plan.name, planExpiresAt }, now);
      const until = new Date(planExpiresAt * 1000).toISOString().slice(0, 10);
      return { ok: true, message: `${user.email} is on ${plan.name} until ${until}.` };
    },
  };
}
