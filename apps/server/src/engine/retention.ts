import type { Store } from '../db/store.ts';
import { HOUR_MS, MINUTE_MS } from '../lib/clock.ts';
import { partitionName, partitionWidthHours, planPartitions } from './result-partitions.ts';

/**
 * How long after an hour ends it is rolled up: a slot's result is written within its lease (35 s) while things
 * run, so the hour is whole by then. Results written later still (a worker down longer, a database restart) are
 * caught by the second pass, an hour later.
 */
const ROLL_UP_GRACE_MS = 15 * MINUTE_MS;
/** Where the first run on a database starts: as far back as each run re-read before progress was kept. */
const FIRST_RUN_HOURS = 2;
/** How long maintenance waits for a table lock before giving up until its next run. */
const LOCK_TIMEOUT_MS = 2_000;

function startOfHour(ms: number): Date {
  return new Date(Math.floor(ms / HOUR_MS) * HOUR_MS);
}

/** Results older than this are past the retention: cut on an hour boundary. */
const retentionCutoff = (now: Date, retentionHours: number) =>
  startOfHour(now.getTime() - retentionHours * HOUR_MS);

export interface PartitionMaintenance {
  /** Names of the partitions created, and of those dropped. */
  created: string[];
  dropped: string[];
  /** Results moved out of the DEFAULT partition into new partitions, and expired ones deleted from it. */
  moved: number;
  strayDeleted: number;
}

/**
 * Creates the partitions of `check_results` ahead of time (moving any results the DEFAULT partition caught
 * into them) and drops those wholly past the retention. Safe to run from several processes at once: an
 * advisory lock makes them take turns. Two transactions, so a drop that cannot get its lock never holds back
 * the partitions results are about to need.
 */
export async function maintainResultPartitions(
  store: Store,
  now: Date,
  retentionHours: number,
): Promise<PartitionMaintenance> {
  const cutoff = retentionCutoff(now, retentionHours);
  const widthHours = partitionWidthHours(retentionHours);
  const { created, moved } = await store.transaction(async (tx) => {
    await tx.resultPartitions.lock(LOCK_TIMEOUT_MS);
    const existing = await tx.resultPartitions.list();
    const strays = await tx.resultPartitions.strays(cutoff);
    const names: string[] = [];
    let rows = 0;
    for (const range of planPartitions({ existing, strays, now, oldest: cutoff, widthHours })) {
      const name = partitionName(range.from);
      rows += await tx.resultPartitions.create(name, range);
      names.push(name);
    }
    return { created: names, moved: rows };
  });
  const { dropped, strayDeleted } = await store.transaction(async (tx) => {
    await tx.resultPartitions.lock(LOCK_TIMEOUT_MS);
    const expired = (await tx.resultPartitions.list()).filter((partition) => partition.to <= cutoff);
    for (const partition of expired) await tx.resultPartitions.drop(partition.name);
    return {
      dropped: expired.map((partition) => partition.name),
      strayDeleted: await tx.resultPartitions.deleteStraysBefore(cutoff),
    };
  });
  return { created, dropped, moved, strayDeleted };
}

/**
 * Rolls up the hours that closed since the last run (upsert, so a pass may repeat), then keeps the partitions:
 * creates those ahead and drops those wholly older than the retention window, so storage stays flat (retention
 * plus at most one partition width of raw rows, and one roll-up row per monitor and hour). An hour is rolled up
 * ROLL_UP_GRACE_MS after it ends, and again with the next hour for the monitors that have a result of it written
 * late (checked after the hour ended); so each raw result is rolled up once and scanned twice, not rolled up on
 * every run. Hours are slot hours, as the history reads count them (they read raw results from a monitor's newest
 * rolled-up hour on). Only hours whose raw results are all still kept are rolled up, so a roll-up is never
 * overwritten with part of its hour; a partition is dropped long after its last roll-up.
 */
export async function rollUpAndPrune(
  store: Store,
  now: Date,
  retentionHours: number,
): Promise<{ rolledUp: number } & PartitionMaintenance> {
  const cutoff = retentionCutoff(now, retentionHours);
  const closed = startOfHour(now.getTime() - ROLL_UP_GRACE_MS);
  const rolledUp = await store.transaction(async (tx) => {
    const rolledUntil = await tx.checks.rolledUntil(startOfHour(now.getTime() - FIRST_RUN_HOURS * HOUR_MS));
    if (closed.getTime() <= rolledUntil.getTime()) return 0;
    // The hour rolled up last time, again for the monitors with a result checked after it ended: written after
    // that roll-up, or too close to it to be sure.
    const again = new Date(rolledUntil.getTime() - HOUR_MS);
    let count =
      again >= cutoff ? await tx.checks.rollUp(again, rolledUntil, { checkedFrom: rolledUntil }) : 0;
    count += await tx.checks.rollUp(new Date(Math.max(rolledUntil.getTime(), cutoff.getTime())), closed);
    await tx.checks.setRolledUntil(closed);
    return count;
  });
  return { rolledUp, ...(await maintainResultPartitions(store, now, retentionHours)) };
}
