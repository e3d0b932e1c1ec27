import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { at, rowsOf } from '../../db/raw-sql.ts';
import { billingAccounts, monitors, providerConnections, users } from '../../db/schema.ts';
import { endIncidentsOfPaused } from '../alerts/incident.repository.ts';
import type { UserRow } from '../users/user.repository.ts';

/** What applying a plan's limits reads of a monitor. */
export interface LimitedMonitorRow {
  id: string;
  name: string;
  paused: boolean;
  pauseReason: string | null;
  connectionId: string | null;
  intervalSeconds: number;
  alertSettings: unknown;
  createdAt: Date;
}

/** A connected account that counts against the plan: any connection of the person not disconnected. */
export interface CountedAccountRow {
  id: string;
  provider: string;
  account: string;
  name: string;
  /** Monitors watching through it. */
  monitors: number;
}

/** A person whose plan ends soon, as the warning sweep sees them. */
export interface PlanEndingRow {
  id: string;
  plan: string;
  planExpiresAt: number;
}

// Spelled out: drizzle leaves the columns of a one-table select unqualified inside a subquery.
const monitorsUsing = sql<number>`(select count(*) from monitors as m where m.connection_id = provider_connections.id)::int`;

/**
 * The reads and writes behind plan limits (modules/billing/plan-limits.ts): the person's row, monitors and
 * counted accounts, and the people whose limits or plan-end warning are due.
 */
export function createPlanLimitsRepository(db: Db) {
  return {
    /** The person's row, held until the transaction ends: limits, plan changes and creates go one at a time. */
    async lockUser(userId: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, userId)).for('update');
      return row;
    },

    async updateUser(
      userId: string,
      patch: Partial<Pick<UserRow, 'plan' | 'planExpiresAt' | 'limitsPlan' | 'planEndWarnedFor'>>,
      now: Date,
    ): Promise<void> {
      await db
        .update(users)
        .set({ ...patch, updatedAt: now })
        .where(eq(users.id, userId));
    },

    /** Every monitor of the person, oldest first (the order limits keep them running in). */
    async monitorsOf(userId: string): Promise<LimitedMonitorRow[]> {
      return db
        .select({
          id: monitors.id,
          name: monitors.name,
          paused: monitors.paused,
          pauseReason: monitors.pauseReason,
          connectionId: monitors.connectionId,
          intervalSeconds: monitors.intervalSeconds,
          alertSettings: monitors.alertSettings,
          createdAt: monitors.createdAt,
        })
        .from(monitors)
        .where(eq(monitors.userId, userId))
        .orderBy(asc(monitors.createdAt), asc(monitors.id));
    },

    /** The person's connected accounts that count against the plan, oldest first, with their monitors. */
    async accountsOf(userId: string): Promise<CountedAccountRow[]> {
      return db
        .select({
          id: providerConnections.id,
          provider: providerConnections.provider,
          account: providerConnections.account,
          name: providerConnections.name,
          monitors: monitorsUsing,
        })
        .from(providerConnections)
        .where(and(eq(providerConnections.userId, userId), ne(providerConnections.status, 'disconnected')))
        .orderBy(asc(providerConnections.createdAt), asc(providerConnections.id));
    },

    async countRunning(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(monitors)
        .where(and(eq(monitors.userId, userId), eq(monitors.paused, false)));
      return Number(row?.n ?? 0);
    },

    /** Pauses running monitors for the plan, saying why, and ends their unresolved incidents. */
    async pause(userId: string, ids: string[], reason: string, now: Date): Promise<void> {
      if (ids.length === 0) return;
      const paused = await db
        .update(monitors)
        .set({ paused: true, pauseReason: reason, updatedAt: now })
        .where(and(eq(monitors.userId, userId), inArray(monitors.id, ids)))
        .returning({ id: monitors.id });
      await endIncidentsOfPaused(
        db,
        paused.map((row) => row.id),
        now,
      );
    },

    /** Resumes monitors Vigil paused; each is checked at once. */
    async resume(userId: string, ids: string[], now: Date): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(monitors)
        .set({ paused: false, pauseReason: null, nextCheckAt: now, updatedAt: now })
        .where(and(eq(monitors.userId, userId), inArray(monitors.id, ids)));
    },

    /**
     * Brings one monitor's settings within the plan. A raised interval moves the next check no later than one
     * new interval from now, as editing the interval does (a check due sooner stays due).
     */
    async limitSettings(
      id: string,
      patch: { intervalSeconds?: number; alertSettings?: unknown },
      now: Date,
    ): Promise<void> {
      const interval = patch.intervalSeconds;
      await db
        .update(monitors)
        .set({
          ...patch,
          ...(interval === undefined
            ? {}
            : {
                nextCheckAt: sql`least(${monitors.nextCheckAt}, ${at(new Date(now.getTime() + interval * 1000))})`,
              }),
          updatedAt: now,
        })
        .where(eq(monitors.id, id));
    },

    /**
     * People whose monitors were last brought within another plan than the one in force at `now` (a plan or a
     * Free period ended), or whose paid plan ended and its Free follow-up is not written down yet; by id, after
     * `afterId`. Only people who chose a plan once (`plan_expires_at` set). `paidPlans` are the catalogue's
     * paid plan names and `freeSeconds` the length of the Free period after one.
     */
    async limitsDue(
      now: Date,
      catalogue: { plans: string[]; paidPlans: string[]; freeSeconds: number },
      afterId: string | null,
      limit: number,
    ): Promise<string[]> {
      const nowSeconds = Math.floor(now.getTime() / 1000);
      const list = (names: string[]) =>
        sql.join(
          names.map((name) => sql`${name}`),
          sql`, `,
        );
      const inForce = sql`case
        when u.plan_expires_at > ${nowSeconds} then (case when u.plan in (${list(catalogue.plans)}) then u.plan else 'Free' end)
        when u.plan in (${list(catalogue.paidPlans)}) and u.plan_expires_at + ${catalogue.freeSeconds} > ${nowSeconds} then 'Free'
        else 'None' end`;
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`select u.id::text as id from users as u
          where u.plan_expires_at is not null
            and (u.limits_plan is distinct from (${inForce})
              or (u.plan in (${list(catalogue.paidPlans)}) and u.plan_expires_at <= ${nowSeconds}))
            ${afterId ? sql`and u.id > ${afterId}::uuid` : sql``}
          order by u.id
          limit ${limit}`,
      );
      return rows.map((row) => row.id);
    },

    /**
     * People whose plan ends within `(now, until]` and will not renew (Free, or a paid plan — one of
     * `paidPlans` — without a subscription that renews: see `renews`), not warned for that end yet; by id after
     * `afterId`.
     */
    async endingSoon(
      now: Date,
      until: Date,
      paidPlans: string[],
      afterId: string | null,
      limit: number,
    ): Promise<PlanEndingRow[]> {
      const from = Math.floor(now.getTime() / 1000);
      const to = Math.floor(until.getTime() / 1000);
      const rows = await rowsOf<{ id: string; plan: string; plan_expires_at: string | number }>(
        db,
        sql`select u.id::text as id, u.plan, u.plan_expires_at::text as plan_expires_at from users as u
          where u.plan_expires_at > ${from} and u.plan_expires_at <= ${to}
            and u.plan_end_warned_for is distinct from u.plan_expires_at
            and (u.plan not in (${sql.join(
              paidPlans.map((name) => sql`${name}`),
              sql`, `,
            )}) or not exists (select 1 from billing_accounts as b where b.user_id = u.id
              and b.subscription_id is not null and b.status in ('active', 'trialing')
              and not b.cancel_at_period_end))
            ${afterId ? sql`and u.id > ${afterId}::uuid` : sql``}
          order by u.id
          limit ${limit}`,
      );
      return rows.map((row) => ({ id: row.id, plan: row.plan, planExpiresAt: Number(row.plan_expires_at) }));
    },

    /**
     * Whether the person's paid plan renews by itself: a Stripe subscription that is active (or trialing) and
     * not set to cancel. A failed renewal (past_due) or a cancelled one does not; nor does a plan without one.
     */
    async renews(userId: string): Promise<boolean> {
      const [row] = await db
        .select({
          subscriptionId: billingAccounts.subscriptionId,
          status: billingAccounts.status,
          cancelAtPeriodEnd: billingAccounts.cancelAtPeriodEnd,
        })
        .from(billingAccounts)
        .where(eq(billingAccounts.userId, userId));
      return (
        !!row?.subscriptionId &&
        (row.status === 'active' || row.status === 'trialing') &&
        !row.cancelAtPeriodEnd
      );
    },
  };
}
export type PlanLimitsRepository = ReturnType<typeof createPlanLimitsRepository>;
