import type { Plan, UserInfo } from '@vigil/contracts';
import type { Store } from '../../db/store.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { queueNotices } from '../../jobs/send-account-notice.job.ts';
import { AppError } from '../../lib/app-error.ts';
import { type Clock, DAY_MS, unixSeconds } from '../../lib/clock.ts';
import { bringWithinPlan } from '../billing/plan-limits.ts';
import type { AuthSession } from '../sessions/session.service.ts';
import { toUserInfo } from '../users/user.service.ts';
import { findPlan, PLAN_CATALOGUE } from './plan-catalogue.ts';

export function createPlanService(deps: {
  store: Store;
  /** Sends the notice a plan change writes, after it commits. */
  queue: JobQueue;
  clock: Clock;
  /** Whether paid plans can be bought here (Stripe or its sandbox); without, only Free is listed. */
  paidPlans: boolean;
}) {
  const { store, clock } = deps;
  const sessionEnded = () => new AppError('UNAUTHORIZED', 'Your session has ended. Sign in again.');
  return {
    list: (): Plan[] => PLAN_CATALOGUE.filter((plan) => deps.paidPlans || !plan.checkout),

    /**
     * Free starts a new 14-day period now; paid plans start only when their checkout is paid. The plan's limits
     * apply in the same transaction, so monitors paused when the last period ended resume at once.
     */
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
      const now = clock.now();
      const { updated, noticeId } = await store.transaction(async (tx) => {
        const user = await tx.planLimits.lockUser(session.userId);
        if (!user) throw sessionEnded();
        const current = findPlan(user.plan);
        if (current?.checkout && user.planExpiresAt !== null && user.planExpiresAt > unixSeconds(now)) {
          const until = new Date(user.planExpiresAt * 1000).toISOString().slice(0, 10);
          throw new AppError(
            'INVALID',
            `Your ${current.name} plan is paid until ${until}; it cannot be swapped for ${plan.name} before then.`,
          );
        }
        await tx.users.update(
          session.userId,
          {
            plan: plan.name,
            planExpiresAt: unixSeconds(now) + Math.round((plan.periodDays * DAY_MS) / 1000),
          },
          now,
        );
        const change = await bringWithinPlan(tx, session.userId, now);
        return { updated: await tx.users.findById(session.userId), noticeId: change?.noticeId ?? null };
      });
      if (!updated) throw sessionEnded();
      await queueNotices(deps.queue, [noticeId]);
      return toUserInfo(updated);
    },
  };
}
export type PlanService = ReturnType<typeof createPlanService>;
