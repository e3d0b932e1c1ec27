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

  it('says a single check in the singular', () => {
    const text = summariseStats({ range: '24h', series: [point('2026-03-10T10:00:00Z', 1, 0, 100, 120)] });
    expect(text).toMatch(/; 1 check succeeded\.$/);
    expect(text).not.toMatch(/all 1/);
  });
});
