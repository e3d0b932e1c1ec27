import type Stripe from 'stripe';
import type { Repositories, Store } from '../../db/store.ts';
import { addMs, type Clock, DAY_MS, unixSeconds } from '../../lib/clock.ts';
import { findPlan } from '../plans/plan-catalogue.ts';
import { formatDay } from './billing-format.ts';
import type { BillingGateway, SubscriptionState } from './stripe-gateway.ts';
import { bringWithinPlan } from './plan-limits.ts';

/** A failed renewal keeps the plan this long from the start of the unpaid period, while Stripe retries. */
export const GRACE_DAYS = 7;

/** Subscription statuses in which the plan runs. */
const RUNNING = new Set(['active', 'trialing', 'past_due']);
/** Statuses after which the subscription never runs again. */
const FINISHED = new Set(['canceled', 'incomplete_expired', 'unpaid']);

export interface StripeEventDeps {
  store: Store;
  gateway: BillingGateway;
  clock: Clock;
  publicUrl: string;
}

/** What applying an event did, kept on the event row for support. */
export type Outcome = string;

/** An applied event: what it did, and the account notices it wrote (queue them once committed). */
export interface Applied {
  outcome: Outcome;
  noticeIds: string[];
}

function subscriptionIdOf(event: Stripe.Event): string | null {
  const object = event.data.object as unknown as Record<string, unknown>;
  if (event.type.startsWith('customer.subscription.')) return object.id as string;
  if (event.type.startsWith('invoice.')) {
    const parent = object.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
    const id = parent?.subscription_details?.subscription ?? object.subscription;
    if (typeof id === 'string') return id;
    if (id && typeof id === 'object' && 'id' in id) return String((id as { id: string }).id);
  }
  return null;
}

/**
 * Applies Stripe events to plans. An event only says *that* something changed: the subscription is read
 * afresh from Stripe and written whole, so events in any order, repeated or late, end in Stripe's latest
 * state. Each event is applied once: its row is locked and marked applied in the transaction that applies it,
 * so a worker that dies half-way leaves it to the next try and nothing twice.
 */
export function createStripeEventProcessor(deps: StripeEventDeps) {
  const { store, gateway, clock } = deps;

  /** Writes the subscription down and moves the person's plan with it, in the caller's transaction. */
  async function syncSubscription(
    tx: Repositories,
    subscription: SubscriptionState,
    now: Date,
    noticeIds: string[],
  ): Promise<{ userId: string | null; outcome: Outcome }> {
    const account = await tx.billing.findAccountByCustomer(subscription.customerId);
    if (!account)
      return { userId: null, outcome: `no Vigil account has customer ${subscription.customerId}` };
    const { userId } = account;
    await tx.billing.lockUser(userId);
    const current = await tx.billing.findAccount(userId);
    const user = await tx.users.findById(userId);
    if (!current || !user) return { userId: null, outcome: 'the account was deleted' };

    // An older subscription's news never overrides the one the person pays for now.
    const other = current.subscriptionId && current.subscriptionId !== subscription.id;
    if (other && current.status && !FINISHED.has(current.status) && !RUNNING.has(subscription.status)) {
      return { userId, outcome: `ignored: ${subscription.id} is not the current subscription` };
    }
    const plan = subscription.plan ? findPlan(subscription.plan.name) : undefined;
    if (!plan || !subscription.plan) {
      return { userId, outcome: `ignored: price ${subscription.priceId} is not one of Vigil's plans` };
    }
    const graceUntil =
      subscription.status === 'past_due' ? addMs(subscription.periodStart, GRACE_DAYS * DAY_MS) : null;
    await tx.billing.updateAccount(
      userId,
      {
        subscriptionId: subscription.id,
        plan: plan.name,
        period: subscription.plan.period,
        status: subscription.status,
        periodStart: subscription.periodStart,
        periodEnd: subscription.periodEnd,
        cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
        endedAt: subscription.endedAt,
        amountCents: subscription.amountCents,
        currency: subscription.currency,
        graceUntil,
      },
      now,
    );

    let outcome: Outcome;
    if (RUNNING.has(subscription.status)) {
      const end = graceUntil && graceUntil < subscription.periodEnd ? graceUntil : subscription.periodEnd;
      await tx.users.update(userId, { plan: plan.name, planExpiresAt: unixSeconds(end) }, now);
      outcome = `${plan.name} (${subscription.status}) until ${end.toISOString()}`;
      const orderId = subscription.metadata.vigil_order;
      const order = orderId ? await tx.billing.findOrder(orderId) : undefined;
      if (order && order.userId === userId && order.status === 'pending') {
        await tx.billing.updateOrder(
          order.id,
          {
            status: 'active',
            activatedAt: now,
            subscriptionId: subscription.id,
            failureReason: null,
            failureMessage: null,
          },
          now,
        );
        outcome += `; order ${order.id} activated`;
      }
    } else if (FINISHED.has(subscription.status)) {
      // The plan ends when the subscription did, and never later than now (a test clock may run ahead).
      const endedAt = Math.min(unixSeconds(subscription.endedAt ?? now), unixSeconds(now));
      const onIt = findPlan(user.plan)?.name === plan.name && (user.planExpiresAt ?? 0) > endedAt;
      if (onIt) await tx.users.update(userId, { planExpiresAt: endedAt }, now);
      outcome = onIt ? `${plan.name} ended at ${new Date(endedAt * 1000).toISOString()}` : 'already ended';
    } else {
      outcome = `subscription ${subscription.status}: plan unchanged`;
    }
    const change = await bringWithinPlan(tx, userId, now);
    if (change) outcome += '; limits applied';
    if (change?.noticeId) noticeIds.push(change.noticeId);
    return { userId, outcome };
  }

  /**
   * A renewal charge failed: the person is told once per failed attempt, with the grace date, while the
   * subscription is past due (a last retry that fails ends the plan, and the plan-limits email says so).
   */
  async function noticePaymentFailed(
    tx: Repositories,
    userId: string,
    invoice: Stripe.Invoice,
    now: Date,
  ): Promise<string | null> {
    const [user, account] = await Promise.all([tx.users.findById(userId), tx.billing.findAccount(userId)]);
    if (!user || !account?.plan || account.status !== 'past_due') return null;
    const until = account.graceUntil ?? addMs(now, GRACE_DAYS * DAY_MS);
    const amount = `${(invoice.amount_due / 100).toFixed(2)} ${invoice.currency.toUpperCase()}`;
    return tx.notices.add({
      userId,
      key: `payment-failed:${invoice.id}:${invoice.attempt_count}`,
      recipient: user.contactEmail ?? user.email,
      subject: `Your payment for Vigil ${account.plan} failed`,
      text: [
        `We could not charge ${amount} for your Vigil ${account.plan} plan.`,
        '',
        `Your monitors keep running on ${account.plan} until ${formatDay(until)} while the payment is retried.`,
        `Update your card before then to keep them: ${deps.publicUrl}/app/pricing (Manage billing).`,
        '',
        `If no payment arrives, ${account.plan} ends and your account moves to the Free plan's limits: monitors beyond 3 are paused and calls and SMS alerts turn into emails.`,
      ].join('\n'),
      now,
    });
  }

  /** The first charge at Checkout was declined: the order says so (the person may try another card). */
  async function markDeclined(
    tx: Repositories,
    subscription: SubscriptionState,
    now: Date,
  ): Promise<Outcome> {
    const orderId = subscription.metadata.vigil_order;
    const order = orderId ? await tx.billing.findOrder(orderId) : undefined;
    if (!order || order.status !== 'pending') return 'declined at checkout; no pending order';
    await tx.billing.updateOrder(
      order.id,
      {
        failureReason: 'declined',
        failureMessage: 'Your card was declined. Try another card, or ask your bank why.',
      },
      now,
    );
    return `order ${order.id}: card declined`;
  }

  async function applyEvent(
    tx: Repositories,
    event: Stripe.Event,
    now: Date,
    noticeIds: string[],
  ): Promise<Outcome> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const checkout = await gateway.checkout(event.data.object.id);
        if (checkout.status !== 'complete' || !checkout.subscriptionId) return 'checkout not complete yet';
        const subscription = await gateway.subscription(checkout.subscriptionId);
        if (!subscription) return `subscription ${checkout.subscriptionId} not found`;
        // The order is the session's client_reference_id, whatever the subscription's metadata says.
        if (checkout.orderId) subscription.metadata.vigil_order ??= checkout.orderId;
        return (await syncSubscription(tx, subscription, now, noticeIds)).outcome;
      }
      case 'checkout.session.expired': {
        const orderId = event.data.object.client_reference_id;
        const order = orderId ? await tx.billing.findOrder(orderId) : undefined;
        if (!order || order.status !== 'pending') return 'no pending order';
        await tx.billing.updateOrder(
          order.id,
          {
            status: 'failed',
            failureReason: 'expired',
            failureMessage: 'Checkout expired before it was paid. Nothing was charged; start again.',
            checkoutUrl: null,
          },
          now,
        );
        return `order ${order.id} expired`;
      }
      case 'invoice.paid':
      case 'invoice.payment_succeeded':
      case 'invoice.payment_failed':
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const id = subscriptionIdOf(event);
        if (!id) return 'not about a subscription';
        const subscription = await gateway.subscription(id);
        if (!subscription) return `subscription ${id} not found`;
        const { userId, outcome } = await syncSubscription(tx, subscription, now, noticeIds);
        if (event.type !== 'invoice.payment_failed' || !userId) return outcome;
        const invoice = event.data.object;
        if (invoice.billing_reason === 'subscription_create')
          return `${outcome}; ${await markDeclined(tx, subscription, now)}`;
        const noticeId = await noticePaymentFailed(tx, userId, invoice, now);
        if (noticeId) noticeIds.push(noticeId);
        return `${outcome}; payment failed, grace notice`;
      }
      default:
        return `ignored: ${event.type}`;
    }
  }

  return {
    /**
     * Applies one received event, once. Reading Stripe happens inside the transaction, which holds only the
     * event's and the person's rows: a slow Stripe delays that person's changes, nobody else's.
     */
    async apply(eventId: string): Promise<Applied | null> {
      return store.transaction(async (tx) => {
        const row = await tx.billing.lockEvent(eventId);
        if (!row || row.appliedAt) return null;
        const now = clock.now();
        const noticeIds: string[] = [];
        const outcome = await applyEvent(tx, row.payload as Stripe.Event, now, noticeIds);
        await tx.billing.markApplied(eventId, outcome, now);
        return { outcome, noticeIds };
      });
    },
  };
}
export type StripeEventProcessor = ReturnType<typeof createStripeEventProcessor>;
