import type { Channel, Plan } from '@vigil/contracts';
import { formatCount, formatLongDate } from '../../lib/format-time.ts';

export function formatPrice(cents: number): string {
  if (cents === 0) return '$0';
  const whole = formatCount(Math.trunc(cents / 100));
  return cents % 100 === 0 ? `$${whole}` : `$${whole}.${String(Math.abs(cents % 100)).padStart(2, '0')}`;
}

export const CHANNEL_LABELS: Record<Channel, string> = { email: 'Email', sms: 'SMS', call: 'Phone calls' };

export function formatChannels(channels: readonly Channel[]): string {
  return channels.map((channel) => CHANNEL_LABELS[channel]).join(', ');
}

export function formatQuota(count: number, what: string): string {
  return count === 0 ? `No ${what}` : `${formatCount(count)} ${what} a month`;
}

/** A plan period end (Unix seconds) as a date; null for the '0' sentinel or anything unreadable. */
export function formatPlanDate(planExpiresin: string | number): string | null {
  const seconds = Number(planExpiresin);
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  return formatLongDate(new Date(seconds * 1000));
}

/** What a year paid at once saves against twelve monthly payments, in cents (0 when it saves nothing). */
export function yearlySaving(plan: Pick<Plan, 'priceMonthlyCents' | 'priceYearlyCents'>): number {
  return Math.max(0, plan.priceMonthlyCents * 12 - plan.priceYearlyCents);
}

/** The id of a plan card's heading, which names the card's region. */
export function planHeadingId(name: string): string {
  return `plan-${name.toLowerCase().replace(/\W+/g, '-')}`;
}
