import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../db/store.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { queueNotices } from '../../jobs/send-account-notice.job.ts';
import { addMs, type Clock, DAY_MS, MINUTE_MS } from '../../lib/clock.ts';
import { findPlan, FREE_PLAN, PLAN_CATALOGUE } from '../plans/plan-catalogue.ts';
import { formatDay } from './billing-format.ts';
import {
  bringWithinPlan,
  everyInWords,
  FREE_PERIOD_SECONDS,
  monitorsToRun,
  PRICING_PATH,
} from './plan-limits.ts';

/** People handled per query; each one in a transaction of its own. */
const BATCH = 100;
/** "Before it happens": a plan that will not renew is warned about this long before it ends. */
export const PLAN_END_WARNING_MS = 3 * DAY_MS;
/** A notice unsent this long after it was written lost its job (or its worker died). */
const STRANDED_NOTICE_MS = MINUTE_MS;
/** Notices are re-sent for a day; one still refused after that is given up (the log says why). */
const NOTICE_RESEND_WINDOW_MS = DAY_MS;

const CATALOGUE = {
  plans: PLAN_CATALOGUE.map((plan) => plan.name),
  paidPlans: PLAN_CATALOGUE.filter((plan) => plan.checkout).map((plan) => plan.name),
  freeSeconds: FREE_PERIOD_SECONDS,
};

const dayOf = (seconds: number) => formatDay(new Date(seconds * 1000));

/**
 * Limits over time, run every minute by the `apply-plan-limits` job: applies the plan in force to everyone whose
 * plan changed since their limits were last applied, warns those whose plan ends within 3 days and will not
 * renew, and re-queues notices whose job was lost. Every notice is queued after its transaction commits.
 */
export function createPlanLimitsSweep(deps: {
  store: Store;
  clock: Clock;
  queue: JobQueue;
  publicUrl: string;
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
}) {
  const { store, clock, queue, log } = deps;

  /** (a) A plan expired, a Free period ended, a paid plan ended: bring each person within the plan now. */
  async function applyDue(): Promise<number> {
    let afterId: string | null = null;
    let changed = 0;
    for (;;) {
      const now = clock.now();
      const ids = await store.planLimits.limitsDue(now, CATALOGUE, afterId, BATCH);
      for (const userId of ids) {
        try {
          const change = await store.transaction((tx) => bringWithinPlan(tx, userId, now));
          if (!change) continue;
          changed += 1;
          log.info(
            {
              userId,
              plan: change.plan,
              previousPlan: change.previousPlan,
              paused: change.paused.length,
              resumed: change.resumed.length,
            },
            'plan limits applied',
          );
          await queueNotices(queue, [change.noticeId]);
        } catch (error) {
          log.error({ err: error, userId }, 'applying plan limits failed; the next sweep tries again');
        }
      }
      if (ids.length < BATCH) return changed;
      afterId = ids[ids.length - 1]!;
    }
  }

  /** The "before it happens" email for one person, once per plan end; the notice's id, or null. */
  async function warnOne(userId: string, now: Date): Promise<string | null> {
    return store.transaction(async (tx) => {
      const user = await tx.planLimits.lockUser(userId);
      const end = user?.planExpiresAt ?? null;
      if (!user || end === null || user.planEndWarnedFor === end) return null;
      if (end * 1000 <= now.getTime() || end * 1000 > now.getTime() + PLAN_END_WARNING_MS) return null;
      const plan = findPlan(user.plan) ?? FREE_PLAN;
      if (plan.checkout && (await tx.planLimits.renews(user.id))) return null;
      await tx.planLimits.updateUser(user.id, { planEndWarnedFor: end }, now);
      const monitors = await tx.planLimits.monitorsOf(user.id);
      // Nothing to lose, nothing to say: a person without monitors is not emailed.
      if (monitors.length === 0) return null;
      const running = monitors.filter((monitor) => !monitor.paused).length;
      const pricing = `${deps.publicUrl}${PRICING_PATH}`;
      let subject: string;
      let lines: string[];
      if (!plan.checkout) {
        subject = `Your Vigil Free period ends on ${dayOf(end)}`;
        lines = [
          running === 0
            ? `Your Free period ends on ${dayOf(end)}: Vigil stops watching then.`
            : `Your Free period ends on ${dayOf(end)}: your ${running === 1 ? 'monitor pauses' : `${running} monitors pause`} then.`,
          '',
          `Choose a plan to keep them running: ${pricing}`,
          `Choosing Free again starts another ${FREE_PLAN.periodDays} days.`,
        ];
      } else {
        const accounts = await tx.planLimits.accountsOf(user.id);
        const { pause } = monitorsToRun(FREE_PLAN, accounts, monitors);
        subject = `Your Vigil ${plan.name} plan ends on ${dayOf(end)}`;
        lines = [
          `Your ${plan.name} plan ends on ${dayOf(end)} and will not renew.`,
          `Your account then runs on the Free plan for ${FREE_PLAN.periodDays} days: up to ${FREE_PLAN.maxMonitors} monitors and ${FREE_PLAN.maxAccounts} connected account, checks every ${everyInWords(FREE_PLAN.minIntervalSeconds)} and email alerts only.`,
          pause.length > 0
            ? `${pause.length === 1 ? '1 of your monitors pauses' : `${pause.length} of your monitors pause`} then (nothing is deleted), and call and SMS alerts turn into emails.`
            : 'Call and SMS alerts then turn into emails.',
          '',
          `Keep ${plan.name}: ${pricing}`,
        ];
      }
      return tx.notices.add({
        userId: user.id,
        key: `plan-ending:${user.id}:${end}`,
        recipient: user.contactEmail ?? user.email,
        subject,
        text: lines.join('\n'),
        now,
      });
    });
  }

  /** (b) Plans ending within 3 days that will not renew: one email per plan end. */
  async function warnEnding(): Promise<number> {
    let afterId: string | null = null;
    let warned = 0;
    for (;;) {
      const now = clock.now();
      const rows = await store.planLimits.endingSoon(
        now,
        addMs(now, PLAN_END_WARNING_MS),
        CATALOGUE.paidPlans,
        afterId,
        BATCH,
      );
      for (const row of rows) {
        try {
          const noticeId = await warnOne(row.id, now);
          if (noticeId) warned += 1;
          await queueNotices(queue, [noticeId]);
        } catch (error) {
          log.error(
            { err: error, userId: row.id },
            'warning of a plan end failed; the next sweep tries again',
          );
        }
      }
      if (rows.length < BATCH) return warned;
      afterId = rows[rows.length - 1]!.id;
    }
  }

  /** (c) Notices whose job was lost between the commit and the queue, or whose sending failed. */
  async function requeueUnsent(): Promise<number> {
    const now = clock.now();
    const ids = await store.notices.unsent(500, {
      createdBefore: addMs(now, -STRANDED_NOTICE_MS),
      createdAfter: addMs(now, -NOTICE_RESEND_WINDOW_MS),
    });
    await queueNotices(queue, ids);
    return ids.length;
  }

  return {
    applyDue,
    warnEnding,
    requeueUnsent,
    async run() {
      return { applied: await applyDue(), warned: await warnEnding(), requeued: await requeueUnsent() };
    },
  };
}
