import type { Plan, UserInfo } from '@vigil/contracts';
import { AppError } from '../../lib/app-error.ts';
import { type Clock, DAY_MS, unixSeconds } from '../../lib/clock.ts';
import type { AuthSession } from '../sessions/session.service.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { toUserInfo } from '../users/user.service.ts';
import { findPlan, PLAN_CATALOGUE } from './plan-catalogue.ts';

export function createPlanService(deps: { users: UserRepository; clock: Clock }) {
  const { users, clock } = deps;
  return {
    list: (): Plan[] => [...PLAN_CATALOGUE],

    /** Free starts a new 14-day period now; paid plans start only when their checkout is paid. */
    async choose(session: AuthSession, name: string): Promise<UserInfo> {
      const plan = findPlan(name);
      if (!plan) {
        throw new AppError(
          'INVALID',
          `There is no plan called "${name.trim().slice(0, 40)}". Choose ${PLAN_CATALOGUE.map((p) => p.name).join(', ')}.`,
        );
      }
      if (plan.checkout) {
        throw new AppError(
          'INVALID',
          `The ${plan.name} plan is bought through checkout: choose it on the pricing page and pay to start it.`,
        );
      }
      const user = await users.findById(session.userId);
      if (!user) throw new AppError('UNAUTHORIZED', 'Your session has ended. Sign in again.');
      const now = clock.now();
      const current = findPlan(user.plan);
      if (current?.checkout && user.planExpiresAt !== null && user.planExpiresAt > unixSeconds(now)) {
        const until = new Date(user.planExpiresAt * 1000).toISOString().slice(0, 10);
        throw new AppError(
          'INVALID',
          `Your ${current.name} plan is paid until ${until}; it cannot be swapped for ${plan.name} before then.`,
        );
      }
      const updated = await users.update(
        session.userId,
        { plan: plan.name, planExpiresAt: unixSeconds(now) + Math.round((plan.periodDays * DAY_MS) / 1000) },
        now,
      );
      if (!updated) throw new AppError('UNAUTHORIZED', 'Your session has ended. Sign in again.');
      return toUserInfo(updated);
    },
  };
}
export type PlanService = ReturnType<typeof createPlanService>;
