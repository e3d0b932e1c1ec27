import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { at, rowsOf } from '../db/raw-sql.ts';
import type { NewPartitionRange, PartitionRange } from './result-partitions.ts';

/** Any constant shared by every Vigil process: one partition maintenance at a time. */
const PARTITION_LOCK_ID = 7_263_512;

export interface ResultPartition extends PartitionRange {
  name: string;
}

/** A bound as a literal: partition bounds cannot be parameters. An ISO string from a Date is safe to inline. */
const bound = (date: Date | null) =>
  date === null ? sql.raw('MINVALUE') : sql.raw(`'${date.toISOString()}'`);

/**
 * The partitions of `check_results` (DDL and the `check_result_partitions` record of them). Use it inside one
 * transaction, `lock()` first: the lock is held until it ends, so maintenance from several processes runs
 * one at a time and each sees what the one before did.
 */
export function createResultPartitionRepository(db: Db) {
  return {
    /**
     * Serialises maintenance, and bounds how long any of its statements waits for a table lock: while one
     * waits, the engine's inserts queue behind it, so it rather fails and tries again on the next run.
     */
    async lock(lockTimeoutMs: number): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK_ID})`);
      await db.execute(sql.raw(`set local lock_timeout = ${Math.round(lockTimeoutMs)}`));
    },

    async list(): Promise<ResultPartition[]> {
      const rows = await rowsOf<{ name: string; from_ms: number | null; to_ms: number }>(
        db,
        sql`select name, (extract(epoch from from_at) * 1000)::float8 as from_ms,
              (extract(epoch from to_at) * 1000)::float8 as to_ms
            from check_result_partitions order by to_at`,
      );
      return rows.map((row) => ({
        name: row.name,
        from: row.from_ms === null ? null : new Date(row.from_ms),
        to: new Date(row.to_ms),
      }));
    },

    /** The oldest and newest slot among results in the DEFAULT partition from `since` on. */
    async strays(since: Date): Promise<{ min: Date; max: Date } | null> {
      const [row] = await rowsOf<{ min_ms: number | null; max_ms: number | null }>(
        db,
        sql`select (extract(epoch from min(slot_at)) * 1000)::float8 as min_ms,
              (extract(epoch from max(slot_at)) * 1000)::float8 as max_ms
            from check_results_default where slot_at >= ${at(since)}`,
      );
      if (row?.min_ms == null || row.max_ms == null) return null;
      return { min: new Date(row.min_ms), max: new Date(row.max_ms) };
    },

    /**
     * Creates one partition: a plain table, the DEFAULT partition's rows of its range moved into it, then
     * ATTACH (a SHARE UPDATE EXCLUSIVE lock on `check_results`, so inserts and reads go on; CREATE TABLE …
     * PARTITION OF would take ACCESS EXCLUSIVE). ATTACH scans the new table and the DEFAULT partition, both
     * small, and adds the primary key and foreign key. Returns how many rows moved.
     */
    async create(name: string, range: NewPartitionRange): Promise<number> {
      const table = sql.identifier(name);
      await db.execute(
        sql`create table ${table} (like check_results including defaults including constraints)`,
      );
      const [moved] = await rowsOf<{ n: number }>(
        db,
        sql`with moved as (
              delete from check_results_default where slot_at >= ${at(range.from)} and slot_at < ${at(range.to)}
              returning monitor_id, slot_at, checked_at, ok, response_ms, status_code, failed_conditions, error),
            copied as (
              insert into ${table} (monitor_id, slot_at, checked_at, ok, response_ms, status_code, failed_conditions, error)
              select * from moved
              returning 1)
            select count(*)::int as n from copied`,
      );
      await db.execute(
        sql`alter table check_results attach partition ${table}
            for values from (${bound(range.from)}) to (${bound(range.to)})`,
      );
      await db.execute(
        sql`insert into check_result_partitions (name, from_at, to_at)
            values (${name}, ${at(range.from)}, ${at(range.to)})`,
      );
      return moved?.n ?? 0;
    },

    /** Drops a partition whole, with its rows (an ACCESS EXCLUSIVE lock on `check_results` for an instant). */
    async drop(name: string): Promise<void> {
      await db.execute(sql`drop table ${sql.identifier(name)}`);
      await db.execute(sql`delete from check_result_partitions where name = ${name}`);
    },

    /** Deletes results left in the DEFAULT partition that are past the retention; there are only ever a few. */
    async deleteStraysBefore(before: Date): Promise<number> {
      const [row] = await rowsOf<{ n: number }>(
        db,
        sql`with gone as (delete from check_results_default where slot_at < ${at(before)} returning 1)
            select count(*)::int as n from gone`,
      );
      return row?.n ?? 0;
    },
  };
}
export type ResultPartitionRepository = ReturnType<typeof createResultPartitionRepository>;
