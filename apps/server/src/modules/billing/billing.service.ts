import { randomBytes } from 'node:crypto';
import type {
  BillingPeriod,
  PlanOrder,
  PlanOrderCreateBody,
  SubscriptionInfo,
  SubscriptionState as ShownState,
} from '@vigil/contracts';
import type { Store } from '../../db/store.ts';
import { AppError } from '../../lib/app-error.ts';
import { addMs, type Clock, MINUTE_MS, unixSeconds } from '../../lib/clock.ts';
import { effectivePlan, findPlan, NO_PLAN, PLAN_CATALOGUE } from '../plans/plan-catalogue.ts';
import type { AuthSession } from '../sessions/session.service.ts';
import type { BillingAccountRow, PlanOrderRow } from './billing.repository.ts';
import type { BillingGateway } from './stripe-gateway.ts';

/** A pending order of the same plan and period this recent is reused: one Checkout per double click. */
const REUSE_ORDER_MS = 30 * MINUTE_MS;
/** Subscription statuses that mean the person pays for a plan now (a second one goes through the portal). */
const PAYING = new Set(['active', 'trialing', 'past_due']);

function newOrderId(): string {
  return `ord_${randomBytes(12).toString('base64url')}`;
}

function toPlanOrder(row: PlanOrderRow, planExpiresAt: number | null): PlanOrder {
  return {
    orderId: row.id,
    plan: row.plan,
    period: row.period as BillingPeriod,
    amountCents: row.amountCents,
    currency: row.currency,
    status: row.status as PlanOrder['status'],
    failure:
      row.failureReason && row.failureMessage
        ? { reason: row.failureReason as 'declined' | 'expired', message: row.failureMessage }
        : null,
    checkoutUrl: row.status === 'pending' ? row.checkoutUrl : null,
    createdAt: row.createdAt.toISOString(),
    activatedAt: row.activatedAt?.toISOString() ?? null,
    planExpiresin: row.status === 'active' ? planExpiresAt : null,
  };
}

function isPaying(account: BillingAccountRow | undefined): account is BillingAccountRow {
  return Boolean(account?.subscriptionId && account.status && PAYING.has(account.status));
}

/** Plan orders through Stripe Checkout, the subscription as the person sees it, and the billing portal. */
export function createBillingService(deps: {
  store: Store;
  gateway: BillingGateway;
  clock: Clock;
  publicUrl: string;
}) {
  const { store, gateway, clock, publicUrl } = deps;

  async function ownOrder(session: AuthSession, orderId: string): Promise<PlanOrderRow> {
    const order = await store.billing.findOrder(orderId);
    if (!order || order.userId !== session.userId) {
      throw new AppError('NOT_FOUND', 'There is no such order on your account.');
    }
    return order;
  }

  /** The person's Stripe customer, made once (the Idempotency-Key is the user, so a race makes one). */
  async function customerOf(userId: string, email: string): Promise<string> {
    const account = await store.billing.findAccount(userId);
    if (account) return account.customerId;
    const customerId = await gateway.createCustomer({ userId, email });
    return (await store.billing.insertAccount(userId, customerId, clock.now())).customerId;
  }

  return {
    /**
     * Records a pending order and opens its Checkout Session. A pending order of the same plan and period
     * from the last 30 minutes is reused, and the session is opened with the order as Idempotency-Key, so a
     * double click, a retry or two tabs open one session and answer the same url.
     */
    async createOrder(
      session: AuthSession,
      body: PlanOrderCreateBody,
    ): Promise<{ orderId: string; url: string }> {
      const plan = findPlan(body.plan);
      const paid = PLAN_CATALOGUE.filter((p) => p.checkout).map((p) => p.name);
      if (!plan) {
        throw new AppError(
          'INVALID',
          `There is no plan called "${body.plan.slice(0, 40)}". Choose ${paid.join(', ')}.`,
        );
      }
      if (!plan.checkout) {
        throw new AppError(
          'INVALID',
          `${plan.name} is not bought: choose it on the pricing page to start it.`,
        );
      }
      const priceId = gateway.priceOf(plan.name, body.period);
      if (!priceId) {
        throw new AppError(
          'INVALID',
          `${plan.name} cannot be paid by the ${body.period} here. Choose the other period.`,
        );
      }
      const user = await store.users.findById(session.userId);
      if (!user) throw new AppError('UNAUTHORIZED', 'Your session has ended. Sign in again.');
      const account = await store.billing.findAccount(user.id);
      if (isPaying(account)) {
        throw new AppError(
          'CONFLICT',
          `You already pay for ${account.plan ?? 'a plan'}. Change plans or billing period with Manage billing on the Subscription page.`,
        );
      }
      const customerId = await customerOf(user.id, user.contactEmail ?? user.email);
      const now = clock.now();
      const order = await store.transaction(async (tx) => {
        await tx.billing.lockUser(user.id);
        const reusable = await tx.billing.reusableOrder(
          user.id,
          plan.name,
          body.period,
          addMs(now, -REUSE_ORDER_MS),
        );
        if (reusable) return reusable;
        const yearly = body.period === 'year';
        return tx.billing.insertOrder({
          id: newOrderId(),
          userId: user.id,
          plan: plan.name,
          period: body.period,
          amountCents: yearly ? plan.priceYearlyCents : plan.priceMonthlyCents,
          currency: 'usd',
          status: 'pending',
          createdAt: now,
          updatedAt: now,
        });
      });
      if (order.checkoutUrl) return { orderId: order.id, url: order.checkoutUrl };
      const query = `?order=${encodeURIComponent(order.id)}`;
      const checkout = await gateway.openCheckout({
        orderId: order.id,
        userId: user.id,
        customerId,
        priceId,
        successUrl: `${publicUrl}/app/payment-success${query}`,
        cancelUrl: `${publicUrl}/app/payment-error${query}`,
      });
      await store.billing.setCheckout(order.id, checkout, clock.now());
      return { orderId: order.id, url: checkout.url };
    },

    async order(session: AuthSession, orderId: string): Promise<PlanOrder> {
      const order = await ownOrder(session, orderId);
      const user = await store.users.findById(session.userId);
      return toPlanOrder(order, user?.planExpiresAt ?? null);
    },

    async subscription(session: AuthSession): Promise<SubscriptionInfo> {
      const user = await store.users.findById(session.userId);
      if (!user) throw new AppError('UNAUTHORIZED', 'Your session has ended. Sign in again.');
      const account = await store.billing.findAccount(user.id);
      const now = clock.now();
      const inForce = effectivePlan(user, now);
      const paying = isPaying(account) && inForce.checkout && inForce.name === account.plan;
      let state: ShownState;
      if (paying && account.status === 'past_due') state = 'past_due';
      else if (paying) state = account.cancelAtPeriodEnd ? 'canceling' : 'active';
      else state = inForce === NO_PLAN ? 'ended' : 'free';
      const renews = state === 'active' && account?.periodEnd && account.amountCents !== null;
      return {
        plan: state === 'ended' ? user.plan : inForce.name,
        state,
        period: paying ? ((account.period as BillingPeriod | null) ?? null) : null,
        planExpiresin: user.planExpiresAt === null ? '0' : user.planExpiresAt,
        nextCharge: renews
          ? {
              amountCents: account.amountCents!,
              currency: account.currency ?? 'usd',
              at: unixSeconds(account.periodEnd!),
            }
          : null,
        graceUntil: state === 'past_due' && account?.graceUntil ? unixSeconds(account.graceUntil) : null,
        canManageBilling: Boolean(account?.subscriptionId),
      };
    },

    /** A Stripe customer portal session (card, plan changes, cancelling, invoices) that returns to pricing. */
    async portal(session: AuthSession): Promise<{ url: string }> {
      const account = await store.billing.findAccount(session.userId);
      if (!account?.subscriptionId) {
        throw new AppError(
          'INVALID',
          'You have not paid for a plan yet: choose one on the pricing page first.',
        );
      }
      return {
        url: await gateway.portal({ customerId: account.customerId, returnUrl: `${publicUrl}/app/pricing` }),
      };
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
