import type { BillingPeriod, PlanOrder, SubscriptionInfo } from '@vigil/contracts';
import { formatMoney } from '../../lib/format-money.ts';
import { formatPlanDate } from './plan-format.ts';

/** The states in which the person pays for a plan: a new checkout would charge them twice. */
export function isPaying(subscription: Pick<SubscriptionInfo, 'state'>): boolean {
  return (
    subscription.state === 'active' || subscription.state === 'canceling' || subscription.state === 'past_due'
  );
}

/** Cents in a Stripe currency ('usd') as a price: `$49.00`. */
export function formatCents(amountCents: number, currency: string): string {
  return formatMoney(amountCents / 100, currency.toUpperCase());
}

export const PERIOD_WORDS: Record<BillingPeriod, { adverb: string; unit: string }> = {
  month: { adverb: 'monthly', unit: 'month' },
  year: { adverb: 'yearly', unit: 'year' },
};

export interface SubscriptionSummary {
  /** The state in one or two words, for a badge. */
  label: string;
  /** The badge's colour: ones whose light variant reads at 4.5:1 or more (not Mantine's green or yellow). */
  color: string;
  /** The state in a sentence: when it renews, ends or ended, and what to do. */
  text: string;
  /** The plan is at risk and the person has something to do (a failed payment). */
  warning: boolean;
}

function date(seconds: number | string | null): string {
  return (seconds !== null && formatPlanDate(seconds)) || 'soon';
}

/** The person's plan in words, as the pricing page's "Your plan" panel says it. */
export function describeSubscription(
  subscription: SubscriptionInfo,
  nowSeconds: number,
): SubscriptionSummary {
  const { plan, state, planExpiresin, nextCharge } = subscription;
  switch (state) {
    case 'active':
      return {
        label: 'Active',
        color: 'vigil',
        text: nextCharge
          ? `Renews on ${date(nextCharge.at)} — next charge ${formatCents(nextCharge.amountCents, nextCharge.currency)}.`
          : `Renews on ${date(planExpiresin)}.`,
        warning: false,
      };
    case 'canceling':
      return {
        label: 'Canceled',
        color: 'gray',
        text: `Ends on ${date(planExpiresin)}. You will not be charged again.`,
        warning: false,
      };
    case 'past_due':
      return {
        label: 'Payment failed',
        color: 'red',
        text: `Your last payment failed. Update your card by ${date(subscription.graceUntil ?? planExpiresin)} to keep ${plan}.`,
        warning: true,
      };
    case 'free':
      return Number(planExpiresin) > nowSeconds
        ? { label: 'Free period', color: 'vigil', text: `Free until ${date(planExpiresin)}.`, warning: false }
        : {
            label: 'Ended',
            color: 'gray',
            text: `Your Free period ended on ${date(planExpiresin)}. Choose a plan to keep your monitors running.`,
            warning: false,
          };
    case 'ended':
      return {
        label: 'Ended',
        color: 'gray',
        text: `Ended on ${date(planExpiresin)}. Choose a plan to start your monitors again.`,
        warning: false,
      };
  }
}

/** What an order buys, in words: "Pro, billed monthly: $49.00". */
export function describeOrder(
  order: Pick<PlanOrder, 'plan' | 'period' | 'amountCents' | 'currency'>,
): string {
  return `${order.plan}, billed ${PERIOD_WORDS[order.period].adverb}: ${formatCents(order.amountCents, order.currency)}`;
}
