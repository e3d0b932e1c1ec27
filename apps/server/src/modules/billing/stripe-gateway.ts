import Stripe from 'stripe';
import type { BillingPeriod } from '@vigil/contracts';
import type { StripeSettings } from '../../config.ts';
import { AppError } from '../../lib/app-error.ts';

/** Stripe's answers wait this long; the SDK retries connection errors and 409/429/5xx twice with backoff. */
const REQUEST_TIMEOUT_MS = 20_000;
/** Stripe's own default tolerance: a signature older than this is refused (a replay). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** A subscription as Vigil needs it, read fresh from Stripe. */
export interface SubscriptionState {
  id: string;
  customerId: string;
  /** Stripe's status: incomplete, incomplete_expired, trialing, active, past_due, canceled, unpaid, paused. */
  status: string;
  priceId: string;
  /** The plan and period of the price, when the price is one of Vigil's (STRIPE_PRICES). */
  plan: { name: string; period: BillingPeriod } | null;
  amountCents: number;
  currency: string;
  periodStart: Date;
  periodEnd: Date;
  cancelAtPeriodEnd: boolean;
  endedAt: Date | null;
  metadata: Record<string, string>;
}

export interface CheckoutState {
  id: string;
  status: 'open' | 'complete' | 'expired';
  paid: boolean;
  orderId: string | null;
  customerId: string | null;
  subscriptionId: string | null;
}

/** What Vigil asks of Stripe; the only module that imports the SDK. */
export interface BillingGateway {
  createCustomer(input: { userId: string; email: string }): Promise<string>;
  openCheckout(input: {
    orderId: string;
    userId: string;
    customerId: string;
    priceId: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ id: string; url: string }>;
  checkout(id: string): Promise<CheckoutState>;
  subscription(id: string): Promise<SubscriptionState | null>;
  portal(input: { customerId: string; returnUrl: string }): Promise<string>;
  /** The event, when `signature` signs `rawBody` with the webhook secret within the tolerance; else throws. */
  verifyEvent(rawBody: Buffer, signature: string | undefined, now: Date): Stripe.Event;
  /** The price id of a plan and period (STRIPE_PRICES), or undefined. */
  priceOf(plan: string, period: BillingPeriod): string | undefined;
}

/** Stripe could not be reached or failed: a 503 the person can retry. */
function unavailable(error: unknown): AppError {
  return new AppError('UNAVAILABLE', 'Payments cannot be reached right now. Try again in a minute.', {
    cause: error,
    retryAfterSeconds: 30,
  });
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unavailable(error);
  }
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/**
 * The official `stripe` SDK on STRIPE_API_URL (Stripe, or the sandbox's listener through the SDK's host, port
 * and protocol). Every creating call carries an Idempotency-Key tied to what it is for, so a retry or a double
 * click opens one customer or one Checkout Session.
 */
export function createStripeGateway(settings: StripeSettings): BillingGateway {
  const api = new URL(settings.apiUrl);
  const stripe = new Stripe(settings.secretKey, {
    host: api.hostname,
    port: api.port || (api.protocol === 'https:' ? 443 : 80),
    protocol: api.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 2,
    timeout: REQUEST_TIMEOUT_MS,
    appInfo: { name: 'Vigil' },
  });
  const planOfPrice = new Map(
    Object.entries(settings.prices).map(([key, priceId]) => {
      const [name, period] = key.split(':') as [string, BillingPeriod];
      return [priceId, { name, period }];
    }),
  );

  return {
    priceOf: (plan, period) => settings.prices[`${plan}:${period}`],

    createCustomer: ({ userId, email }) =>
      call(async () => {
        const customer = await stripe.customers.create(
          { email, metadata: { vigil_user: userId } },
          { idempotencyKey: `vigil-customer-${userId}` },
        );
        return customer.id;
      }),

    openCheckout: (input) =>
      call(async () => {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'subscription',
            customer: input.customerId,
            line_items: [{ price: input.priceId, quantity: 1 }],
            client_reference_id: input.orderId,
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
            metadata: { vigil_order: input.orderId, vigil_user: input.userId },
            subscription_data: { metadata: { vigil_order: input.orderId, vigil_user: input.userId } },
          },
          { idempotencyKey: `vigil-plan-order-${input.orderId}` },
        );
        if (!session.url) throw new Error(`Checkout Session ${session.id} has no url`);
        return { id: session.id, url: session.url };
      }),

    checkout: (id) =>
      call(async () => {
        const session = await stripe.checkout.sessions.retrieve(id);
        return {
          id: session.id,
          status: session.status ?? 'open',
          paid: session.payment_status === 'paid',
          orderId: session.client_reference_id,
          customerId: idOf(session.customer),
          subscriptionId: idOf(session.subscription),
        };
      }),

    subscription: (id) =>
      call(async () => {
        let subscription: Stripe.Subscription;
        try {
          subscription = await stripe.subscriptions.retrieve(id);
        } catch (error) {
          if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') {
            return null;
          }
          throw error;
        }
        const item = subscription.items.data[0];
        if (!item) return null;
        return {
          id: subscription.id,
          customerId: idOf(subscription.customer)!,
          status: subscription.status,
          priceId: item.price.id,
          plan: planOfPrice.get(item.price.id) ?? null,
          amountCents: (item.price.unit_amount ?? 0) * (item.quantity ?? 1),
          currency: item.price.currency,
          periodStart: new Date(item.current_period_start * 1000),
          periodEnd: new Date(item.current_period_end * 1000),
          cancelAtPeriodEnd: subscription.cancel_at_period_end,
          endedAt: subscription.ended_at ? new Date(subscription.ended_at * 1000) : null,
          metadata: { ...subscription.metadata },
        };
      }),

    portal: ({ customerId, returnUrl }) =>
      call(async () => {
        const session = await stripe.billingPortal.sessions.create({
          customer: customerId,
          return_url: returnUrl,
        });
        return session.url;
      }),

    verifyEvent(rawBody, signature, now) {
      if (!signature) throw new AppError('INVALID', 'This webhook has no Stripe-Signature header.');
      try {
        return stripe.webhooks.constructEvent(
          rawBody,
          signature,
          settings.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
          undefined,
          now.getTime(),
        );
      } catch (error) {
        throw new AppError(
          'INVALID',
          'This webhook is not signed by Stripe with this endpoint’s secret, or its signature is older than 5 minutes.',
          { cause: error },
        );
      }
    },
  };
}
