import { describe, expect, it } from 'vitest';
import { aProSubscription, aSubscription } from '../../test/plan-fixtures.ts';
import { describeOrder, describeSubscription, isPaying } from './subscription-format.ts';

// Noon UTC, so the dates read the same in every time zone within ±11 h.
const NOW = 1_767_268_800; // January 1, 2026
const DEC_24_2026 = 1_798_113_600;
const JAN_8_2026 = NOW + 7 * 86_400;

describe('describeSubscription', () => {
  it('says when a paid plan renews and what the next charge is', () => {
    const summary = describeSubscription(
      aProSubscription({
        planExpiresin: DEC_24_2026,
        nextCharge: { amountCents: 4900, currency: 'usd', at: DEC_24_2026 },
      }),
      NOW,
    );
    expect(summary).toMatchObject({ label: 'Active', warning: false });
    expect(summary.text).toBe('Renews on December 24, 2026 — next charge $49.00.');
  });

  it('says when a canceled plan ends, and that nothing more is charged', () => {
    const summary = describeSubscription(
      aProSubscription({ state: 'canceling', planExpiresin: DEC_24_2026, nextCharge: null }),
      NOW,
    );
    expect(summary.text).toBe('Ends on December 24, 2026. You will not be charged again.');
  });

  it('warns when the last payment failed, until the end of the grace period', () => {
    const summary = describeSubscription(
      aProSubscription({ state: 'past_due', graceUntil: JAN_8_2026, nextCharge: null }),
      NOW,
    );
    expect(summary).toMatchObject({ label: 'Payment failed', warning: true });
    expect(summary.text).toBe('Your last payment failed. Update your card by January 8, 2026 to keep Pro.');
  });

  it('says until when a Free period runs, or that it ended', () => {
    expect(describeSubscription(aSubscription({ planExpiresin: JAN_8_2026 }), NOW).text).toBe(
      'Free until January 8, 2026.',
    );
    expect(describeSubscription(aSubscription({ planExpiresin: JAN_8_2026 }), JAN_8_2026 + 1).text).toMatch(
      /^Your Free period ended on January 8, 2026\./,
    );
  });

  it('says when a plan ended', () => {
    const summary = describeSubscription(aSubscription({ state: 'ended', planExpiresin: NOW }), NOW + 10);
    expect(summary.text).toMatch(/^Ended on January 1, 2026\./);
  });
});

describe('isPaying', () => {
  it('counts active, canceling and past-due plans as paid, so no second checkout is offered', () => {
    expect(['active', 'canceling', 'past_due'].every((state) => isPaying({ state } as never))).toBe(true);
    expect(isPaying({ state: 'free' })).toBe(false);
    expect(isPaying({ state: 'ended' })).toBe(false);
  });
});

describe('describeOrder', () => {
  it('names the plan, how it is billed and the amount', () => {
    expect(describeOrder({ plan: 'Starter', period: 'year', amountCents: 19_000, currency: 'usd' })).toBe(
      'Starter, billed yearly: $190.00',
    );
  });
});
