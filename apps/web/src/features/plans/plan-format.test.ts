import { describe, expect, it } from 'vitest';
import { formatChannels, formatPlanDate, formatPrice, formatQuota, yearlySaving } from './plan-format.ts';

describe('plan formatting', () => {
  it('formats prices from cents', () => {
    expect(formatPrice(0)).toBe('$0');
    expect(formatPrice(1900)).toBe('$19');
    expect(formatPrice(1950)).toBe('$19.50');
    expect(formatPrice(149_000)).toBe('$1,490');
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

  it('counts what a year paid at once saves against 12 monthly payments', () => {
    expect(yearlySaving({ priceMonthlyCents: 4900, priceYearlyCents: 49_000 })).toBe(9800);
    expect(yearlySaving({ priceMonthlyCents: 0, priceYearlyCents: 0 })).toBe(0);
    // A yearly price above 12 months saves nothing rather than a negative amount.
    expect(yearlySaving({ priceMonthlyCents: 1000, priceYearlyCents: 13_000 })).toBe(0);
  });
});
