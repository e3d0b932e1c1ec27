import { HOUR_MS } from '../lib/clock.ts';

/** Widths a partition may take: divisors of a day, so partitions start on the same UTC hours every day. */
const WIDTHS_HOURS = [1, 2, 3, 4, 6, 8, 12, 24];
/** About this many partitions hold the retention window: a partition is dropped at most one width late. */
const PARTITIONS_PER_RETENTION = 8;
/** Partitions always cover at least this far past now, and at least two widths. */
const AHEAD_MS = 24 * HOUR_MS;
/** A stray further in the future than this stays in the DEFAULT partition rather than create partitions for it. */
const FURTHEST_AHEAD_MS = 31 * 24 * HOUR_MS;

/**
 * The width of new partitions for a retention: the widest of 1, 2, 3, 4, 6, 8, 12 or 24 hours that fits
 * eight times into it. 6 hours at the default 48, a day from 192 hours on, an hour below 16. Raw results
 * are kept at most one width past the retention (12.5 % more rows at most), and about eight to ten
 * partitions are live whatever the retention.
 */
export function partitionWidthHours(retentionHours: number): number {
  const fitting = WIDTHS_HOURS.filter((width) => width * PARTITIONS_PER_RETENTION <= retentionHours);
  return fitting.at(-1) ?? 1;
}

/** One partition's range: `from` null is unbounded below (the old table, attached by migration 0011). */
export interface PartitionRange {
  from: Date | null;
  to: Date;
}

/** A partition to make: always bounded on both sides. */
export interface NewPartitionRange {
  from: Date;
  to: Date;
}

export interface PartitionPlanInput {
  /** Partitions in place, any order; contiguous, as only this plan creates them. */
  existing: PartitionRange[];
  /** The oldest and newest slot of the results in the DEFAULT partition not yet expired, if any. */
  strays: { min: Date; max: Date } | null;
  now: Date;
  /** The start of the retention window: older results are past keeping. */
  oldest: Date;
  widthHours: number;
}

const gridFloor = (ms: number, width: number) => Math.floor(ms / width) * width;

/**
 * The partitions to create: on a new database, from the retention window's start (so a backfill lands in
 * partitions too) until now + max(24 h, two widths), further to take in strays up to 31 days ahead; later,
 * forward from the newest bound; and back from the oldest bound to take in older strays (after the retention
 * was raised). New bounds fall on multiples of the width since the epoch, so a changed width or an odd first
 * bound (the old table's) only makes one partition short. After a stop longer than the newest partition
 * reaches, it starts again at the retention window's start and leaves the span before it to the DEFAULT
 * partition. Ranges come out in creation order, none overlapping.
 */
export function planPartitions(input: PartitionPlanInput): NewPartitionRange[] {
  const width = input.widthHours * HOUR_MS;
  const now = input.now.getTime();
  const sorted = [...input.existing].sort((a, b) => a.to.getTime() - b.to.getTime());
  const start = gridFloor(Math.min(input.oldest.getTime(), input.strays?.min.getTime() ?? now), width);
  let high = Math.max(sorted.at(-1)?.to.getTime() ?? start, start);
  const lowest = sorted.length > 0 ? sorted[0]!.from : new Date(start);
  const planned: NewPartitionRange[] = [];

  let until = now + Math.max(AHEAD_MS, 2 * width);
  const strayMax = input.strays?.max.getTime();
  if (strayMax !== undefined && strayMax < now + FURTHEST_AHEAD_MS) until = Math.max(until, strayMax + 1);
  while (high < until) {
    const to = gridFloor(high, width) + width;
    planned.push({ from: new Date(high), to: new Date(to) });
    high = to;
  }

  if (lowest !== null && input.strays) {
    let low = lowest.getTime();
    while (input.strays.min.getTime() < low) {
      const from = gridFloor(low - 1, width);
      planned.push({ from: new Date(from), to: new Date(low) });
      low = from;
    }
  }
  return planned;
}

/** `check_results_p20261124t18`: the start of the range, UTC, to the hour (bounds are whole hours). */
export function partitionName(from: Date): string {
  const iso = from.toISOString();
  return `check_results_p${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}t${iso.slice(11, 13)}`;
}
