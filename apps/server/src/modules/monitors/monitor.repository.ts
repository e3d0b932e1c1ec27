import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { monitors, users } from '../../db/schema.ts';

export type MonitorRow = typeof monitors.$inferSelect;

/** What a person sets on a monitor; the engine owns the rest (status, next check, results). */
export type MonitorSettings = Pick<
  MonitorRow,
  | 'name'
  | 'service'
  | 'target'
  | 'conditions'
  | 'intervalSeconds'
  | 'repeatIntervalMinutes'
  | 'confirmations'
  | 'alertSettings'
  | 'languageCode'
>;

export function createMonitorRepository(db: Db) {
  const owned = (userId: string, ids: string[]) =>
    and(eq(monitors.userId, userId), inArray(monitors.id, ids));

  return {
    /** Holds the user's row until the transaction ends, so two creates cannot both pass the plan's limit. */
    async lockOwner(userId: string): Promise<void> {
      await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    },

    async countOfUser(userId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(monitors).where(eq(monitors.userId, userId));
      return Number(row?.n ?? 0);
    },

    /** The first check is due at once; `check_state` starts empty. */
    async insert(userId: string, settings: MonitorSettings, now: Date): Promise<MonitorRow> {
      const [row] = await db
        .insert(monitors)
        .values({
          ...settings,
          userId,
          paused: false,
          status: 'pending',
          nextCheckAt: now,
          checkState: {},
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return row!;
    },

    async findOwned(userId: string, id: string): Promise<MonitorRow | undefined> {
      const [row] = await db
        .select()
        .from(monitors)
        .where(and(eq(monitors.userId, userId), eq(monitors.id, id)));
      return row;
    },

    /**
     * Changes the settings and keeps the history. A changed interval brings the next check no later than one
     * new interval from now (a check already due sooner stays due).
     */
    async updateSettings(
      userId: string,
      id: string,
      settings: MonitorSettings,
      now: Date,
    ): Promise<MonitorRow | undefined> {
      const soonest = new Date(now.getTime() + settings.intervalSeconds * 1000).toISOString();
      const [row] = await db
        .update(monitors)
        .set({
          ...settings,
          nextCheckAt: sql`case when ${monitors.intervalSeconds} = ${settings.intervalSeconds} then ${monitors.nextCheckAt} else least(${monitors.nextCheckAt}, ${soonest}::timestamptz) end`,
          updatedAt: now,
        })
        .where(and(eq(monitors.userId, userId), eq(monitors.id, id)))
        .returning();
      return row;
    },

    /** The user's monitors, newest first. */
    async pageOfUser(userId: string, limit: number, offset: number): Promise<MonitorRow[]> {
      return db
        .select()
        .from(monitors)
        .where(eq(monitors.userId, userId))
        .orderBy(desc(monitors.createdAt), desc(monitors.id))
        .limit(limit)
        .offset(offset);
    },

    /** How many of `ids` (distinct) the user owns; rows are locked until the transaction ends. */
    async lockOwned(userId: string, ids: string[]): Promise<number> {
      const rows = await db
        .select({ id: monitors.id })
        .from(monitors)
        .where(owned(userId, ids))
        .for('update');
      return rows.length;
    },

    async deleteOwned(userId: string, ids: string[]): Promise<number> {
      const rows = await db.delete(monitors).where(owned(userId, ids)).returning({ id: monitors.id });
      return rows.length;
    },

    /**
     * Moves the next check of a running monitor to `now`, unless a worker holds it for a check right now
     * (its result is on the way). Answers whether it moved.
     */
    async checkNow(userId: string, id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(monitors)
        .set({ nextCheckAt: now, updatedAt: now })
        .where(
          and(
            owned(userId, [id]),
            eq(monitors.paused, false),
            sql`(${monitors.claimedUntil} is null or ${monitors.claimedUntil} <= ${now.toISOString()}::timestamptz)`,
          ),
        )
        .returning({ id: monitors.id });
      return rows.length > 0;
    },

    /** Starting a paused monitor checks it at once; a running one keeps its schedule. */
    async setPaused(userId: string, ids: string[], paused: boolean, now: Date): Promise<number> {
      const rows = await db
        .update(monitors)
        .set(
          paused
            ? { paused, updatedAt: now }
            : {
                paused,
                nextCheckAt: sql`case when ${monitors.paused} then ${now.toISOString()}::timestamptz else ${monitors.nextCheckAt} end`,
                updatedAt: now,
              },
        )
        .where(owned(userId, ids))
        .returning({ id: monitors.id });
      return rows.length;
    },
  };
}
export type MonitorRepository = ReturnType<typeof createMonitorRepository>;
