import {
  planOrderCreateResponse,
  planOrderResponse,
  subscriptionResponse,
  type PlanOrder,
} from '@vigil/contracts';
import { eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_STRIPE } from '../../config.ts';
import { stripeEvents } from '../../db/schema.ts';
import { createStore } from '../../db/store.ts';
import { unixSeconds } from '../../lib/clock.ts';
import { databases } from '../../test/databases.ts';
import { call, registerUser, startTestApp, type Registered, type TestApp } from '../../test/test-app.ts';
import { createStripeEventProcessor } from './stripe-events.ts';
import { createStripeGateway } from './stripe-gateway.ts';

const GOOD_CARD = '4242 4242 4242 4242';
const DECLINED_CARD = '4000 0000 0000 0002';
const FAILS_RENEWAL_CARD = '4000 0000 0000 0341';

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(databases)('buying plans through Stripe on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The sandbox's JSON control API (its hosted Checkout form does the same). */
  async function sandbox<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${t.url}/sandbox/api/stripe${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as { data: T; message?: string };
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${json.message}`);
    return json.data;
  }

  const stripe = () =>
    new Stripe(SANDBOX_STRIPE.secretKey, {
      host: '127.0.0.1',
      port: new URL(t.deps.config.stripe!.apiUrl).port,
      protocol: 'http',
    });

  const order = async (user: Registered, orderId: string): Promise<PlanOrder> =>
    (await call(t.app, 'GET', `/monitor-bff/plan-order?order=${orderId}`, { token: user.token })).body.data;

  async function onboarded(): Promise<Registered> {
    const user = await registerUser(t.app);
    await call(t.app, 'POST', '/monitor-bff/onboarding/user-info', {
      token: user.token,
      body: { industry: 'Other', contactEmail: user.email },
    });
    return user;
  }

  async function openCheckout(user: Registered, plan = 'Pro', period = 'month') {
    const { status, body } = await call(t.app, 'POST', '/monitor-bff/plan-order/create', {
      token: user.token,
      body: { plan, period },
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const { orderId, url } = planOrderCreateResponse.parse(body).data;
    const sessionId = new URL(url).pathname.split('/').pop()!;
    return { orderId, url, sessionId };
  }

  async function buy(user: Registered, card = GOOD_CARD, plan = 'Pro', period = 'month') {
    const checkout = await openCheckout(user, plan, period);
    const paid = await sandbox<{ outcome: string }>('POST', `/checkout/sessions/${checkout.sessionId}/pay`, {
      card,
    });
    expect(paid.outcome).toBe('paid');
    const active = await waitFor(
      'the order to activate',
      () => order(user, checkout.orderId),
      (o) => o.status === 'active',
    );
    return { ...checkout, active };
  }

  const subscription = async (user: Registered) => {
    const { body } = await call(t.app, 'GET', '/monitor-bff/subscription', { token: user.token });
    return subscriptionResponse.parse(body).data;
  };

  async function subscriptionIdOf(email: string): Promise<string> {
    const { list } = await sandbox<{ list: { id: string }[] }>(
      'GET',
      `/subscriptions?email=${encodeURIComponent(email)}`,
    );
    expect(list).toHaveLength(1);
    return list[0]!.id;
  }

  it('lists paid plans with monthly and yearly prices, since payments are taken', async () => {
    const { body } = await call(t.app, 'GET', '/monitor-bff/plans');
    const pro = body.data.list.find((plan: { name: string }) => plan.name === 'Pro');
    expect(pro).toMatchObject({ priceMonthlyCents: 4900, priceYearlyCents: 49000, checkout: true });
  });

  it('opens one Checkout for a double click, and answers another user 404 for the order', async () => {
    const user = await onboarded();
    const [first, second] = await Promise.all([openCheckout(user), openCheckout(user)]);
    expect(second.orderId).toBe(first.orderId);
    expect(second.url).toBe(first.url);
    expect(first.url).toMatch(new RegExp(`^${t.url}/sandbox/stripe/checkout/cs_`));
    const pending = await order(user, first.orderId);
    expect(planOrderResponse.parse({ data: pending }).data).toMatchObject({
      plan: 'Pro',
      period: 'month',
      amountCents: 4900,
      currency: 'usd',
      status: 'pending',
      failure: null,
      checkoutUrl: first.url,
      planExpiresin: null,
    });
    const session = await stripe().checkout.sessions.retrieve(first.sessionId);
    expect(session.client_reference_id).toBe(first.orderId);
    expect(session.mode).toBe('subscription');

    const stranger = await onboarded();
    const foreign = await call(t.app, 'GET', `/monitor-bff/plan-order?order=${first.orderId}`, {
      token: stranger.token,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    expect(
      (await call(t.app, 'GET', '/monitor-bff/plan-order?order=ord_nope', { token: user.token })).status,
    ).toBe(404);
  });

  it('refuses Free, unknown plans and periods with a sentence', async () => {
    const user = await onboarded();
    const create = (body: unknown) =>
      call(t.app, 'POST', '/monitor-bff/plan-order/create', { token: user.token, body });
    expect((await create({ plan: 'Free', period: 'month' })).body.message).toMatch(/not bought/);
    expect((await create({ plan: 'Platinum', period: 'month' })).body.message).toMatch(/no plan called/);
    const badPeriod = await create({ plan: 'Pro', period: 'week' });
    expect(badPeriod.status).toBe(400);
    expect(badPeriod.body.message).toMatch(/month.*year/);
    expect(await create({ plan: 'Pro', period: 'month' }).then((r) => r.status)).toBe(200);
    expect(
      (
        await call(t.app, 'POST', '/monitor-bff/plan-order/create', {
          body: { plan: 'Pro', period: 'month' },
        })
      ).status,
    ).toBe(401);
  });

  it('activates the plan when the webhook says Checkout completed, until the paid period ends', async () => {
    const user = await onboarded();
    const { active } = await buy(user, GOOD_CARD, 'Pro', 'year');
    const info = (await call(t.app, 'GET', '/monitor-bff/user-info', { token: user.token })).body.data;
    expect(info.plan).toBe('Pro');
    expect(active.planExpiresin).toBe(info.planExpiresin);
    // A year from now, give or take the seconds the test took.
    expect(Math.abs(info.planExpiresin - (unixSeconds(t.clock.now()) + 365 * 86_400))).toBeLessThan(
      2 * 86_400,
    );
    expect(await subscription(user)).toMatchObject({
      plan: 'Pro',
      state: 'active',
      period: 'year',
      nextCharge: { amountCents: 49000, currency: 'usd', at: info.planExpiresin },
      graceUntil: null,
      canManageBilling: true,
    });
    // A second plan goes through the portal, not a second subscription.
    const again = await call(t.app, 'POST', '/monitor-bff/plan-order/create', {
      token: user.token,
      body: { plan: 'Business', period: 'month' },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/Manage billing/);
    const portal = await call(t.app, 'POST', '/monitor-bff/subscription/portal', { token: user.token });
    expect(portal.status).toBe(200);
    expect(portal.body.data.url).toMatch(new RegExp(`^${t.url}/sandbox/stripe/portal/`));
  });

  it('says a declined card on the order, and a later good card still activates it', async () => {
    const user = await onboarded();
    const checkout = await openCheckout(user, 'Starter');
    const declined = await sandbox<{ outcome: string; message: string }>(
      'POST',
      `/checkout/sessions/${checkout.sessionId}/pay`,
      { card: DECLINED_CARD },
    );
    expect(declined).toMatchObject({ outcome: 'declined', message: 'Your card was declined.' });
    const failed = await waitFor(
      'the decline',
      () => order(user, checkout.orderId),
      (o) => o.failure !== null,
    );
    expect(failed).toMatchObject({ status: 'pending', failure: { reason: 'declined' } });
    expect((await subscription(user)).state).not.toBe('active');

    await sandbox('POST', `/checkout/sessions/${checkout.sessionId}/pay`, { card: GOOD_CARD });
    const active = await waitFor(
      'activation',
      () => order(user, checkout.orderId),
      (o) => o.status === 'active',
    );
    expect(active.failure).toBeNull();
    expect((await subscription(user)).plan).toBe('Starter');
  });

  it('refuses a forged, stale or replayed webhook without changing anything', async () => {
    const store = createStore(t.database.db);
    // Only this event's rows: the sandbox may still be delivering other tests' events meanwhile.
    const count = async () =>
      Number(
        (
          await t.database.db
            .select({ n: sql`count(*)` })
            .from(stripeEvents)
            .where(eq(stripeEvents.id, 'evt_forged_1'))
        )[0]!.n,
      );
    const before = 0;
    expect(await count()).toBe(before);
    const payload = JSON.stringify({
      id: 'evt_forged_1',
      object: 'event',
      type: 'customer.subscription.deleted',
      created: unixSeconds(t.clock.now()),
      data: { object: { id: 'sub_nope', object: 'subscription' } },
    });
    const post = (signature: string, body = payload) =>
      call(t.app, 'POST', '/webhooks/stripe', {
        body,
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      });
    const sign = (secret: string, timestamp = unixSeconds(t.clock.now()), body = payload) =>
      Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp });

    const forged = await post(sign('whsec_someone_else'));
    expect(forged.status).toBe(400);
    expect(forged.body.message).toMatch(/not signed by Stripe/);
    expect((await post('t=1,v1=deadbeef')).status).toBe(400);
    expect(
      (
        await call(t.app, 'POST', '/webhooks/stripe', {
          body: payload,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    const stale = await post(sign(SANDBOX_STRIPE.webhookSecret, unixSeconds(t.clock.now()) - 301));
    expect(stale.status).toBe(400);
    const tampered = await post(sign(SANDBOX_STRIPE.webhookSecret), payload.replace('sub_nope', 'sub_other'));
    expect(tampered.status).toBe(400);
    expect(await count()).toBe(before);

    // Correctly signed: recorded once, however often it is delivered.
    const good = sign(SANDBOX_STRIPE.webhookSecret);
    const [first, replay] = await Promise.all([post(good), post(good)]);
    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(await count()).toBe(before + 1);
    const applied = await waitFor(
      'the event to be applied',
      async () =>
        (await t.database.db.select().from(stripeEvents).where(eq(stripeEvents.id, 'evt_forged_1')))[0],
      (row) => Boolean(row?.appliedAt),
    );
    expect(applied?.outcome).toMatch(/not found/);
    expect(await store.billing.unapplied(t.clock.now(), 10)).not.toContain('evt_forged_1');
  });

  it('ends in the right state when events arrive in reverse order and twice', async () => {
    const user = await onboarded();
    await sandbox('POST', '/webhooks/hold', { hold: true });
    let checkout: Awaited<ReturnType<typeof openCheckout>>;
    try {
      checkout = await openCheckout(user, 'Business', 'month');
      await sandbox('POST', `/checkout/sessions/${checkout.sessionId}/pay`, { card: GOOD_CARD });
      // The person cancels at the period's end before any event arrived.
      const subscriptionId = await subscriptionIdOf(user.email);
      await stripe().subscriptions.update(subscriptionId, { cancel_at_period_end: true });
      expect((await order(user, checkout.orderId)).status).toBe('pending');
    } finally {
      await sandbox('POST', '/webhooks/release', { order: 'reverse' });
      await sandbox('POST', '/webhooks/hold', { hold: false });
    }
    await waitFor(
      'activation',
      () => order(user, checkout.orderId),
      (o) => o.status === 'active',
    );
    const events = (await sandbox<{ list: { id: string; type: string }[] }>('GET', '/events?limit=20')).list;
    const completed = events.find((event) => event.type === 'checkout.session.completed')!;
    await sandbox('POST', `/events/${completed.id}/duplicate`);
    await waitFor(
      'the canceling state',
      () => subscription(user),
      (s) => s.state === 'canceling',
    );
    expect(await subscription(user)).toMatchObject({
      plan: 'Business',
      state: 'canceling',
      nextCharge: null,
    });
  });

  it('a failed renewal starts a grace period and emails the person; the last retry ends the plan', async () => {
    const user = await onboarded();
    const { active } = await buy(user, FAILS_RENEWAL_CARD);
    const subscriptionId = await subscriptionIdOf(user.email);

    await sandbox('POST', `/subscriptions/${subscriptionId}/advance`);
    const pastDue = await waitFor(
      'past_due',
      () => subscription(user),
      (s) => s.state === 'past_due',
    );
    expect(pastDue.plan).toBe('Pro');
    // Seven days of grace from the unpaid period's start (the old period's end).
    expect(pastDue.graceUntil).toBe(active.planExpiresin! + 7 * 86_400);
    const mail = await waitFor(
      'the payment-failed email',
      async () => t.sandbox.mailbox.list({ to: user.email }),
      (mails) => mails.some((m) => m.subject === 'Your payment for Vigil Pro failed'),
    );
    const failedMail = mail.find((m) => m.subject === 'Your payment for Vigil Pro failed')!;
    expect(failedMail.text).toMatch(/Update your card/);

    await sandbox('POST', `/subscriptions/${subscriptionId}/advance`);
    const ended = await waitFor(
      'the end of Pro',
      () => subscription(user),
      (s) => s.state !== 'past_due',
    );
    expect(ended.state).toBe('free');
    const info = (await call(t.app, 'GET', '/monitor-bff/user-info', { token: user.token })).body.data;
    expect(info.planExpiresin).toBeGreaterThan(unixSeconds(t.clock.now()));
    expect(info.plan).toBe('Free');
  });

  it('applies checkout.session.completed exactly once when the worker dies half-way', async () => {
    const user = await onboarded();
    // Webhooks are held, so this test plays the webhook's part for checkout.session.completed.
    await sandbox('POST', '/webhooks/hold', { hold: true });
    try {
      const checkout = await openCheckout(user, 'Starter', 'month');
      await sandbox('POST', `/checkout/sessions/${checkout.sessionId}/pay`, { card: GOOD_CARD });
      const events = (await sandbox<{ list: { id: string; type: string }[] }>('GET', '/events?limit=20'))
        .list;
      const completed = events.find((event) => event.type === 'checkout.session.completed')!;
      const store = createStore(t.database.db);
      const recorded = await store.billing.insertEvent({
        id: completed.id,
        type: completed.type,
        payload: { id: completed.id, type: completed.type, data: { object: { id: checkout.sessionId } } },
        now: t.clock.now(),
      });
      expect(recorded).toBe(true);
      // A worker that dies while Stripe answers: nothing it did commits.
      const gateway = createStripeGateway(t.deps.config.stripe!);
      const dying = createStripeEventProcessor({
        store,
        clock: t.clock,
        publicUrl: t.url,
        gateway: {
          ...gateway,
          subscription: async (id) => {
            await gateway.subscription(id);
            throw new Error('killed');
          },
        },
      });
      await expect(dying.apply(completed.id)).rejects.toThrow('killed');
      expect((await order(user, checkout.orderId)).status).toBe('pending');

      const live = createStripeEventProcessor({ store, clock: t.clock, publicUrl: t.url, gateway });
      const outcomes = await Promise.all([live.apply(completed.id), live.apply(completed.id)]);
      expect(outcomes.filter((outcome) => outcome !== null)).toHaveLength(1);
      expect(outcomes.find((outcome) => outcome !== null)?.outcome).toMatch(/order .* activated/);
      expect(await live.apply(completed.id)).toBeNull();
      const active = await order(user, checkout.orderId);
      expect(active.status).toBe('active');
    } finally {
      await sandbox('POST', '/webhooks/release', { order: 'created' });
      await sandbox('POST', '/webhooks/hold', { hold: false });
    }
  });
});
