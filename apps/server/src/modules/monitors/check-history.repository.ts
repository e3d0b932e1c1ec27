import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { at, rowsOf } from '../../db/raw-sql.ts';
import { checkResults } from '../../db/schema.ts';

/** Checks and failures over a window. */
export interface Tally {
  checks: number;
  failures: number;
}

/** One check as the status bar shows it. */
export interface RecentCheck {
  checkedAt: Date;
  ok: boolean;
  responseMs: number | null;
  statusCode: number | null;
  error: string | null;
}

export interface Bucket extends Tally {
  /** Start of the bucket, Unix milliseconds. */
  at: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

interface BucketRow {
  at: number;
  checks: number;
  failures: number;
  p50: number | null;
  p95: number | null;
}

const toBucket = (row: BucketRow): Bucket => ({
  at: Math.round(row.at * 1000),
  checks: row.checks,
  failures: row.failures,
  p50Ms: row.p50 === null ? null : Math.round(row.p50),
  p95Ms: row.p95 === null ? null : Math.round(row.p95),
});

/**
 * Reads of check history (the engine writes it). Hours before the newest rolled-up hour are read from
 * `check_rollups`; from the newest rolled-up hour on, raw `check_results` count (a result written late may still
 * reach the newest rolled-up hour, and raw results are kept far longer than an hour), so nothing is counted twice or missed.
 * Roll-up hours are whole UTC hours of the slot (`slot_at`, the partition key), the column every read here
 * filters on.
 */
export function createCheckHistoryRepository(db: Db) {
  return {
    /** Checks and failures of each monitor since `since`, by id. */
    async tallies(ids: string[], since: Date): Promise<Map<string, Tally>> {
      if (ids.length === 0) return new Map();
      const values = sql.join(
        ids.map((id) => sql`(${id}::uuid)`),
        sql`, `,
      );
      const rows = await rowsOf<{ id: string; checks: number; failures: number }>(
        db,
        sql`select m.id::text as id,
            (coalesce(ru.checks, 0) + coalesce(rw.checks, 0))::int as checks,
            (coalesce(ru.failures, 0) + coalesce(rw.failures, 0))::int as failures
          from (values ${values}) as m(id)
          left join lateral (
            select max(hour) as last_hour from check_rollups where monitor_id = m.id
          ) lh on true
          left join lateral (
            select sum(checks)::int as checks, sum(failures)::int as failures
            from check_rollups where monitor_id = m.id and hour >= ${at(since)} and hour < lh.last_hour
          ) ru on true
          left join lateral (
            select count(*)::int as checks, count(*) filter (where not ok)::int as failures
            from check_results where monitor_id = m.id and slot_at >= greatest(${at(since)}, lh.last_hour)
          ) rw on true`,
      );
      return new Map(rows.map((row) => [row.id, { checks: row.checks, failures: row.failures }]));
    },

    /** The monitor's last `limit` checks, oldest first (newest slots through the monitor-and-slot index). */
    async recent(monitorId: string, limit: number): Promise<RecentCheck[]> {
      const rows = await db
        .select({
          checkedAt: checkResults.checkedAt,
          ok: checkResults.ok,
          responseMs: checkResults.responseMs,
          statusCode: checkResults.statusCode,
          error: checkResults.error,
        })
        .from(checkResults)
        .where(eq(checkResults.monitorId, monitorId))
        .orderBy(desc(checkResults.slotAt))
        .limit(limit);
      return rows.reverse();
    },

    /** Raw results since `since` in buckets of `bucketSeconds`, oldest first; only buckets with checks. */
    async rawBuckets(monitorId: string, since: Date, bucketSeconds: number): Promise<Bucket[]> {
      return (await rawBucketRows(db, monitorId, at(since), bucketSeconds)).map(toBucket);
    },

    /** Hourly buckets since `since`: roll-ups, then raw results from the newest rolled-up hour on. */
    async hourlyBuckets(monitorId: string, since: Date): Promise<Bucket[]> {
      const lastHour = sql`(select max(hour) from check_rollups where monitor_id = ${monitorId}::uuid)`;
      const rolled = await rowsOf<BucketRow>(
        db,
        sql`select extract(epoch from hour)::float8 as at, checks, failures,
            p50_ms::float8 as p50, p95_ms::float8 as p95
          from check_rollups
          where monitor_id = ${monitorId}::uuid and hour >= ${at(since)} and hour < ${lastHour}
          order by hour`,
      );
      const raw = await rawBucketRows(db, monitorId, sql`greatest(${at(since)}, ${lastHour})`, 3600);
      return [...rolled, ...raw].map(toBucket);
    },
  };
}
export type CheckHistoryRepository = ReturnType<typeof createCheckHistoryRepository>;

function rawBucketRows(db: Db, monitorId: string, from: SQL, bucketSeconds: number): Promise<BucketRow[]> {
  const bucket = sql`(floor(extract(epoch from slot_at) / ${bucketSeconds}::int) * ${bucketSeconds}::int)::float8`;
  return rowsOf<BucketRow>(
    db,
    sql`select ${bucket} as at, count(*)::int as checks, count(*) filter (where not ok)::int as failures,
        percentile_cont(0.5) within group (order by response_ms)::float8 as p50,
        percentile_cont(0.95) within group (order by response_ms)::float8 as p95
      from check_results where monitor_id = ${monitorId}::uuid and slot_at >= ${from}
      group by 1 order by 1`,
  );
}
