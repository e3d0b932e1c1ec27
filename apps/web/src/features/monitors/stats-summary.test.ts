import { describe, expect, it } from 'vitest';
import { summariseStats } from './stats-summary.ts';

const point = (at: string, checks: number, failures: number, p50Ms: number | null, p95Ms: number | null) => ({
  at,
  checks,
  failures,
  p50Ms,
  p95Ms,
});

describe('summariseStats()', () => {
  it('gives the average median, the worst p95 with its time, and the failures', () => {
    const text = summariseStats({
      range: '24h',
      series: [
        point('2026-03-10T10:00:00Z', 10, 0, 200, 400),
        point('2026-03-10T10:05:00Z', 30, 2, 300, 1500),
        point('2026-03-10T10:10:00Z', 0, 0, null, null),
      ],
    });
    expect(text).toMatch(/^Over the last 24 hours, the median response time averaged 275 ms; /);
    expect(text).toMatch(/the slowest 95th percentile was 1\.5 s \(/);
    expect(text).toMatch(/; 2 of 40 checks failed\.$/);
  });

  it('says when nothing has been checked', () => {
    expect(summariseStats({ range: '7d', series: [] })).toBe('Over the last 7 days, no checks have run yet.');
  });

  it('says when every check succeeded', () => {
    expect(summariseStats({ range: '30d', series: [point('2026-03-10T10:00:00Z', 4, 0, 100, 120)] })).toMatch(
      /all 4 checks succeeded\.$/,
    );
  });

  it('says how often and how long the monitor was down, and whether it still is', () => {
    const series = [point('2026-03-10T10:00:00Z', 10, 3, 200, 400)];
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(
      summariseStats(
        { range: '24h', series, downtime: [{ from: '2026-03-10T10:00:00Z', to: '2026-03-10T10:25:00Z' }] },
        now,
      ),
    ).toMatch(/; 3 of 10 checks failed; down for 25 minutes\.$/);
    expect(
      summariseStats(
        {
          range: '24h',
          series,
          downtime: [
            { from: '2026-03-10T10:00:00Z', to: '2026-03-10T10:25:00Z' },
            { from: '2026-03-10T11:20:00Z', to: null },
          ],
        },
        now,
      ),
    ).toMatch(/; down twice, 1 hour 5 minutes in all, and still down\.$/);
    expect(summariseStats({ range: '24h', series, downtime: [] }, now)).toMatch(/checks failed\.$/);
  });

  it('says a single check in the singular', () => {
    const text = summariseStats({ range: '24h', series: [point('2026-03-10T10:00:00Z', 1, 0, 100, 120)] });
    expect(text).toMatch(/; 1 check succeeded\.$/);
    expect(text).not.toMatch(/all 1/);
  });
});
