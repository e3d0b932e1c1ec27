import { z } from 'zod';
import { envelope } from './envelope.ts';
import {
  CHANNELS,
  BILLING_PERIODS,
  PLAN_ORDER_STATUSES,
  PLAN_ORDER_FAILURES,
  SUBSCRIPTION_STATES,
} from './plan-values.ts';

export const plan = z.object({
  /** The name stored on the user and compared by the app ('Free' is the spec's). */
  name: z.string(),
  priceMonthlyCents: z.number().int(),
  /** The price of a year paid at once (two months free); 0 for Free. */
  priceYearlyCents: z.number().int(),
  /** How long one Free period lasts; a paid period is the billing period. */
  periodDays: z.number().int(),
  /** Monitors that run at the same time; monitors beyond it are paused, never deleted. */
  maxMonitors: z.number().int(),
  /** Connected accounts (Shopify shops, Google Ads and Meta ad accounts) its monitors may watch through. */
  maxAccounts: z.number().int(),
  minIntervalSeconds: z.number().int(),
  channels: z.array(z.enum(CHANNELS)),
  smsPerMonth: z.number().int(),
  callsPerMonth: z.number().int(),
  highlights: z.array(z.string()),
  /** Whether it can be chosen directly (Free) or needs a checkout. */
  checkout: z.boolean(),
});
export type Plan = z.infer<typeof plan>;

/** The plans on sale: paid plans are listed only while this server can take payments. */
export const plansResponse = envelope(z.object({ list: z.array(plan) }));

export const choosePlanBody = z.object({ plan: z.string({ error: 'Choose a plan.' }).min(1).max(40) });

// ---------------------------------------------------------------------------------------------------------
// Plan orders: buying a paid plan through Stripe Checkout.

export const planOrderCreateBody = z
  .object({
    plan: z.string({ error: 'Choose a plan.' }).trim().min(1, 'Choose a plan.').max(40),
    period: z.enum(BILLING_PERIODS, { error: "Choose how you pay: 'month' or 'year'." }),
  })
  .strict();
export type PlanOrderCreateBody = z.infer<typeof planOrderCreateBody>;

/** Where Checkout sends the person back: success and cancel both carry `?order=<orderId>`. */
export const planOrderCreated = z.object({ orderId: z.string(), url: z.string() });
export const planOrderCreateResponse = envelope(planOrderCreated);

export const planOrder = z.object({
  orderId: z.string(),
  plan: z.string(),
  period: z.enum(BILLING_PERIODS),
  amountCents: z.number().int(),
  /** ISO 4217, lower case as Stripe writes it ('usd'). */
  currency: z.string(),
  status: z.enum(PLAN_ORDER_STATUSES),
  /** The latest thing that went wrong, in words a person can act on; null when nothing did. */
  failure: z.object({ reason: z.enum(PLAN_ORDER_FAILURES), message: z.string() }).nullable(),
  /** While pending: the Checkout page, to go back and pay. */
  checkoutUrl: z.string().nullable(),
  createdAt: z.string(),
  activatedAt: z.string().nullable(),
  /** Once active: when the paid period ends (Unix seconds), as `planExpiresin` then says. */
  planExpiresin: z.number().int().nullable(),
});
export type PlanOrder = z.infer<typeof planOrder>;
export const planOrderResponse = envelope(planOrder);
export const planOrderQuery = z.object({ order: z.string({ error: 'Give the order id.' }).min(1).max(64) });

// ---------------------------------------------------------------------------------------------------------
// What a plan covers: the person's connected accounts and monitors against each plan's limits.

export const planOrderAccountsQuery = z.object({
  /** One plan's coverage; every plan's when absent. */
  plan: z.string().trim().min(1).max(40).optional(),
});

export const coveredAccount = z.object({
  connectionId: z.string(),
  provider: z.enum(['shopify', 'google', 'meta']),
  /** The provider's id: the shop's myshopify domain, the Google login, the Meta user. */
  account: z.string(),
  name: z.string(),
  /** Monitors watching through it. */
  monitors: z.number().int(),
});

export const planCoverage = z.object({
  plan: z.string(),
  accountLimit: z.number().int(),
  monitorLimit: z.number().int(),
  /** The oldest accounts first, as limits are applied: how many of the person's accounts it holds. */
  accountsCovered: z.number().int(),
  /** How many of the person's monitors could run on it (the oldest first). */
  monitorsCovered: z.number().int(),
  /** Everything the person has today fits. */
  coversAll: z.boolean(),
  /** "Starter covers 1 of your 2 shops and all 4 monitors." */
  summary: z.string(),
});
export type PlanCoverage = z.infer<typeof planCoverage>;

export const planOrderAccounts = z.object({
  accounts: z.array(coveredAccount),
  monitorCount: z.number().int(),
  plans: z.array(planCoverage),
});
export type PlanOrderAccounts = z.infer<typeof planOrderAccounts>;
export const planOrderAccountsResponse = envelope(planOrderAccounts);

// ---------------------------------------------------------------------------------------------------------
// The subscription: what the person pays for now.

export const subscriptionInfo = z.object({
  plan: z.string(),
  state: z.enum(SUBSCRIPTION_STATES),
  period: z.enum(BILLING_PERIODS).nullable(),
  /** Unix seconds when the plan (or Free period) ends, or '0' before any plan was chosen. */
  planExpiresin: z.union([z.literal('0'), z.number().int()]),
  /** The next charge, when the subscription renews. */
  nextCharge: z
    .object({ amountCents: z.number().int(), currency: z.string(), at: z.number().int() })
    .nullable(),
  /** Unix seconds: past_due only. */
  graceUntil: z.number().int().nullable(),
  /** Stripe's customer portal is open to this person (they have paid at least once). */
  canManageBilling: z.boolean(),
});
export type SubscriptionInfo = z.infer<typeof subscriptionInfo>;
export const subscriptionResponse = envelope(subscriptionInfo);

export const billingPortalResponse = envelope(z.object({ url: z.string() }));
