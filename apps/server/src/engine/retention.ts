import type { Database } from '../db/database.ts';
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
 * How the roll-up shares the machine: it rolls up `sliceMonitors` monitors at a time (more when that would make
 * over `maxSlices` slices) and rests between slices as long as the slice took, so it takes at most half a core
 * while the checks run beside it. Each slice reads the closed hours' results once and sorts its own monitors'.
 */
export interface RollUpPacing {
  sliceMonitors: number;
  maxSlices: number;
  rest(ms: number): Promise<void>;
}

/**
 * At 100,000 monitors an hour holds 6 M results, and rolling them up in one statement took a core for 10 s or
 * more: the checks beside it fell seconds behind on a slow machine (bench/README.md, seventeenth and eighteenth
 * sessions). A slice of 25,000 (1.5 M results) takes a few seconds. Each slice scans the hours whole, so the
 * slices are capped: past 200,000 monitors they grow instead.
 */
export const ROLL_UP_PACING: RollUpPacing = {
  sliceMonitors: 25_000,
  maxSlices: 8,
  rest: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * PGlite runs in the process's own thread: while a statement runs, nothing else does, no check and no request.
 * At 25,000 monitors one slice stopped the process 5.6 s once an hour (bench/README.md, nineteenth session), and
 * on PGlite slices cost nothing extra (25 slices of an hour took 2.8 s in all against 3.0 s for one), so the
 * embedded roll-up takes 1,000 monitors at a time: pauses of about a quarter second, each followed by a rest (the
 * checks' drift maximum fell from 5.9 s to 1.4 s; twentieth session).
 */
export const EMBEDDED_ROLL_UP_PACING: RollUpPacing = {
  ...ROLL_UP_PACING,
  sliceMonitors: 1_000,
  maxSlices: 50,
};

/** The roll-up's pacing for the database it runs on. */
export const rollUpPacingFor = (kind: Database['kind']): RollUpPacing =>
  kind === 'pglite' ? EMBEDDED_ROLL_UP_PACING : ROLL_UP_PACING;

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
  pacing: RollUpPacing = ROLL_UP_PACING,
): Promise<{ rolledUp: number } & PartitionMaintenance> {
  const rolledUp = await rollUpClosedHours(store, now, retentionHours, pacing);
  return { rolledUp, ...(await maintainResultPartitions(store, now, retentionHours)) };
}

/**
 * The roll-up, slice by slice of monitors (`pacing`). Each slice is a transaction that holds the progress row,
 * so runs from several processes take turns; the progress moves on with the last slice only. A run that dies
 * midway leaves the progress where it was, and the next run rolls the same hours up again, every slice (the
 * roll-ups are upserts). A run that finds the progress moved meanwhile (another run finished the hours) stops.
 */
async function rollUpClosedHours(
  store: Store,
  now: Date,
  retentionHours: number,
  pacing: RollUpPacing,
): Promise<number> {
  const cutoff = retentionCutoff(now, retentionHours);
  const closed = startOfHour(now.getTime() - ROLL_UP_GRACE_MS);
  const initial = startOfHour(now.getTime() - FIRST_RUN_HOURS * HOUR_MS);
  const start = await store.transaction((tx) => tx.checks.rolledUntil(initial));
  if (closed.getTime() <= start.getTime()) return 0;
  // The hour rolled up last time, again for the monitors with a result checked after it ended: found once, with
  // one scan of that hour, and rolled up with the first slice.
  const again = new Date(start.getTime() - HOUR_MS);
  const late = again >= cutoff ? await store.checks.lateMonitors(again, start, start) : [];
  const from = new Date(Math.max(start.getTime(), cutoff.getTime()));
  const ranges = await store.checks.monitorRanges(pacing.sliceMonitors, pacing.maxSlices);
  let count = 0;
  for (const [i, range] of ranges.entries()) {
    const last = i === ranges.length - 1;
    const started = performance.now();
    const rolled = await store.transaction(async (tx) => {
      if ((await tx.checks.rolledUntil(initial)).getTime() !== start.getTime()) return null;
      let n = i === 0 ? await tx.checks.rollUp(again, start, { monitors: late }) : 0;
      n += await tx.checks.rollUp(from, closed, { monitors: range });
      if (last) await tx.checks.setRolledUntil(closed);
      return n;
    });
    if (rolled === null) break;
    count += rolled;
    if (!last) await pacing.rest(performance.now() - started);
  }
  return count;
}
