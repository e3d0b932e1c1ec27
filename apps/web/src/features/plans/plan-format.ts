import type { Channel, Plan } from '@vigil/contracts';

export function formatPrice(cents: number): string {
  if (cents === 0) return '$0';
  const dollars = cents / 100;
  const fraction = Number.isInteger(dollars) ? 0 : 2;
  return `$${dollars.toLocaleString('en-US', { minimumFractionDigits: fraction, maximumFractionDigits: 2 })}`;
}

export const CHANNEL_LABELS: Record<Channel, string> = { email: 'Email', sms: 'SMS', call: 'Phone calls' };

export function formatChannels(channels: readonly Channel[]): string {
  return channels.map((channel) => CHANNEL_LABELS[channel]).join(', ');
}

export function formatQuota(count: number, what: string): string {
  return count === 0 ? `No ${what}` : `${count.toLocaleString('en-US')} ${what} a month`;
}

/** A plan period end (Unix seconds) as a date; null for the '0' sentinel or anything unreadable. */
export function formatPlanDate(planExpiresin: string | number): string | null {
  const seconds = Number(planExpiresin);
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  return new Date(seconds * 1000).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
}

/** What a year paid at once saves against twelve monthly payments, in cents (0 when it saves nothing). */
export function yearlySaving(plan: Pick<Plan, 'priceMonthlyCents' | 'priceYearlyCents'>): number {
  return Math.max(0, plan.priceMonthlyCents * 12 - plan.priceYearlyCents);
}

/** The id of a plan card's heading, which names the card's region. */
export function planHeadingId(name: string): string {
  return `plan-${name.toLowerCase().replace(/\W+/g, '-')}`;
}
