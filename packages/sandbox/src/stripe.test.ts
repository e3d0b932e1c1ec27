import Fastify, { type FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type StripeSandbox } from './index.ts';
import { Waiters } from './waiters.ts';

const SECRET_KEY = 'sk_test_vigil_sandbox_key';
const WEBHOOK_SECRET = 'whsec_test_signing_secret';
const PRO_MONTH = 'price_vigil_pro_month';
const PRO_YEAR = 'price_vigil_pro_year';
const STARTER_MONTH = 'price_vigil_starter_month';

/** An event as "Vigil" received it: verified with the SDK, exactly as the server will. */
interface Received {
  event: Stripe.Event;
  object: { id: string; object: string; customer?: string | null; status?: string };
}

/** Stands in for Vigil's webhook endpoint: verifies each signature and answers the queued statuses (then 200). */
function startReceiver() {
  const received: Received[] = [];
  const refused: string[] = [];
  const answers: number[] = [];
  const waiters = new Waiters<Received>('webhook');
  const verifier = new Stripe(SECRET_KEY);
  const app = Fastify();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  app.post('/webhooks/stripe', async (request, reply) => {
    const status = answers.shift() ?? 200;
    try {
      const event = verifier.webhooks.constructEvent(
        request.body as string,
        request.headers['stripe-signature'] as string,
        WEBHOOK_SECRET,
        300,
      );
      const item = { event, object: event.data.object as unknown as Received['object'] };
      received.push(item);
      waiters.notify(item);
    } catch (error) {
      refused.push((error as Error).message);
      return reply.code(400).send({ error: 'bad signature' });
    }
    return reply.code(status).send({ received: true });
  });
  return {
    app,
    received,
    refused,
    answers,
    waitFor: (predicate: (item: Received) => boolean) => waiters.waitFor(received, predicate, 5000),
  };
}

const receiver = startReceiver();
let app: FastifyInstance;
let sandbox: Sandbox;
let stripe: StripeSandbox;
let client: Stripe;
let origin = '';
let clockOffset = 0;

/** The events "Vigil" received about one customer's objects, in arrival order. */
function typesFor(customer: string): string[] {
  return receiver.received
    .filter(({ object }) => object.customer === customer || object.id === customer)
    .map(({ event }) => event.type);
}

async function api<T>(path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${origin}/sandbox/api/stripe${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function openCheckout(params: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
  return client.checkout.sessions.create({
    mode: 'subscription',
    line_items: [{ price: PRO_MONTH, quantity: 1 }],
    success_url: `${origin}/app/billing/success?session={CHECKOUT_SESSION_ID}`,
    cancel_url: `${origin}/app/pricing`,
    ...params,
  });
}

/** A customer with an active Pro subscription paid with `card`; answers the ids. */
async function subscribe(card = '4242 4242 4242 4242', price = PRO_MONTH) {
  const customer = await client.customers.create({
    email: `${Math.random().toString(36).slice(2)}@shop.example`,
  });
  const session = await openCheckout({ customer: customer.id, line_items: [{ price, quantity: 1 }] });
  const paid = await api<{ data: { outcome: string } }>(`/checkout/sessions/${session.id}/pay`, { card });
  expect(paid.body.data.outcome).toBe('paid');
  const completed = await receiver.waitFor(
    ({ event, object }) => event.type === 'checkout.session.completed' && object.id === session.id,
  );
  const subscriptionId = (completed.event.data.object as Stripe.Checkout.Session).subscription as string;
  return { customer: customer.id, session: session.id, subscription: subscriptionId };
}

beforeAll(async () => {
  const receiverUrl = await receiver.app.listen({ port: 0, host: '127.0.0.1' });
  sandbox = createSandbox({
    publicUrl: () => origin,
    smtpPort: 0,
    oidcClientId: 'client-a',
    oidcClientSecret: 'secret-a',
    stripe: {
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      webhookUrl: `${receiverUrl}/webhooks/stripe`,
      webhookRetryDelaysMs: [20, 40],
      prices: [
        { id: STARTER_MONTH, product: 'Vigil Starter', unitAmount: 1900, currency: 'usd', interval: 'month' },
        {
          id: PRO_MONTH,
          product: 'Vigil Pro',
          unitAmount: 4900,
          currency: 'usd',
          interval: 'month',
          lookupKey: 'vigil_pro_month',
        },
        { id: PRO_YEAR, product: 'Vigil Pro', unitAmount: 49_000, currency: 'usd', interval: 'year' },
      ],
      now: () => Date.now() + clockOffset,
    },
  });
  stripe = sandbox.stripe;
  app = Fastify();
  await app.register(sandbox.plugin, { prefix: '/sandbox' });
  const { stripePort } = await sandbox.start();
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
  client = new Stripe(SECRET_KEY, { host: '127.0.0.1', port: stripePort, protocol: 'http' });
});

afterAll(async () => {
  await app.close();
  await sandbox.stop();
  await receiver.app.close();
});

beforeEach(() => {
  receiver.answers.length = 0;
  clockOffset = 0;
});

describe('Stripe REST API through the stripe SDK', () => {
  it('creates, reads, updates and lists customers', async () => {
    const created = await client.customers.create({
      email: 'owner@shop.example',
      name: 'Shop Owner',
      metadata: { vigil_user: 'u1' },
    });
    expect(created).toMatchObject({
      object: 'customer',
      email: 'owner@shop.example',
      metadata: { vigil_user: 'u1' },
    });
    expect(created.id).toMatch(/^cus_/);
    expect(created.lastResponse.requestId).toMatch(/^req_/);

    const updated = await client.customers.update(created.id, {
      name: 'New Name',
      metadata: { plan: 'pro' },
    });
    expect(updated).toMatchObject({ name: 'New Name', metadata: { vigil_user: 'u1', plan: 'pro' } });
    expect((await client.customers.retrieve(created.id)) as Stripe.Customer).toMatchObject({
      name: 'New Name',
    });
    const listed = await client.customers.list({ email: 'owner@shop.example' });
    expect(listed).toMatchObject({ object: 'list', has_more: false, url: '/v1/customers' });
    expect(listed.data.map((c) => c.id)).toContain(created.id);

    const updatedEvent = await receiver.waitFor(
      ({ event, object }) => event.type === 'customer.updated' && object.id === created.id,
    );
    expect(updatedEvent.event.data.previous_attributes).toEqual({
      name: 'Shop Owner',
      metadata: { plan: null },
    });
    expect(updatedEvent.event.request).toEqual({
      id: updated.lastResponse.requestId,
      idempotency_key: expect.stringMatching(/^stripe-node-retry-/),
    });
  });

  it('lists prices by lookup key and expands their product', async () => {
    const prices = await client.prices.list({ lookup_keys: ['vigil_pro_month'], expand: ['data.product'] });
    expect(prices.data).toHaveLength(1);
    expect(prices.data[0]).toMatchObject({
      id: PRO_MONTH,
      unit_amount: 4900,
      currency: 'usd',
      recurring: { interval: 'month', interval_count: 1 },
      product: { object: 'product', name: 'Vigil Pro' },
    });
    const all = await client.prices.list({ active: true, limit: 2 });
    expect(all.data).toHaveLength(2);
    expect(all.has_more).toBe(true);
    const rest = await client.prices.list({ starting_after: all.data[1]!.id });
    expect(rest.data).toHaveLength(1);
    expect(await client.prices.retrieve(PRO_YEAR)).toMatchObject({ recurring: { interval: 'year' } });
  });

  it('answers a repeated Idempotency-Key with the first Checkout Session, and refuses other parameters', async () => {
    const key = `order-${Math.random()}`;
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: 'subscription',
      line_items: [{ price: PRO_MONTH, quantity: 1 }],
      client_reference_id: 'order-7',
    };
    const first = await client.checkout.sessions.create(params, { idempotencyKey: key });
    const again = await client.checkout.sessions.create(params, { idempotencyKey: key });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(first.lastResponse.headers['idempotent-replayed']).toBeUndefined();
    const sessions = await client.checkout.sessions.list({ limit: 100 });
    expect(sessions.data.filter((s) => s.client_reference_id === 'order-7')).toHaveLength(1);

    await expect(
      client.checkout.sessions.create(
        { ...params, line_items: [{ price: PRO_YEAR, quantity: 1 }] },
        { idempotencyKey: key },
      ),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('makes one object for concurrent requests with one Idempotency-Key', async () => {
    const key = `customer-${Math.random()}`;
    const email = `${key}@shop.example`;
    const answers = await Promise.all(
      [1, 2, 3].map(() => client.customers.create({ email }, { idempotencyKey: key })),
    );
    expect(new Set(answers.map((c) => c.id)).size).toBe(1);
    expect((await client.customers.list({ email })).data).toHaveLength(1);
  });

  it("answers Stripe's errors: a wrong key, an unknown id, a missing parameter", async () => {
    const stranger = new Stripe('sk_test_wrong_key_123456', {
      host: '127.0.0.1',
      port: stripe.port,
      protocol: 'http',
    });
    const unauthorized = await stranger.customers.list().catch((error: unknown) => error);
    expect(unauthorized).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((unauthorized as Stripe.errors.StripeError).statusCode).toBe(401);

    const missing = await client.subscriptions.retrieve('sub_nothing').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ code: 'resource_missing', statusCode: 404, param: 'id' });
    expect((missing as Error).message).toBe("No such subscription: 'sub_nothing'");

    const noPrice = await client.checkout.sessions
      .create({ mode: 'subscription', line_items: [{ quantity: 1 }] as never })
      .catch((error: unknown) => error);
    expect(noPrice).toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'parameter_missing',
      param: 'line_items[0][price]',
      statusCode: 400,
    });

    const unknownPrice = await openCheckout({ line_items: [{ price: 'price_nope', quantity: 1 }] }).catch(
      (error: unknown) => error,
    );
    expect(unknownPrice).toMatchObject({ code: 'resource_missing', param: 'line_items[0][price]' });
  });
});

describe('Checkout, renewals and webhooks', () => {
  it('pays with 4242: the subscription, its invoice and the events in order, each signed', async () => {
    const customer = await client.customers.create({ email: 'pay@shop.example' });
    const session = await openCheckout({
      customer: customer.id,
      client_reference_id: 'order-42',
      metadata: { vigil_order: 'order-42' },
      subscription_data: { metadata: { vigil_user: 'u42' } },
    });
    expect(session).toMatchObject({
      object: 'checkout.session',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 4900,
      currency: 'usd',
      customer: customer.id,
      subscription: null,
      url: `${origin}/sandbox/stripe/checkout/${session.id}`,
    });
    expect(session.expires_at - session.created).toBe(24 * 3600);

    const paid = await api<{ data: { outcome: string; redirect: string } }>(
      `/checkout/sessions/${session.id}/pay`,
      { card: '4242 4242 4242 4242' },
    );
    expect(paid.body.data).toMatchObject({
      outcome: 'paid',
      redirect: `${origin}/app/billing/success?session=${session.id}`,
    });
    await receiver.waitFor(
      ({ event, object }) => event.type === 'checkout.session.completed' && object.id === session.id,
    );
    expect(typesFor(customer.id)).toEqual([
      'customer.created',
      'customer.subscription.created',
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
      'checkout.session.completed',
    ]);
    expect(receiver.refused).toEqual([]);

    const done = await client.checkout.sessions.retrieve(session.id, {
      expand: ['subscription', 'customer'],
    });
    expect(done).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      client_reference_id: 'order-42',
      customer: { id: customer.id, email: 'pay@shop.example' },
    });
    const subscription = done.subscription as Stripe.Subscription;
    const item = subscription.items.data[0]!;
    expect(subscription).toMatchObject({
      status: 'active',
      customer: customer.id,
      metadata: { vigil_user: 'u42' },
    });
    expect(item).toMatchObject({ price: { id: PRO_MONTH }, quantity: 1 });
    const start = new Date(item.current_period_start * 1000);
    const end = new Date(item.current_period_end * 1000);
    expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);
    expect('current_period_end' in subscription).toBe(false);

    const withInvoice = await client.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice'] });
    const invoice = withInvoice.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({
      status: 'paid',
      billing_reason: 'subscription_create',
      amount_due: 4900,
      amount_paid: 4900,
      amount_remaining: 0,
      attempt_count: 1,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id } },
    });
    expect(invoice.lines.data[0]!.period).toEqual({
      start: item.current_period_start,
      end: item.current_period_end,
    });
    const invoices = await client.invoices.list({ subscription: subscription.id });
    expect(invoices.data.map((i) => i.id)).toEqual([invoice.id]);

    // The snapshot in each event is the object at that moment.
    const created = receiver.received.find(
      ({ event, object }) => event.type === 'invoice.created' && object.id === invoice.id,
    )!;
    expect(created.object.status).toBe('draft');
  });

  it('keeps the person on a declined card, then pays the same invoice with another', async () => {
    const session = await openCheckout({ customer_email: 'decline@shop.example' });
    const declined = await api<{ data: { outcome: string; message: string } }>(
      `/checkout/sessions/${session.id}/pay`,
      { card: '4000 0000 0000 0002' },
    );
    expect(declined.body.data).toMatchObject({ outcome: 'declined', message: 'Your card was declined.' });
    const poor = await api<{ data: { message: string } }>(`/checkout/sessions/${session.id}/pay`, {
      card: '4000000000009995',
    });
    expect(poor.body.data.message).toBe('Your card has insufficient funds.');
    expect((await client.checkout.sessions.retrieve(session.id)).status).toBe('open');

    const failed = await receiver.waitFor(
      ({ event, object }) =>
        event.type === 'invoice.payment_failed' &&
        (object as unknown as Stripe.Invoice).attempt_count === 2 &&
        (object as unknown as Stripe.Invoice).customer_email === 'decline@shop.example',
    );
    const customer = failed.object.customer!;
    const incomplete = (await client.subscriptions.list({ customer, status: 'all' })).data[0]!;
    expect(incomplete.status).toBe('incomplete');

    const paid = await api<{ data: { outcome: string } }>(`/checkout/sessions/${session.id}/pay`, {
      card: '4242424242424242',
    });
    expect(paid.body.data.outcome).toBe('paid');
    await receiver.waitFor(
      ({ event, object }) => event.type === 'checkout.session.completed' && object.id === session.id,
    );
    expect(typesFor(customer)).toEqual([
      'customer.created',
      'customer.subscription.created',
      'invoice.created',
      'invoice.finalized',
      'invoice.payment_failed',
      'invoice.payment_failed',
      'customer.subscription.updated',
      'invoice.paid',
      'invoice.payment_succeeded',
      'checkout.session.completed',
    ]);
    const active = await client.subscriptions.retrieve(incomplete.id);
    expect(active.status).toBe('active');
    expect(active.latest_invoice).toBe(incomplete.latest_invoice);
    const invoice = await client.invoices.retrieve(incomplete.latest_invoice as string);
    expect(invoice).toMatchObject({ status: 'paid', attempt_count: 3 });
    const updated = receiver.received.find(
      ({ event, object }) => event.type === 'customer.subscription.updated' && object.id === incomplete.id,
    )!;
    expect(updated.event.data.previous_attributes).toMatchObject({ status: 'incomplete' });
  });

  it('renews with a good card: a paid subscription_cycle invoice and the period moved on', async () => {
    const { subscription } = await subscribe();
    const before = await client.subscriptions.retrieve(subscription);
    const { body } = await api<{ data: { events: { type: string }[] } }>(
      `/subscriptions/${subscription}/advance`,
      {},
    );
    expect(body.data.events.map((e) => e.type)).toEqual([
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
      'customer.subscription.updated',
    ]);
    const after = await client.subscriptions.retrieve(subscription, { expand: ['latest_invoice'] });
    expect(after.status).toBe('active');
    expect(after.items.data[0]!.current_period_start).toBe(before.items.data[0]!.current_period_end);
    const invoice = after.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid' });
    expect(invoice.lines.data[0]!.period.start).toBe(before.items.data[0]!.current_period_end);
  });

  it('fails renewals on 0341: past_due, then canceled at the final retry', async () => {
    const { subscription, customer } = await subscribe('4000 0000 0000 0341');
    const first = stripe.advanceSubscription(subscription);
    expect(first.events.map((e) => e.type)).toEqual([
      'invoice.created',
      'invoice.finalized',
      'invoice.payment_failed',
      'customer.subscription.updated',
    ]);
    const pastDue = await client.subscriptions.retrieve(subscription, { expand: ['latest_invoice'] });
    expect(pastDue.status).toBe('past_due');
    const invoice = pastDue.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ status: 'open', attempt_count: 1, billing_reason: 'subscription_cycle' });
    expect(invoice.next_payment_attempt).toBeGreaterThan(pastDue.items.data[0]!.current_period_start);

    const last = stripe.advanceSubscription(subscription);
    expect(last.events.map((e) => e.type)).toEqual([
      'invoice.payment_failed',
      'customer.subscription.deleted',
    ]);
    expect(last.events[0]!.event.data.object).toMatchObject({ attempt_count: 2, next_payment_attempt: null });
    const canceled = await client.subscriptions.retrieve(subscription);
    expect(canceled).toMatchObject({ status: 'canceled', ended_at: invoice.next_payment_attempt });
    expect(canceled.cancellation_details?.reason).toBe('payment_failed');

    await receiver.waitFor(
      ({ event, object }) => event.type === 'customer.subscription.deleted' && object.id === subscription,
    );
    expect(typesFor(customer).slice(-6)).toEqual([
      'invoice.created',
      'invoice.finalized',
      'invoice.payment_failed',
      'customer.subscription.updated',
      'invoice.payment_failed',
      'customer.subscription.deleted',
    ]);
    const { status } = await api(`/subscriptions/${subscription}/advance`, {});
    expect(status).toBe(409);
  });

  it('pays a past_due invoice at once when the card is updated', async () => {
    const { subscription, customer } = await subscribe('4000000000000341');
    stripe.advanceSubscription(subscription);
    const saved = await api<{ data: { paid: boolean } }>(`/customers/${customer}/card`, {
      card: '4242424242424242',
    });
    expect(saved.body.data.paid).toBe(true);
    await receiver.waitFor(
      ({ event, object }) =>
        event.type === 'customer.subscription.updated' &&
        object.id === subscription &&
        object.status === 'active',
    );
    expect(typesFor(customer).slice(-4)).toEqual([
      'customer.updated',
      'invoice.paid',
      'invoice.payment_succeeded',
      'customer.subscription.updated',
    ]);
    expect((await client.subscriptions.retrieve(subscription)).status).toBe('active');
  });

  it('ends a subscription set to cancel at the period end when advanced', async () => {
    const { subscription } = await subscribe();
    const set = await client.subscriptions.update(subscription, { cancel_at_period_end: true });
    const periodEnd = set.items.data[0]!.current_period_end;
    expect(set).toMatchObject({ cancel_at_period_end: true, cancel_at: periodEnd, status: 'active' });
    const updated = await receiver.waitFor(
      ({ event, object }) => event.type === 'customer.subscription.updated' && object.id === subscription,
    );
    expect(updated.event.data.previous_attributes).toMatchObject({
      cancel_at_period_end: false,
      cancel_at: null,
    });

    const advanced = stripe.advanceSubscription(subscription);
    expect(advanced.events.map((e) => e.type)).toEqual(['customer.subscription.deleted']);
    expect(await client.subscriptions.retrieve(subscription)).toMatchObject({
      status: 'canceled',
      ended_at: periodEnd,
    });
    const list = await client.subscriptions.list({ customer: advanced.subscription.customerId });
    expect(list.data).toEqual([]);
  });

  it('changes the plan through the API: the same item gets the new price', async () => {
    const { subscription } = await subscribe();
    const current = await client.subscriptions.retrieve(subscription);
    const item = current.items.data[0]!;
    const changed = await client.subscriptions.update(subscription, {
      items: [{ id: item.id, price: STARTER_MONTH }],
      proration_behavior: 'none',
    });
    expect(changed.items.data[0]).toMatchObject({ id: item.id, price: { id: STARTER_MONTH } });
    expect(changed.items.data[0]!.current_period_end).toBe(item.current_period_end);
  });

  it('cancels at once on DELETE, and a canceled subscription is then missing', async () => {
    const { subscription } = await subscribe();
    const canceled = await client.subscriptions.cancel(subscription);
    expect(canceled).toMatchObject({ status: 'canceled', ended_at: expect.any(Number) });
    await receiver.waitFor(
      ({ event, object }) => event.type === 'customer.subscription.deleted' && object.id === subscription,
    );
    await expect(client.subscriptions.cancel(subscription)).rejects.toMatchObject({
      code: 'resource_missing',
    });
    await expect(
      client.subscriptions.update(subscription, { cancel_at_period_end: true }),
    ).rejects.toMatchObject({
      message: 'A canceled subscription can only update its cancellation_details and metadata.',
    });
  });

  it('holds webhooks and releases them in reverse order', async () => {
    stripe.holdWebhooks(true);
    const customer = await client.customers.create({ email: 'held@shop.example' });
    await client.customers.update(customer.id, { name: 'Held' });
    expect(stripe.heldEventCount).toBe(2);
    expect(typesFor(customer.id)).toEqual([]);
    stripe.holdWebhooks(false);
    const released = await api<{ data: { list: { type: string }[] } }>('/webhooks/release', {
      order: 'reverse',
    });
    expect(released.body.data.list.map((e) => e.type)).toEqual(['customer.updated', 'customer.created']);
    expect(typesFor(customer.id)).toEqual(['customer.updated', 'customer.created']);
  });

  it('retries a webhook answered 500, and re-sends keep the event id', async () => {
    receiver.answers.push(500);
    const customer = await client.customers.create({ email: 'retry@shop.example' });
    const event = await stripe.waitForEvent(
      (e) => e.type === 'customer.created' && e.objectId === customer.id && e.status === 'delivered',
    );
    expect(event.deliveries.map((d) => [d.trigger, d.status])).toEqual([
      ['automatic', 500],
      ['retry', 200],
    ]);
    expect(receiver.received.filter((r) => r.event.id === event.id)).toHaveLength(2);

    const resent = await api<{ data: { status: number } }>(`/events/${event.id}/resend`, {});
    expect(resent.body.data.status).toBe(200);
    const twice = await api<{ data: { list: { status: number }[] } }>(`/events/${event.id}/duplicate`, {});
    expect(twice.body.data.list.map((d) => d.status)).toEqual([200, 200]);
    expect(receiver.received.filter((r) => r.event.id === event.id)).toHaveLength(5);
    const listed = await api<{ data: { list: { id: string; deliveries: unknown[] }[] } }>(
      '/events?type=customer.created&limit=50',
    );
    expect(listed.body.data.list.find((e) => e.id === event.id)?.deliveries).toHaveLength(5);
    expect((await client.events.retrieve(event.id)).pending_webhooks).toBe(0);
  });
});

describe('hosted pages', () => {
  it('serves a labelled checkout form that refuses a bad number and redirects once paid', async () => {
    const session = await openCheckout({ customer_email: 'page@shop.example' });
    const html = await fetch(session.url!).then((r) => r.text());
    expect(html).toContain('Vigil Pro — $49.00 per month');
    for (const [id, label] of [
      ['pay-email', 'Email'],
      ['pay-number', 'Card number'],
      ['pay-expiry', 'Expiry (MM / YY)'],
      ['pay-cvc', 'CVC'],
      ['pay-name', 'Cardholder name'],
    ]) {
      expect(html).toContain(`<label for="${id}">${label}</label>`);
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toContain('4242 4242 4242 4242');
    expect(html).toContain(`href="${origin}/app/pricing"`);

    const form = (number: string) =>
      fetch(session.url!, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          email: 'page@shop.example',
          number,
          expiry: '12 / 40',
          cvc: '123',
          name: 'Page Person',
        }),
        redirect: 'manual',
      });
    const invalid = await form('4242 4242 4242 4241');
    const page = await invalid.text();
    expect(invalid.status).toBe(200);
    expect(page).toContain('role="alert"');
    expect(page).toContain('Your card number is invalid.');
    expect(page).toContain('aria-invalid="true"');

    const paid = await form('4242 4242 4242 4242');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${origin}/app/billing/success?session=${session.id}`);
    expect(await fetch(session.url!).then((r) => r.text())).toContain('This checkout is complete');
  });

  it('shows an expired checkout without a form', async () => {
    const session = await openCheckout();
    const expired = await client.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: 'expired', url: null });
    const html = await fetch(session.url!).then((r) => r.text());
    expect(html).toContain('This checkout has expired');
    expect(html).not.toContain('<form');
    await receiver.waitFor(
      ({ event, object }) => event.type === 'checkout.session.expired' && object.id === session.id,
    );
  });

  it('opens the customer portal from a portal session, until 5 idle minutes', async () => {
    const { customer } = await subscribe();
    const portal = await client.billingPortal.sessions.create({
      customer,
      return_url: `${origin}/app/pricing`,
    });
    expect(portal).toMatchObject({
      object: 'billing_portal.session',
      customer,
      return_url: `${origin}/app/pricing`,
    });
    const response = await fetch(portal.url);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain('Vigil Pro');
    expect(html).toContain('Renews on');
    expect(html).toContain('Visa ending 4242');
    expect(html).toContain('<label for="card-number">Card number</label>');
    expect(html).toContain('Return to Vigil');

    const subscription = stripe.subscriptions({ customerId: customer })[0]!.id;
    const post = (action: string, fields: Record<string, string>) =>
      fetch(`${portal.url}/${action}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ subscription, ...fields }),
        redirect: 'manual',
      });
    const cancel = await post('cancel', {});
    expect(cancel.status).toBe(303);
    expect(await fetch(`${origin}${cancel.headers.get('location')}`).then((r) => r.text())).toContain(
      'Ends on',
    );
    await post('switch-plan', { price: PRO_YEAR });
    const switched = await receiver.waitFor(
      ({ event, object }) =>
        event.type === 'customer.subscription.updated' &&
        object.id === subscription &&
        (object as unknown as Stripe.Subscription).items.data[0]!.price.id === PRO_YEAR,
    );
    expect(switched.event.data.previous_attributes).toMatchObject({
      items: { data: [{ price: { id: PRO_MONTH } }] },
    });

    clockOffset = 6 * 60_000;
    const lapsed = await fetch(portal.url);
    expect(lapsed.status).toBe(410);
    expect(await lapsed.text()).toContain('This session has expired');
  });

  it('lists Stripe on the control page and the sandbox home', async () => {
    await subscribe();
    const control = await fetch(`${origin}/sandbox/stripe`).then((r) => r.text());
    expect(control).toContain('Advance to next renewal');
    expect(control).toContain('Re-send');
    expect(control).toContain('Send twice');
    expect(control).toContain('Hold webhooks');
    const home = await fetch(`${origin}/sandbox`).then((r) => r.text());
    expect(home).toContain('Open the Stripe sandbox');
    expect(home).toContain('4000 0000 0000 0341');
  });
});
