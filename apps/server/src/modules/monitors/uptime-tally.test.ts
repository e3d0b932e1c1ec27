import { describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../../lib/clock.ts';
import { countCheck, type HourlyTally, lastDayOf, TALLY_HOURS } from './uptime-tally.ts';

const H = new Date('2026-03-01T10:00:00Z').getTime();
const at = (ms: number) => new Date(ms);
const empty: HourlyTally = { hour: null, checks: [], failures: [] };
const count = (checks: [number, boolean][]) =>
  checks.reduce<HourlyTally>((tally, [ms, ok]) => countCheck(tally, at(ms), ok), empty);

describe('countCheck()', () => {
  it('counts each check in the UTC hour it started, newest hour first', () => {
    const tally = count([
      [H - 30 * MINUTE_MS, true],
      [H - 1, false],
      [H, true],
      [H + 59 * MINUTE_MS, false],
    ]);
    expect(tally.hour).toEqual(at(H));
    expect(tally.checks.slice(0, 3)).toEqual([2, 2, 0]);
    expect(tally.failures.slice(0, 3)).toEqual([1, 1, 0]);
    expect(tally.checks).toHaveLength(TALLY_HOURS);
  });

  it('moves the hours on when a check starts a new hour, dropping those past 24', () => {
    const tally = count([
      [H, false],
      [H + 23 * HOUR_MS, true],
    ]);
    expect(tally.hour).toEqual(at(H + 23 * HOUR_MS));
    expect(tally.checks[0]).toBe(1);
    expect(tally.checks[23]).toBe(1);
    expect(tally.failures[23]).toBe(1);
    const later = countCheck(tally, at(H + 24 * HOUR_MS), true);
    expect(later.checks.reduce((a, b) => a + b)).toBe(2);
    expect(later.failures.reduce((a, b) => a + b)).toBe(0);
    expect(countCheck(tally, at(H + 50 * HOUR_MS), true).checks.reduce((a, b) => a + b)).toBe(1);
  });

  it('counts a late write into its own hour, and leaves out a check older than the 24 hours', () => {
    const tally = count([
      [H + HOUR_MS, true],
      [H + HOUR_MS - 1000, false],
      [H - 23 * HOUR_MS, true],
    ]);
    expect(tally.hour).toEqual(at(H + HOUR_MS));
    expect(tally.checks.slice(0, 2)).toEqual([1, 1]);
    expect(tally.failures.slice(0, 2)).toEqual([0, 1]);
    expect(tally.checks.reduce((a, b) => a + b)).toBe(2);
  });
});

describe('lastDayOf()', () => {
  const tally = count([
    [H - 23 * HOUR_MS, false],
    [H - 2 * HOUR_MS, true],
    [H + 5 * MINUTE_MS, true],
  ]);

  it('sums the hour of now and the 23 before it', () => {
    expect(lastDayOf(tally, at(H + 30 * MINUTE_MS))).toEqual({ checks: 3, failures: 1 });
  });

  it('leaves out the hours that ended more than 23 hours before the hour of now', () => {
    expect(lastDayOf(tally, at(H + HOUR_MS))).toEqual({ checks: 2, failures: 0 });
    expect(lastDayOf(tally, at(H + 22 * HOUR_MS))).toEqual({ checks: 1, failures: 0 });
    expect(lastDayOf(tally, at(H + 24 * HOUR_MS))).toEqual({ checks: 0, failures: 0 });
    expect(lastDayOf(empty, at(H))).toEqual({ checks: 0, failures: 0 });
  });

  it('counts an hour a worker with a clock slightly ahead already started', () => {
    expect(lastDayOf(tally, at(H - 1000))).toEqual({ checks: 3, failures: 1 });
  });
});
