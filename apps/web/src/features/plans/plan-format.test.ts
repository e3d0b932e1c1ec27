import { describe, expect, it } from 'vitest';
import { formatChannels, formatPlanDate, formatPrice, formatQuota } from './plan-format.ts';

describe('plan formatting', () => {
  it('formats prices from cents', () => {
    expect(formatPrice(0)).toBe('$0');
    expect(formatPrice(1900)).toBe('$19');
    expect(formatPrice(1950)).toBe('$19.50');
  });

  it('names channels and quotas', () => {
    expect(formatChannels(['email', 'sms', 'call'])).toBe('Email, SMS, Phone calls');
    expect(formatQuota(0, 'SMS')).toBe('No SMS');
    expect(formatQuota(1000, 'SMS')).toBe('1,000 SMS a month');
  });

  it("reads plan dates in seconds and has none for the '0' sentinel", () => {
    expect(formatPlanDate('0')).toBeNull();
    expect(formatPlanDate(0)).toBeNull();
    // Noon UTC, so the date is the same in every time zone within ±11 h.
    expect(formatPlanDate(1_767_268_800)).toBe('January 1, 2026');
  });
});
