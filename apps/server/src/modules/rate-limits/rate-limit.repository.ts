import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { rateLimitCounters } from '../../db/schema.ts';

export interface Counter {
  count: number;
  windowStartedAt: Date;
}

export function createRateLimitRepository(db: Db) {
  return {
    /**
     * Adds one to the counter in a single statement (safe across processes); a counter whose window has
     * passed starts again at 1 with a new window.
     */
    async hit(key: string, now: Date, windowMs: number): Promise<Counter> {
      const stale = sql`${rateLimitCounters.windowStartedAt} <= ${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
      const [row] = await db
        .insert(rateLimitCounters)
        .values({ key, count: 1, windowStartedAt: now })
        .onConflictDoUpdate({
          target: rateLimitCounters.key,
          set: {
            count: sql`case when ${stale} then 1 else ${rateLimitCounters.count} + 1 end`,
            windowStartedAt: sql`case when ${stale} then excluded.window_started_at else ${rateLimitCounters.windowStartedAt} end`,
          },
        })
        .returning({ count: rateLimitCounters.count, windowStartedAt: rateLimitCounters.windowStartedAt });
      return row!;
    },

    async refund(key: string): Promise<void> {
      await db
        .update(rateLimitCounters)
        .set({ count: sql`greatest(${rateLimitCounters.count} - 1, 0)` })
        .where(eq(rateLimitCounters.key, key));
    },

    async clear(key: string): Promise<void> {
      await db.delete(rateLimitCounters).where(eq(rateLimitCounters.key, key));
    },
  };
}
export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;
