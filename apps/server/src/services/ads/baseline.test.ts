import { describe, expect, it } from 'vitest';
import {
  addDays,
  baselineOf,
  datesNeeded,
  type HourFigures,
  judgeImpressions,
  judgeSpend,
  localTime,
  sameWeekdayDates,
  spendSince,
} from './baseline.ts';

/** A Tuesday, 14:30 in New York (19:30 UTC). */
const NOW = new Date('2026-11-24T19:30:00Z');
const ZONE = 'America/New_York';

/** `spend` and `impressions` each hour 8:00–20:00 of `date`; nothing at night. */
function day(date: string, spend: number, impressions: number): HourFigures[] {
  return Array.from({ length: 13 }, (_, i) => ({ date, hour: 8 + i, spend, impressions }));
}

function history(weeks: number, spend: number, impressions: number): HourFigures[] {
  return sameWeekdayDates('2026-11-24', weeks).flatMap((date) => day(date, spend, impressions));
}

describe('localTime()', () => {
  it('reads the wall clock of the account’s time zone, with the weekday of that date', () => {
    expect(localTime(ZONE, NOW)).toEqual({ date: '2026-11-24', hour: 14, hourFraction: 0.5, weekday: 2 });
    expect(localTime('Asia/Tokyo', NOW)).toMatchObject({ date: '2026-11-25', hour: 4, weekday: 3 });
  });

  it('reads an unknown zone as UTC rather than failing the check', () => {
    expect(localTime('Mars/Olympus', NOW)).toMatchObject({ date: '2026-11-24', hour: 19 });
  });
});

describe('same-weekday dates', () => {
  it('goes back whole weeks, across months, and asks for today with them', () => {
    expect(sameWeekdayDates('2026-12-01')).toEqual(['2026-11-24', '2026-11-17', '2026-11-10', '2026-11-03']);
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(datesNeeded(localTime(ZONE, NOW))).toHaveLength(5);
  });
});

describe('judgeSpend()', () => {
  const now = localTime(ZONE, NOW);

  it('passes spend near the usual by this time of day', () => {
    // Usual by 14:30: 6 whole hours (8–13) + half of 14:00 = 6.5 × 20 = 130.
    const points = [...history(4, 20, 100), ...day('2026-11-24', 21, 100).filter((p) => p.hour <= 14)];
    const result = judgeSpend(baselineOf(points, now), 50, 'USD');
    expect(result).toMatchObject({ key: 'spend_anomaly', ok: true });
    expect(result.summary).toContain('$147.00');
    expect(result.summary).toContain('the usual $130.00 by 14:30 on Tuesdays');
  });

  it('fails a spike or a drop past the percentage, saying which way', () => {
    const spike = [...history(4, 20, 100), ...day('2026-11-24', 60, 100).filter((p) => p.hour <= 14)];
    const up = judgeSpend(baselineOf(spike, now), 50, 'USD');
    expect(up.ok).toBe(false);
    expect(up.summary).toMatch(/223% above the usual \$130\.00.*more than 50% off/);

    const drop = [...history(4, 20, 100), ...day('2026-11-24', 2, 100).filter((p) => p.hour <= 14)];
    const down = judgeSpend(baselineOf(drop, now), 50, 'EUR');
    expect(down.ok).toBe(false);
    expect(down.summary).toMatch(/89% below the usual €130\.00/);
  });

  it('does not judge with fewer than 2 weeks of history, and says why', () => {
    const points = [...history(1, 20, 100), ...day('2026-11-24', 90, 100)];
    const result = judgeSpend(baselineOf(points, now), 50, 'USD');
    expect(result.ok).toBeNull();
    expect(result.summary).toBe(
      'too little history to compare: 1 of the last 4 Tuesdays had figures (2 needed).',
    );
  });

  it('does not compare pennies: little spend both ways passes', () => {
    const points = [...history(4, 0.2, 10), ...day('2026-11-24', 0.6, 10)];
    const result = judgeSpend(baselineOf(points, now), 50, 'USD');
    expect(result.ok).toBe(true);
    expect(result.summary).toContain('too little to compare yet');
  });
});

describe('judgeImpressions()', () => {
  it('fails when today has none by an hour that usually has them', () => {
    const result = judgeImpressions(baselineOf(history(4, 20, 100), localTime(ZONE, NOW)));
    expect(result).toMatchObject({ key: 'zero_impressions', ok: false });
    expect(result.summary).toBe('No impressions so far today by 14:30; Tuesdays usually have 650 by then.');
  });

  it('passes an early hour that usually has none yet, and any impressions at all', () => {
    const early = localTime(ZONE, new Date('2026-11-24T11:00:00Z')); // 06:00 in New York
    expect(judgeImpressions(baselineOf(history(4, 20, 100), early))).toMatchObject({ ok: true });
    const some = [...history(4, 20, 100), { date: '2026-11-24', hour: 9, spend: 1, impressions: 3 }];
    expect(judgeImpressions(baselineOf(some, localTime(ZONE, NOW)))).toMatchObject({
      ok: true,
      summary: '3 impressions so far today.',
    });
  });

  it('does not judge a new account', () => {
    expect(judgeImpressions(baselineOf([], localTime(ZONE, NOW))).ok).toBeNull();
  });
});

describe('spendSince()', () => {
  it('counts from the hour the shop broke, its first hour in proportion', () => {
    const today = day('2026-11-24', 10, 1);
    const since = localTime(ZONE, new Date('2026-11-24T17:15:00Z')); // 12:15 local
    // 12:00 counts three quarters, 13:00 to 20:00 whole: 7.5 + 80.
    expect(spendSince(today, since)).toBeCloseTo(87.5);
  });
});
