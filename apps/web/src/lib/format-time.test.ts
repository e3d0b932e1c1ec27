import { describe, expect, it } from 'vitest';
import {
  formatClock,
  formatCount,
  formatDateTime,
  formatDateTimeSeconds,
  formatInterval,
  formatLongDate,
  formatMonthDay,
  formatMs,
  formatPercent,
  formatRelative,
  formatRelativeTime,
} from './format-time.ts';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('time and number formatting', () => {
  it('formats intervals in the largest whole unit', () => {
    expect(formatInterval(30)).toBe('30 seconds');
    expect(formatInterval(60)).toBe('1 minute');
    expect(formatInterval(300)).toBe('5 minutes');
    expect(formatInterval(3600)).toBe('1 hour');
    expect(formatInterval(90)).toBe('90 seconds');
  });

  it('says how long ago a check ran', () => {
    expect(formatRelativeTime(null, NOW)).toBe('—');
    expect(formatRelativeTime(ago(10), NOW)).toBe('just now');
    expect(formatRelativeTime(ago(50), NOW)).toBe('1 minute ago');
    expect(formatRelativeTime(ago(5 * 60), NOW)).toBe('5 minutes ago');
    expect(formatRelativeTime(ago(3 * 3600), NOW)).toBe('3 hours ago');
    expect(formatRelativeTime(ago(86_400), NOW)).toBe('yesterday');
  });

  it('tells apart events seconds apart', () => {
    expect(formatDateTimeSeconds('2026-03-10T11:00:05.000Z')).toMatch(/Mar 1\d, \d\d:\d\d:05 [AP]M/);
    expect(formatDateTimeSeconds(null)).toBe('—');
    expect(formatDateTimeSeconds('not a time')).toBe('—');
  });

  it('never rounds an imperfect uptime up to 100%', () => {
    expect(formatPercent(99.999)).toBe('99.99%');
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(null)).toBe('—');
  });

  it('shows response times in ms below a second', () => {
    expect(formatMs(850.4)).toBe('850 ms');
    expect(formatMs(1530)).toBe('1.53 s');
    expect(formatMs(null)).toBe('—');
  });

  describe('writes what Intl writes in en-US', () => {
    // Intl puts a narrow no-break space before AM/PM in some ICU versions; the app writes a plain one.
    const intl = (options: Intl.DateTimeFormatOptions) => {
      const format = new Intl.DateTimeFormat('en-US', options);
      return (at: Date) => format.format(at).replace(/\u202f/g, ' ');
    };
    // Every hour of a day (midnight and noon included) on the first and last day of every month, at odd minutes
    // and seconds, in the machine's own time zone as both sides read it.
    const moments = Array.from({ length: 12 }, (_, month) =>
      [1, new Date(2026, month + 1, 0).getDate()].flatMap((day) =>
        Array.from(
          { length: 24 },
          (_, hour) => new Date(2026, month, day, hour, (hour * 7) % 60, (hour * 13) % 60),
        ),
      ),
    ).flat();

    it('dates and times', () => {
      const dateTime = intl({ month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
      const dateTimeSeconds = intl({
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
      const formats: [string, (at: Date) => string, (at: Date) => string][] = [
        ['date and time', (at) => formatDateTime(at.toISOString()), dateTime],
        ['to the second', (at) => formatDateTimeSeconds(at.toISOString()), dateTimeSeconds],
        [
          'two-digit clock',
          (at) => formatClock(at, { twoDigitHour: true }),
          intl({ hour: '2-digit', minute: '2-digit' }),
        ],
        ['clock', (at) => formatClock(at), intl({ hour: 'numeric', minute: '2-digit' })],
        ['hour', (at) => formatClock(at, { minutes: false }), intl({ hour: 'numeric' })],
        ['month and day', formatMonthDay, intl({ month: 'short', day: 'numeric' })],
        ['long date', formatLongDate, intl({ month: 'long', day: 'numeric', year: 'numeric' })],
      ];
      for (const [name, ours, theirs] of formats) {
        expect(moments.map(ours), name).toEqual(moments.map(theirs));
      }
      const dayHour = intl({ month: 'short', day: 'numeric', hour: 'numeric' });
      expect(moments.map((at) => `${formatMonthDay(at)}, ${formatClock(at, { minutes: false })}`)).toEqual(
        moments.map(dayHour),
      );
    });

    it('relative times, named ones included', () => {
      const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
      const values = [
        ...Array.from({ length: 121 }, (_, i) => i - 60).filter((n) => n !== 0),
        999,
        -1000,
        12_345,
      ];
      for (const unit of ['year', 'month', 'week', 'day', 'hour', 'minute'] as const) {
        expect(
          values.map((n) => formatRelative(n, unit)),
          unit,
        ).toEqual(values.map((n) => relative.format(n, unit)));
      }
    });

    it('counts', () => {
      const counts = [0, 7, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 123_456_789, -4321];
      expect(counts.map(formatCount)).toEqual(counts.map((n) => n.toLocaleString('en-US')));
    });
  });
});
