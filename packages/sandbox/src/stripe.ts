import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  StripeAccount,
  type CardUpdateOutcome,
  type PayOutcome,
  type StripePrice,
} from './stripe-account.ts';
import { cardLabel, defaultExpiry, type CardInput } from './stripe-cards.ts';
import { StripeActionError, StripeApiError } from './stripe-errors.ts';
import { IdempotencyKeys } from './stripe-idempotency.ts';
import {
  priceLabel,
  type CheckoutSessionRecord,
  type CustomerRecord,
  type Interval,
  type InvoiceRecord,
  type PaymentMethodRecord,
  type PriceRecord,
  type SubscriptionRecord,
} from './stripe-objects.ts';
import { registerStripeRest } from './stripe-rest.ts';
import { StripeWebhooks, type StripeDelivery, type StripeEventView } from './stripe-webhooks.ts';

export type { CardUpdateOutcome, PayOutcome, StripePrice } from './stripe-account.ts';
export type { DeliveryTrigger, EventStatus, StripeDelivery, StripeEventView } from './stripe-webhooks.ts';
export { TEST_CARDS } from './stripe-cards.ts';
export { stripeSignature } from './stripe-webhooks.ts';
export { StripeActionError } from './stripe-errors.ts';

export interface StripeOptions {
  /** The API key the SDK sends as `Authorization: Bearer …`; any other key is answered 401, as Stripe does. */
  secretKey: string;
  /** The endpoint's signing secret (whsec_…) that signs every webhook. */
  webhookSecret: string;
  /** The products and prices the account sells, made at start with exactly these ids. */
  prices: StripePrice[];
  /** Where events are POSTed. Default `${publicUrl}/webhooks/stripe`. */
  webhookUrl?: string;
  /** Waits before each retry of a failed webhook. Default [2000, 10000, 60000, 300000] ms. */
  webhookRetryDelaysMs?: number[];
  /** The REST API's port on 127.0.0.1; 0 picks a free one. Default 0. */
  apiPort?: number;
  /** The clock (ms) of timestamps, expiries and signatures; each subscription adds its own test clock. */
  now?: () => number;
}

/** A card as the JSON API and in-process tests give it: the number, the rest optional. */
export interface TestCardInput {
  card: string;
  /** `MM / YY`; default December five years ahead. */
  expiry?: string;
  /** Default 123 (1234 for American Express). */
  cvc?: string;
  name?: string;
}

export interface StripePriceView {
  id: string;
  productId: string;
  product: string;
  unitAmount: number;
  currency: string;
  interval: Interval;
  lookupKey: string | null;
  /** "Vigil Pro — $49.00 per month". */
  label: string;
}

export interface StripeCardView {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** "Visa ending 4242". */
  label: string;
}

export interface StripeInvoiceView {
  id: string;
  number: string | null;
  status: string;
  billingReason: string;
  amountDue: number;
  amountPaid: number;
  currency: string;
  attemptCount: number;
  nextPaymentAttempt: string | null;
  created: string;
  /** The period the invoice bills (its line's period). */
  periodStart: string;
  periodEnd: string;
  url: string;
}

export interface StripeSubscriptionView {
  id: string;
  customerId: string;
  email: string | null;
  status: string;
  price: StripePriceView;
  quantity: number;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  canceledAt: string | null;
  endedAt: string | null;
  card: StripeCardView | null;
  /** The subscription's test clock now. */
  clock: string;
  metadata: Record<string, string>;
  latestInvoice: StripeInvoiceView | null;
  invoices: StripeInvoiceView[];
}

export interface StripeCustomerView {
  id: string;
  email: string | null;
  name: string | null;
  created: string;
  card: StripeCardView | null;
  subscriptions: StripeSubscriptionView[];
}

export interface StripeCheckoutView {
  id: string;
  status: string;
  paymentStatus: string;
  url: string;
  email: string | null;
  price: StripePriceView;
  customerId: string | null;
  subscriptionId: string | null;
  clientReferenceId: string | null;
  created: string;
  expiresAt: string;
}

export interface AdvanceResult {
  events: StripeEventView[];
  subscription: StripeSubscriptionView;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** Stripe's errors as a control's: an unknown object is NOT_FOUND, anything else refused a CONFLICT. */
function asAction<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof StripeApiError) {
      throw new StripeActionError(error.status === 404 ? 'NOT_FOUND' : 'CONFLICT', error.message);
    }
    throw error;
  }
}

/**
 * A stand-in for Stripe as Vigil's server and its customers see it: the REST API the official SDK calls (on
 * its own loopback listener, since the SDK takes no base path), hosted Checkout and the customer portal (pages
 * on the sandbox's origin), signed webhooks with retries, and test clocks per subscription. The REST routes,
 * the hosted pages, the control page, the JSON API and in-process tests all drive this one object.
 */
export class StripeSandbox {
  readonly account: StripeAccount;
  readonly #options: StripeOptions;
  readonly #publicUrl: () => string;
  readonly #basePath: string;
  readonly #now: () => number;
  readonly #webhooks: StripeWebhooks;
  readonly #keys: IdempotencyKeys;
  #server: FastifyInstance | null = null;
  #port = 0;

  constructor(options: StripeOptions, publicUrl: () => string, basePath: string) {
    this.#options = options;
    this.#publicUrl = publicUrl;
    this.#basePath = basePath;
    this.#now = options.now ?? Date.now;
    this.#webhooks = new StripeWebhooks({
      secret: options.webhookSecret,
      url: () => this.webhookUrl,
      retryDelaysMs: options.webhookRetryDelaysMs ?? [2000, 10_000, 60_000, 300_000],
      now: this.#now,
    });
    this.#keys = new IdempotencyKeys(this.#now);
    const page = (kind: string) => (id: string) =>
      `${this.#publicUrl()}${this.#basePath}/stripe/${kind}/${id}`;
    this.account = new StripeAccount({
      prices: options.prices,
      now: this.#now,
      urls: { checkout: page('checkout'), portal: page('portal'), invoice: page('invoices') },
      emit: (event) => this.#webhooks.record(event),
    });
  }

  /**
   * An account made up for a sandbox started without one: random keys, so no test can lean on them by accident,
   * and Vigil's plans monthly and yearly as `price_vigil_{plan}_{month|year}` (lookup keys the same without
   * `price_`).
   */
  static generatedOptions(): StripeOptions {
    const plans = [
      { name: 'Starter', month: 1900, year: 19_000 },
      { name: 'Pro', month: 4900, year: 49_000 },
      { name: 'Business', month: 14_900, year: 149_000 },
    ];
    return {
      secretKey: `sk_test_${randomBytes(18).toString('hex')}`,
      webhookSecret: `whsec_${randomBytes(24).toString('hex')}`,
      prices: plans.flatMap((plan) =>
        (['month', 'year'] as const).map((interval) => ({
          id: `price_vigil_${plan.name.toLowerCase()}_${interval}`,
          product: `Vigil ${plan.name}`,
          unitAmount: plan[interval],
          currency: 'usd',
          interval,
          lookupKey: `vigil_${plan.name.toLowerCase()}_${interval}`,
        })),
      ),
    };
  }

  /** The REST API's base, `http://127.0.0.1:{port}` (Stripe's https://api.stripe.com); known after start(). */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  get port(): number {
    return this.#port;
  }

  get webhookUrl(): string {
    return this.#options.webhookUrl ?? `${this.#publicUrl()}/webhooks/stripe`;
  }

  /** The control page, on the sandbox's origin. */
  get pagePath(): string {
    return `${this.#basePath}/stripe`;
  }

  now(): number {
    return this.#now();
  }

  /** Starts the REST API's listener on 127.0.0.1; answers its port. */
  async start(): Promise<number> {
    if (this.#server) return this.#port;
    const server = Fastify();
    registerStripeRest(server, {
      account: this.account,
      webhooks: this.#webhooks,
      keys: this.#keys,
      secretKey: this.#options.secretKey,
    });
    await server.listen({ host: '127.0.0.1', port: this.#options.apiPort ?? 0 });
    this.#server = server;
    this.#port = (server.server.address() as AddressInfo).port;
    return this.#port;
  }

  /** Closes the listener and stops webhook retries. */
  async stop(): Promise<void> {
    this.dispose();
    const server = this.#server;
    this.#server = null;
    await server?.close();
  }

  /** Stops webhook retries and deliveries under way, so nothing keeps a closing process waiting. */
  dispose(): void {
    this.#webhooks.stop();
  }

  // ---- What the account holds, for the pages, the JSON API and tests. ----

  prices(): StripePriceView[] {
    return this.account
      .prices()
      .reverse()
      .map((price) => this.priceView(price));
  }

  customers(): StripeCustomerView[] {
    this.account.expireDue();
    return this.account.customers().map((customer) => this.#customerView(customer));
  }

  /** Subscriptions, newest first; with `email`, those of the customers with that email. */
  subscriptions(filter: { email?: string; customerId?: string } = {}): StripeSubscriptionView[] {
    this.account.expireDue();
    const email = filter.email?.trim().toLowerCase();
    return this.account
      .subscriptions()
      .filter((subscription) => {
        const customer = this.account.findCustomer(subscription.customer);
        return (
          (!email || customer?.email?.toLowerCase() === email) &&
          (!filter.customerId || subscription.customer === filter.customerId)
        );
      })
      .map((subscription) => this.subscriptionView(subscription));
  }

  subscription(id: string): StripeSubscriptionView | undefined {
    const subscription = this.account.findSubscription(id);
    return subscription && this.subscriptionView(subscription);
  }

  checkoutSessions(filter: { status?: string } = {}): StripeCheckoutView[] {
    this.account.expireDue();
    return this.account
      .checkoutSessions()
      .filter((session) => !filter.status || session.status === filter.status)
      .map((session) => this.#checkoutView(session));
  }

  // ---- What a person does on the hosted pages, and the test clock. ----

  /** Pays a Checkout Session as submitting the hosted page does. */
  payCheckout(sessionId: string, input: TestCardInput & { email?: string }): PayOutcome {
    return asAction(() => {
      this.account.expireDue();
      const email = input.email ?? this.account.findSession(sessionId)?.customerEmail ?? undefined;
      return this.account.payCheckout(sessionId, {
        card: this.#card(input),
        email,
        name: input.name ?? email?.split('@')[0] ?? 'Test Customer',
      });
    });
  }

  /** Saves a new default card for the customer, as the portal does; pays a past_due subscription's invoice. */
  updateCard(customerId: string, input: TestCardInput): CardUpdateOutcome {
    return asAction(() => this.account.updateCard(customerId, this.#card(input)));
  }

  switchPrice(subscriptionId: string, priceId: string): StripeSubscriptionView {
    return asAction(() => this.subscriptionView(this.account.switchPrice(subscriptionId, priceId)));
  }

  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): StripeSubscriptionView {
    return asAction(() => this.subscriptionView(this.account.cancelAtPeriodEnd(subscriptionId, cancel)));
  }

  /** "Advance to next renewal" on the subscription's test clock; answers the events it made. */
  advanceSubscription(subscriptionId: string): AdvanceResult {
    return asAction(() => {
      const events = this.account.advance(subscriptionId);
      return {
        events: events.map((event) => this.#webhooks.get(event.id)!),
        subscription: this.subscriptionView(this.account.subscription(subscriptionId)),
      };
    });
  }

  /** A billing portal session for the customer, as the API makes one; answers its URL. */
  openPortal(customerId: string, returnUrl?: string): string {
    return asAction(() => this.account.createPortalSession({ customer: customerId, returnUrl }).url);
  }

  // ---- Events and their webhooks. ----

  /** Newest first, with their deliveries. */
  events(filter: { type?: string; limit?: number } = {}): StripeEventView[] {
    return this.#webhooks.list(filter);
  }

  event(eventId: string): StripeEventView | undefined {
    return this.#webhooks.get(eventId);
  }

  /** A new delivery of the same event (same id), now; answers how it went. */
  async resendEvent(eventId: string): Promise<StripeDelivery> {
    const delivery = await this.#webhooks.resend(eventId);
    if (!delivery) throw new StripeActionError('NOT_FOUND', `There is no event ${eventId}.`);
    return delivery;
  }

  /** The same event delivered twice at the same moment. */
  async duplicateEvent(eventId: string): Promise<StripeDelivery[]> {
    const deliveries = await this.#webhooks.duplicate(eventId);
    if (!deliveries) throw new StripeActionError('NOT_FOUND', `There is no event ${eventId}.`);
    return deliveries;
  }

  /** While held, events are recorded but not sent. */
  holdWebhooks(hold: boolean): void {
    this.#webhooks.hold(hold);
  }

  get webhooksHeld(): boolean {
    return this.#webhooks.held;
  }

  get heldEventCount(): number {
    return this.#webhooks.heldCount;
  }

  /** Sends the held events in the order they were made, or reversed; answers them once each was tried. */
  releaseWebhooks(order: 'created' | 'reverse'): Promise<StripeEventView[]> {
    return this.#webhooks.release(order);
  }

  /** Resolves when an event matching `predicate` is there (or changes to match, e.g. once delivered). */
  waitForEvent(predicate: (event: StripeEventView) => boolean, timeoutMs = 5000): Promise<StripeEventView> {
    return this.#webhooks.waitFor(predicate, timeoutMs);
  }

  // ---- Views. ----

  priceView(price: PriceRecord): StripePriceView {
    const product = this.account.product(price.product);
    return {
      id: price.id,
      productId: product.id,
      product: product.name,
      unitAmount: price.unitAmount,
      currency: price.currency,
      interval: price.interval,
      lookupKey: price.lookupKey,
      label: priceLabel(price, product),
    };
  }

  cardView(method: PaymentMethodRecord | undefined): StripeCardView | null {
    if (!method) return null;
    const { card } = method;
    return {
      id: method.id,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      label: cardLabel(card),
    };
  }

  invoiceView(invoice: InvoiceRecord): StripeInvoiceView {
    return {
      id: invoice.id,
      number: invoice.number,
      status: invoice.status,
      billingReason: invoice.billingReason,
      amountDue: invoice.amount,
      amountPaid: invoice.status === 'paid' ? invoice.amount : 0,
      currency: invoice.currency,
      attemptCount: invoice.attemptCount,
      nextPaymentAttempt: invoice.nextPaymentAttempt === null ? null : iso(invoice.nextPaymentAttempt),
      created: iso(invoice.created),
      periodStart: iso(invoice.lineStart),
      periodEnd: iso(invoice.lineEnd),
      url: invoice.hostedUrl,
    };
  }

  subscriptionView(subscription: SubscriptionRecord): StripeSubscriptionView {
    const customer = this.account.customer(subscription.customer);
    const card = this.account.findPaymentMethod(
      subscription.defaultPaymentMethod ?? customer.defaultPaymentMethod,
    );
    const invoices = this.account.invoices().filter((invoice) => invoice.subscription === subscription.id);
    const latest = subscription.latestInvoice
      ? this.account.findInvoice(subscription.latestInvoice)
      : undefined;
    return {
      id: subscription.id,
      customerId: customer.id,
      email: customer.email,
      status: subscription.status,
      price: this.priceView(this.account.price(subscription.price)),
      quantity: subscription.quantity,
      currentPeriodStart: iso(subscription.periodStart),
      currentPeriodEnd: iso(subscription.periodEnd),
      cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      canceledAt: subscription.canceledAt === null ? null : iso(subscription.canceledAt),
      endedAt: subscription.endedAt === null ? null : iso(subscription.endedAt),
      card: this.cardView(card),
      clock: iso(this.account.clockOf(subscription)),
      metadata: { ...subscription.metadata },
      latestInvoice: latest ? this.invoiceView(latest) : null,
      invoices: invoices.map((invoice) => this.invoiceView(invoice)),
    };
  }

  #customerView(customer: CustomerRecord): StripeCustomerView {
    return {
      id: customer.id,
      email: customer.email,
      name: customer.name,
      created: iso(customer.created),
      card: this.cardView(this.account.findPaymentMethod(customer.defaultPaymentMethod)),
      subscriptions: this.subscriptions({ customerId: customer.id }),
    };
  }

  #checkoutView(session: CheckoutSessionRecord): StripeCheckoutView {
    return {
      id: session.id,
      status: session.status,
      paymentStatus: session.paymentStatus,
      url: session.url,
      email: this.account.checkoutEmail(session).email,
      price: this.priceView(this.account.price(session.price)),
      customerId: session.customer,
      subscriptionId: session.subscription,
      clientReferenceId: session.clientReferenceId,
      created: iso(session.created),
      expiresAt: iso(session.expiresAt),
    };
  }

  #card(input: TestCardInput): CardInput {
    const number = String(input.card ?? '');
    const amex = /^3[47]/.test(number.replace(/\D/g, ''));
    return {
      number,
      expiry: input.expiry ?? defaultExpiry(this.#now()),
      cvc: input.cvc ?? (amex ? '1234' : '123'),
      name: input.name,
    };
  }
}
