import { describe, expect, it } from 'vitest';
import {
  formatDateTimeSeconds,
  formatInterval,
  formatMs,
  formatPercent,
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
});
