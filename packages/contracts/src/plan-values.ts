/**
 * The plans contract's plain values, apart from its zod schemas (plans.ts): the web app's first pages import
 * these without loading zod.
 */

export const CHANNELS = ['email', 'sms', 'call'] as const;
export type Channel = (typeof CHANNELS)[number];

/** How often a paid plan is charged: Stripe's recurring interval. */
export const BILLING_PERIODS = ['month', 'year'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

/**
 * pending: Checkout is open (or was left); active: the webhook activated the plan; failed: Checkout expired
 * or the order can no longer be paid. A declined card leaves it pending with `failure`, since the person may
 * try another card on the same Checkout page.
 */
export const PLAN_ORDER_STATUSES = ['pending', 'active', 'failed'] as const;
export type PlanOrderStatus = (typeof PLAN_ORDER_STATUSES)[number];

/** declined: the bank refused the card; expired: Checkout timed out (24 hours) unpaid. */
export const PLAN_ORDER_FAILURES = ['declined', 'expired'] as const;

/**
 * free: on a Free period; active: paid and renewing; canceling: paid, ends at `planExpiresin`;
 * past_due: the last charge failed, the plan runs until `graceUntil`; ended: no plan runs (monitors paused).
 */
export const SUBSCRIPTION_STATES = ['free', 'active', 'canceling', 'past_due', 'ended'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];
