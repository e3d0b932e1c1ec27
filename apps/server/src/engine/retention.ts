import type { Store } from '../db/store.ts';
import { HOUR_MS } from '../lib/clock.ts';

/** Hours rolled up again on each run: the current one, still filling, and the two before it. */
const RECENT_HOURS = 2;
const DELETE_BATCH = 10_000;

function startOfHour(ms: number): Date {
  return new Date(Math.floor(ms / HOUR_MS) * HOUR_MS);
}

/**
 * Rolls the recent hours' raw results up (upsert, so runs may repeat) and deletes raw results older than
 * the retention window, cut on an hour boundary so an hour is deleted whole, long after its last roll-up.
 * Only hours whose raw results are all still kept are rolled up, so a roll-up is never overwritten with
 * part of its hour. Run every few minutes, storage stays flat: retention × checks/hour raw rows, plus one
 * roll-up row per monitor and hour.
 */
export async function rollUpAndPrune(
  store: Store,
  now: Date,
  retentionHours: number,
): Promise<{ rolledUp: number; deleted: number }> {
  const cutoff = startOfHour(now.getTime() - retentionHours * HOUR_MS);
  const recent = startOfHour(now.getTime() - RECENT_HOURS * HOUR_MS);
  const from = recent.getTime() > cutoff.getTime() ? recent : cutoff;
  const rolledUp = await store.checks.rollUp(from);
  let deleted = 0;
  for (;;) {
    const n = await store.checks.deleteResultsBefore(cutoff, DELETE_BATCH);
    deleted += n;
    if (n < DELETE_BATCH) break;
  }
  return { rolledUp, deleted };
}
