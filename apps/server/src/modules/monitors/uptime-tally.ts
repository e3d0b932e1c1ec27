import { HOUR_MS } from '../../lib/clock.ts';
import type { Tally } from './check-history.repository.ts';

/** Hours a monitor's row counts its checks for: the UTC hour of its newest check and the 23 before it. */
export const TALLY_HOURS = 24;

/**
 * A monitor's checks and failures per UTC hour of the check's start, newest first: element 0 counts the hour
 * starting at `hour`, element i the hour i before it. The engine keeps it on the monitor's row, counting each
 * check in the statement that records its result, so the 24-hour uptime reads no check history.
 */
export interface HourlyTally {
  /** Start of the newest counted hour; null before the first check. */
  hour: Date | null;
  checks: number[];
  failures: number[];
}

/** A tally with at least one check counted. */
export interface CountedTally extends HourlyTally {
  hour: Date;
}

const startOfHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

/**
 * The tally with one more check, started at `checkedAt`, counted; a check older than its hours is left out. The
 * engine counts in SQL, in the statement that writes the check (`counted` in engine/check.repository.ts); this is
 * the same rule, for tests and for seeding tallies, and check.repository.test.ts holds the two to one answer.
 */
export function countCheck(tally: HourlyTally, checkedAt: Date, ok: boolean): CountedTally {
  const hour = startOfHour(checkedAt.getTime());
  const newest = tally.hour === null ? hour : Math.max(tally.hour.getTime(), hour);
  const shift = tally.hour === null ? TALLY_HOURS : (newest - tally.hour.getTime()) / HOUR_MS;
  const moved = (counts: number[]) =>
    Array.from({ length: TALLY_HOURS }, (_, i) => (i < shift ? 0 : (counts[i - shift] ?? 0)));
  const checks = moved(tally.checks);
  const failures = moved(tally.failures);
  const index = (newest - hour) / HOUR_MS;
  if (index < TALLY_HOURS) {
    checks[index]! += 1;
    if (!ok) failures[index]! += 1;
  }
  return { hour: new Date(newest), checks, failures };
}

/** Checks and failures started in the UTC hour of `now` and the 23 hours before it. */
export function lastDayOf(tally: HourlyTally, now: Date): Tally {
  if (tally.hour === null) return { checks: 0, failures: 0 };
  // A worker's clock a little ahead of this process's may have counted the next hour already: it counts.
  const skip = Math.max(0, (startOfHour(now.getTime()) - tally.hour.getTime()) / HOUR_MS);
  let checks = 0;
  let failures = 0;
  for (let i = 0; i < TALLY_HOURS - skip; i++) {
    checks += tally.checks[i] ?? 0;
    failures += tally.failures[i] ?? 0;
  }
  return { checks, failures };
}
