import type Stripe from 'stripe';
import { chargeCard, FieldError, readCard, type CardInput, type Decline } from './stripe-cards.ts';
import { invalidParam, noSuch, StripeApiError } from './stripe-errors.ts';
import {
  API_VERSION,
  checkoutSessionJson,
  customerJson,
  invoiceJson,
  nextPeriodEnd,
  paymentMethodJson,
  periodEnd,
  priceJson,
  productJson,
  stripeId,
  subscriptionJson,
  type CheckoutSessionRecord,
  type CustomerRecord,
  type Interval,
  type InvoiceRecord,
  type PaymentMethodRecord,
  type PortalSessionRecord,
  type PriceRecord,
  type ProductRecord,
  type Records,
  type SubscriptionRecord,
} from './stripe-objects.ts';

/** A product and its recurring price, made when the sandbox starts, with exactly this id. */
export interface StripePrice {
  id: string;
  /** The product's name, e.g. "Vigil Pro"; prices naming the same product share it. */
  product: string;
  /** In the currency's minor unit (cents). */
  unitAmount: number;
  currency: string;
  interval: Interval;
  lookupKey?: string;
}

export interface AccountSettings {
  prices: StripePrice[];
  now: () => number;
  urls: { checkout(id: string): string; portal(id: string): string; invoice(id: string): string };
  emit(event: Stripe.Event): void;
}

/** The API request behind the events an action makes; both null for what Stripe does on its own. */
export interface RequestOrigin {
  id: string | null;
  idempotencyKey: string | null;
}

export interface CustomerInput {
  email?: string | null;
  name?: string | null;
  description?: string | null;
  phone?: string | null;
  metadata?: Record<string, string>;
  defaultPaymentMethod?: string | null;
}

export interface CheckoutInput {
  customer?: string;
  customerEmail?: string;
  price: string;
  quantity: number;
  successUrl?: string;
  cancelUrl?: string;
  clientReferenceId?: string;
  metadata?: Record<string, string>;
  subscriptionMetadata?: Record<string, string>;
  expiresAt?: number;
}

export interface SubscriptionUpdate {
  cancelAtPeriodEnd?: boolean;
  /** A new price (and quantity) for the subscription's one item. */
  item?: { id: string; price?: string; quantity?: number };
  metadata?: Record<string, string>;
  defaultPaymentMethod?: string | null;
}

export interface CheckoutPayment {
  card: CardInput;
  email?: string;
  name?: string;
}

export interface PayOutcome {
  outcome: 'paid' | 'declined';
  message: string;
  /** Where the browser goes next: the success URL once paid; null while the person stays on the page. */
  redirect: string | null;
}

export interface CardUpdateOutcome {
  paymentMethod: string;
  /** Whether the open invoice of a past_due subscription was paid with the new card (null: none was open). */
  paid: boolean | null;
  message: string;
}

/** A failed renewal is retried this long after it failed (the last of Stripe's retries, shortened). */
const RETRY_AFTER_S = 3 * 86_400;
/** Stripe's portal sessions lapse after 5 minutes without activity. */
export const PORTAL_IDLE_MS = 5 * 60_000;
const SESSION_TTL_S = 24 * 3600;
const SESSION_MIN_TTL_S = 30 * 60;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NO_CARD: Decline = {
  code: 'invoice_no_customer_line_items',
  declineCode: 'no_payment_method',
  message: 'The customer has no card to charge.',
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Stripe's `previous_attributes`: the earlier values of what changed, nested objects narrowed to their changes,
 * and a key that was not there before as null (a metadata key added).
 */
export function previousAttributes(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const value = before[key];
    const next = after[key];
    if (same(value, next)) continue;
    changed[key] =
      isPlainObject(value) && isPlainObject(next) ? previousAttributes(value, next) : (value ?? null);
  }
  return changed;
}

function validUrl(value: string | undefined, param: string): void {
  if (value === undefined) return;
  try {
    if (!/^https?:$/.test(new URL(value.replaceAll('{CHECKOUT_SESSION_ID}', 'x')).protocol))
      throw new Error();
  } catch {
    throw invalidParam('Not a valid URL', param, 'url_invalid');
  }
}

/**
 * The Stripe account the sandbox plays: customers, products and prices, Checkout Sessions, subscriptions and
 * their invoices, portal sessions, and the events each change makes, in the order Stripe makes them. Every
 * event carries a snapshot of its object at that moment. Errors are Stripe's (StripeApiError), and card
 * input the person typed is refused with FieldError.
 */
export class StripeAccount implements Records {
  readonly #settings: AccountSettings;
  readonly #products = new Map<string, ProductRecord>();
  readonly #prices = new Map<string, PriceRecord>();
  readonly #customers = new Map<string, CustomerRecord>();
  readonly #paymentMethods = new Map<string, PaymentMethodRecord>();
  readonly #sessions = new Map<string, CheckoutSessionRecord>();
  readonly #subscriptions = new Map<string, SubscriptionRecord>();
  readonly #invoices = new Map<string, InvoiceRecord>();
  readonly #portalSessions = new Map<string, PortalSessionRecord>();
  #origin: RequestOrigin = { id: null, idempotencyKey: null };
  #collected: Stripe.Event[] | null = null;

  constructor(settings: AccountSettings) {
    this.#settings = settings;
    const created = this.#nowS();
    for (const price of settings.prices) {
      let product = [...this.#products.values()].find((p) => p.name === price.product);
      if (!product) {
        product = { id: stripeId('prod', 14), name: price.product, created };
        this.#products.set(product.id, product);
      }
      this.#prices.set(price.id, {
        id: price.id,
        product: product.id,
        unitAmount: price.unitAmount,
        currency: price.currency.toLowerCase(),
        interval: price.interval,
        lookupKey: price.lookupKey ?? null,
        created,
      });
    }
  }

  /** Runs `work` with the events it makes attributed to that API request. */
  during<T>(origin: RequestOrigin, work: () => T): T {
    const previous = this.#origin;
    this.#origin = origin;
    try {
      return work();
    } finally {
      this.#origin = previous;
    }
  }

  // ---- Records, for serializers and lookups. ----

  price(id: string): PriceRecord {
    const price = this.#prices.get(id);
    if (!price) throw noSuch('price', id);
    return price;
  }

  product(id: string): ProductRecord {
    const product = this.#products.get(id);
    if (!product) throw noSuch('product', id);
    return product;
  }

  customer(id: string, param = 'id'): CustomerRecord {
    const customer = this.#customers.get(id);
    if (!customer) throw noSuch('customer', id, param);
    return customer;
  }

  paymentMethod(id: string, param = 'id'): PaymentMethodRecord {
    const method = this.#paymentMethods.get(id);
    if (!method) throw noSuch('PaymentMethod', id, param);
    return method;
  }

  checkoutSession(id: string): CheckoutSessionRecord {
    const session = this.#sessions.get(id);
    if (!session) throw noSuch('checkout.session', id);
    return session;
  }

  subscription(id: string, param = 'id'): SubscriptionRecord {
    const subscription = this.#subscriptions.get(id);
    if (!subscription) throw noSuch('subscription', id, param);
    return subscription;
  }

  invoice(id: string): InvoiceRecord {
    const invoice = this.#invoices.get(id);
    if (!invoice) throw noSuch('invoice', id);
    return invoice;
  }

  findCustomer(id: string): CustomerRecord | undefined {
    return this.#customers.get(id);
  }

  findSession(id: string): CheckoutSessionRecord | undefined {
    return this.#sessions.get(id);
  }

  findSubscription(id: string): SubscriptionRecord | undefined {
    return this.#subscriptions.get(id);
  }

  findInvoice(id: string): InvoiceRecord | undefined {
    return this.#invoices.get(id);
  }

  findPaymentMethod(id: string | null): PaymentMethodRecord | undefined {
    return id ? this.#paymentMethods.get(id) : undefined;
  }

  /** Everything of a kind, newest first, as Stripe lists it. */
  products(): ProductRecord[] {
    return [...this.#products.values()].reverse();
  }

  prices(): PriceRecord[] {
    return [...this.#prices.values()].reverse();
  }

  customers(): CustomerRecord[] {
    return [...this.#customers.values()].reverse();
  }

  checkoutSessions(): CheckoutSessionRecord[] {
    return [...this.#sessions.values()].reverse();
  }

  subscriptions(): SubscriptionRecord[] {
    return [...this.#subscriptions.values()].reverse();
  }

  invoices(): InvoiceRecord[] {
    return [...this.#invoices.values()].reverse();
  }

  /** Any object by its id, as the API answers it: what `expand` puts in place of an id. */
  objectJson(id: string): object | undefined {
    const prefix = id.slice(0, id.indexOf('_'));
    const find = {
      cus: () => this.#customers.get(id) && customerJson(this.#customers.get(id)!),
      sub: () => this.#subscriptions.get(id) && subscriptionJson(this.#subscriptions.get(id)!, this),
      in: () => this.#invoices.get(id) && invoiceJson(this.#invoices.get(id)!, this),
      price: () => this.#prices.get(id) && priceJson(this.#prices.get(id)!),
      prod: () => this.#products.get(id) && productJson(this.#products.get(id)!),
      pm: () => this.#paymentMethods.get(id) && paymentMethodJson(this.#paymentMethods.get(id)!),
      cs: () => this.#sessions.get(id) && checkoutSessionJson(this.#sessions.get(id)!, this),
    }[prefix];
    return find?.();
  }

  /** The subscription's test clock, in Unix seconds. */
  clockOf(subscription: SubscriptionRecord): number {
    return Math.floor((this.#settings.now() + subscription.clockOffsetMs) / 1000);
  }

  // ---- Customers. ----

  createCustomer(input: CustomerInput): CustomerRecord {
    const customer: CustomerRecord = {
      id: stripeId('cus', 14),
      created: this.#nowS(),
      email: input.email ?? null,
      name: input.name ?? null,
      description: input.description ?? null,
      phone: input.phone ?? null,
      metadata: input.metadata ?? {},
      defaultPaymentMethod: null,
      invoicePrefix: stripeId('x', 8).slice(2).toUpperCase(),
      invoiceSequence: 1,
    };
    if (input.defaultPaymentMethod) {
      throw invalidParam(
        `The customer does not have a payment method with the ID ${input.defaultPaymentMethod}. The payment method must be attached to the customer.`,
        'invoice_settings[default_payment_method]',
      );
    }
    this.#customers.set(customer.id, customer);
    this.#emit('customer.created', customerJson(customer));
    return customer;
  }

  updateCustomer(id: string, input: CustomerInput): CustomerRecord {
    const customer = this.customer(id);
    if (input.defaultPaymentMethod) {
      const method = this.#paymentMethods.get(input.defaultPaymentMethod);
      if (method?.customer !== customer.id) {
        throw invalidParam(
          `The customer does not have a payment method with the ID ${input.defaultPaymentMethod}. The payment method must be attached to the customer.`,
          'invoice_settings[default_payment_method]',
        );
      }
    }
    const before = customerJson(customer);
    if (input.email !== undefined) customer.email = input.email;
    if (input.name !== undefined) customer.name = input.name;
    if (input.description !== undefined) customer.description = input.description;
    if (input.phone !== undefined) customer.phone = input.phone;
    if (input.metadata !== undefined) customer.metadata = input.metadata;
    if (input.defaultPaymentMethod !== undefined) customer.defaultPaymentMethod = input.defaultPaymentMethod;
    this.#emitChange('customer.updated', before, customerJson(customer));
    return customer;
  }

  // ---- Checkout. ----

  createCheckoutSession(input: CheckoutInput): CheckoutSessionRecord {
    if (input.customer && input.customerEmail) {
      throw invalidParam(
        'You may only specify one of these parameters: customer, customer_email.',
        'customer_email',
      );
    }
    if (input.customer) this.customer(input.customer, 'customer');
    if (input.customerEmail !== undefined && !EMAIL.test(input.customerEmail)) {
      throw invalidParam('Invalid email address: ' + input.customerEmail, 'customer_email', 'email_invalid');
    }
    if (!this.#prices.has(input.price)) throw noSuch('price', input.price, 'line_items[0][price]');
    if (!Number.isInteger(input.quantity) || input.quantity < 1) {
      throw invalidParam('Quantity must be greater than 0.', 'line_items[0][quantity]');
    }
    validUrl(input.successUrl, 'success_url');
    validUrl(input.cancelUrl, 'cancel_url');
    const created = this.#nowS();
    if (input.expiresAt !== undefined) {
      if (input.expiresAt > created + SESSION_TTL_S) {
        throw invalidParam(
          'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
          'expires_at',
        );
      }
      if (input.expiresAt < created + SESSION_MIN_TTL_S) {
        throw invalidParam(
          'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
          'expires_at',
        );
      }
    }
    const id = stripeId('cs_test', 58);
    const session: CheckoutSessionRecord = {
      id,
      created,
      expiresAt: input.expiresAt ?? created + SESSION_TTL_S,
      status: 'open',
      paymentStatus: 'unpaid',
      customer: input.customer ?? null,
      customerCreation: input.customer ? null : 'always',
      customerEmail: input.customerEmail ?? null,
      customerDetails: null,
      price: input.price,
      quantity: input.quantity,
      successUrl: input.successUrl ?? null,
      cancelUrl: input.cancelUrl ?? null,
      clientReferenceId: input.clientReferenceId ?? null,
      metadata: input.metadata ?? {},
      subscriptionMetadata: input.subscriptionMetadata ?? {},
      subscription: null,
      invoice: null,
      pendingSubscription: null,
      url: this.#settings.urls.checkout(id),
    };
    this.#sessions.set(id, session);
    return session;
  }

  expireCheckoutSession(id: string): CheckoutSessionRecord {
    const session = this.checkoutSession(id);
    if (session.status !== 'open') {
      throw invalidParam('Only Checkout Sessions with a status in ["open"] can be expired.');
    }
    this.#expire(session);
    return session;
  }

  /**
   * Ends what has run out: open Checkout Sessions past `expires_at` (Stripe does it on its own, so the events
   * have no request). Called before anything reads the account.
   */
  expireDue(): void {
    const now = this.#nowS();
    for (const session of this.#sessions.values()) {
      if (session.status === 'open' && session.expiresAt <= now) {
        this.during({ id: null, idempotencyKey: null }, () => this.#expire(session));
      }
    }
  }

  /** The email the page shows (and cannot change) for a session made for a customer. */
  checkoutEmail(session: CheckoutSessionRecord): { email: string | null; locked: boolean } {
    const customer = session.customer ? this.#customers.get(session.customer) : undefined;
    if (customer?.email) return { email: customer.email, locked: true };
    return { email: session.customerEmail, locked: false };
  }

  /**
   * Pays a Checkout Session with a card, as submitting the hosted page does. A decline keeps the person on
   * the page: the first makes the customer and an incomplete subscription with an open invoice, each one
   * fails that invoice again; a later success pays the same invoice.
   */
  payCheckout(sessionId: string, payment: CheckoutPayment): PayOutcome {
    const session = this.checkoutSession(sessionId);
    if (session.status !== 'open') {
      throw new StripeApiError(400, 'invalid_request_error', `This Checkout Session is ${session.status}.`);
    }
    const prefilled = this.checkoutEmail(session);
    const email = (prefilled.locked ? prefilled.email : payment.email?.trim()) ?? '';
    if (!EMAIL.test(email)) throw new FieldError('email', 'Your email address is invalid.');
    const name = payment.name?.trim() ?? '';
    if (!name) throw new FieldError('name', 'Enter the name on the card.');
    const card = readCard(payment.card, this.#settings.now());
    const decline = chargeCard(card, 'checkout');

    const pending = session.pendingSubscription
      ? this.#subscriptions.get(session.pendingSubscription)
      : undefined;
    const customer =
      (session.customer && this.#customers.get(session.customer)) ||
      (pending && this.#customers.get(pending.customer)) ||
      this.createCustomer({ email, name });

    if (!pending) {
      const method = decline ? null : this.#saveCard(customer, card, name, email);
      const subscription = this.#startSubscription(session, customer, method?.id ?? null);
      const invoice = this.#invoices.get(subscription.latestInvoice!)!;
      if (decline) {
        session.pendingSubscription = subscription.id;
        return this.#declined(invoice, decline);
      }
      this.#markPaid(invoice, subscription);
      this.#emit('invoice.paid', invoiceJson(invoice, this));
      this.#emit('invoice.payment_succeeded', invoiceJson(invoice, this));
      return this.#complete(session, subscription, invoice, { email, name });
    }

    const invoice = this.#invoices.get(pending.latestInvoice!)!;
    if (decline) return this.#declined(invoice, decline);
    const method = this.#saveCard(customer, card, name, email);
    const before = subscriptionJson(pending, this);
    pending.status = 'active';
    pending.defaultPaymentMethod = method.id;
    this.#markPaid(invoice, pending);
    this.#emitChange('customer.subscription.updated', before, subscriptionJson(pending, this));
    this.#emit('invoice.paid', invoiceJson(invoice, this));
    this.#emit('invoice.payment_succeeded', invoiceJson(invoice, this));
    return this.#complete(session, pending, invoice, { email, name });
  }

  // ---- Subscriptions. ----

  updateSubscription(id: string, update: SubscriptionUpdate): SubscriptionRecord {
    const subscription = this.subscription(id);
    const ended = subscription.status === 'canceled' || subscription.status === 'incomplete_expired';
    if (
      ended &&
      (update.cancelAtPeriodEnd !== undefined ||
        update.item !== undefined ||
        update.defaultPaymentMethod !== undefined)
    ) {
      throw invalidParam('A canceled subscription can only update its cancellation_details and metadata.');
    }
    if (update.item && update.item.id !== subscription.itemId) {
      throw invalidParam(
        `No such subscription item: '${update.item.id}'`,
        'items[0][id]',
        'resource_missing',
      );
    }
    if (update.item?.price) this.price(update.item.price);
    if (update.item?.quantity !== undefined && update.item.quantity < 1) {
      throw invalidParam('Quantity must be greater than 0.', 'items[0][quantity]');
    }
    if (update.defaultPaymentMethod) {
      const method = this.#paymentMethods.get(update.defaultPaymentMethod);
      if (method?.customer !== subscription.customer) {
        throw invalidParam(
          `The customer does not have a payment method with the ID ${update.defaultPaymentMethod}. The payment method must be attached to the customer.`,
          'default_payment_method',
        );
      }
    }
    const before = subscriptionJson(subscription, this);
    if (update.metadata !== undefined) subscription.metadata = update.metadata;
    if (update.defaultPaymentMethod !== undefined)
      subscription.defaultPaymentMethod = update.defaultPaymentMethod;
    if (update.cancelAtPeriodEnd !== undefined)
      this.#setCancelAtPeriodEnd(subscription, update.cancelAtPeriodEnd);
    if (update.item) {
      this.#changePrice(
        subscription,
        update.item.price ?? subscription.price,
        update.item.quantity ?? subscription.quantity,
      );
    }
    this.#emitChange('customer.subscription.updated', before, subscriptionJson(subscription, this));
    return subscription;
  }

  /** Cancels now (DELETE /v1/subscriptions/:id); a subscription that has ended is gone, as Stripe answers. */
  cancelSubscription(id: string): SubscriptionRecord {
    const subscription = this.subscription(id);
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
      throw noSuch('subscription', id);
    }
    const at = this.clockOf(subscription);
    this.#end(subscription, at, 'cancellation_requested');
    this.#emit('customer.subscription.deleted', subscriptionJson(subscription, this));
    return subscription;
  }

  /** Switches the subscription to another price, as the portal does. */
  switchPrice(subscriptionId: string, priceId: string): SubscriptionRecord {
    const subscription = this.#live(subscriptionId);
    this.price(priceId);
    const before = subscriptionJson(subscription, this);
    this.#changePrice(subscription, priceId, subscription.quantity);
    this.#emitChange('customer.subscription.updated', before, subscriptionJson(subscription, this));
    return subscription;
  }

  /** Cancels at the period's end, or takes that back, as the portal does. */
  cancelAtPeriodEnd(subscriptionId: string, cancel: boolean): SubscriptionRecord {
    const subscription = this.#live(subscriptionId);
    const before = subscriptionJson(subscription, this);
    this.#setCancelAtPeriodEnd(subscription, cancel);
    this.#emitChange('customer.subscription.updated', before, subscriptionJson(subscription, this));
    return subscription;
  }

  /**
   * A new default card for the customer and their subscriptions, as the portal saves it; a past_due
   * subscription's open invoice is paid with it at once.
   */
  updateCard(customerId: string, input: CardInput): CardUpdateOutcome {
    const customer = this.customer(customerId);
    const name = input.name?.trim() || customer.name || customer.email || 'Card holder';
    const card = readCard(input, this.#settings.now());
    const method = this.#saveCard(customer, card, name, customer.email);
    const customerBefore = customerJson(customer);
    customer.defaultPaymentMethod = method.id;
    this.#emitChange('customer.updated', customerBefore, customerJson(customer));
    let paid: boolean | null = null;
    let failure: Decline | null = null;
    for (const subscription of this.subscriptions().filter((s) => s.customer === customer.id)) {
      if (subscription.status !== 'active' && subscription.status !== 'past_due') continue;
      const before = subscriptionJson(subscription, this);
      subscription.defaultPaymentMethod = method.id;
      const invoice = this.#openInvoice(subscription);
      if (subscription.status === 'past_due' && invoice) {
        failure = chargeCard(card, 'later');
        paid = failure === null;
        if (failure) {
          invoice.attemptCount += 1;
          this.#emit('invoice.payment_failed', invoiceJson(invoice, this));
        } else {
          this.#markPaid(invoice, subscription);
          subscription.status = 'active';
          this.#emit('invoice.paid', invoiceJson(invoice, this));
          this.#emit('invoice.payment_succeeded', invoiceJson(invoice, this));
        }
      }
      this.#emitChange('customer.subscription.updated', before, subscriptionJson(subscription, this));
    }
    const saved = `Card ending ${card.last4} saved.`;
    return {
      paymentMethod: method.id,
      paid,
      message:
        paid === null
          ? saved
          : paid
            ? `${saved} The open invoice was paid.`
            : `${saved} Paying the open invoice failed: ${failure!.message}`,
    };
  }

  /**
   * Moves the subscription's test clock to its next billing moment and does what Stripe does then: ends a
   * subscription set to cancel, renews (charging the card), or — for a past_due one — makes the final retry,
   * which cancels it when it fails. Answers the events it made.
   */
  advance(subscriptionId: string): Stripe.Event[] {
    const subscription = this.#live(subscriptionId);
    return this.#collect(() =>
      this.during({ id: null, idempotencyKey: null }, () => {
        if (subscription.status === 'past_due') this.#finalRetry(subscription);
        else if (subscription.cancelAtPeriodEnd) {
          this.#moveClock(subscription, subscription.periodEnd);
          this.#end(subscription, subscription.periodEnd, 'cancellation_requested');
          this.#emit('customer.subscription.deleted', subscriptionJson(subscription, this));
        } else this.#renew(subscription);
      }),
    );
  }

  // ---- Billing portal. ----

  createPortalSession(input: { customer: string; returnUrl?: string }): PortalSessionRecord {
    this.customer(input.customer, 'customer');
    validUrl(input.returnUrl, 'return_url');
    const id = stripeId('bps', 24);
    const session: PortalSessionRecord = {
      id,
      customer: input.customer,
      returnUrl: input.returnUrl ?? null,
      created: this.#nowS(),
      lastActiveAt: this.#settings.now(),
      url: this.#settings.urls.portal(id),
    };
    this.#portalSessions.set(id, session);
    return session;
  }

  /** The portal session a page opens, its inactivity timer reset; 'expired' after 5 idle minutes. */
  usePortalSession(id: string): PortalSessionRecord | 'expired' | undefined {
    const session = this.#portalSessions.get(id);
    if (!session) return undefined;
    const now = this.#settings.now();
    if (now - session.lastActiveAt > PORTAL_IDLE_MS) return 'expired';
    session.lastActiveAt = now;
    return session;
  }

  findPortalSession(id: string): PortalSessionRecord | undefined {
    return this.#portalSessions.get(id);
  }

  // ---- Inside. ----

  #nowS(): number {
    return Math.floor(this.#settings.now() / 1000);
  }

  /** A subscription a person can still change: active or past_due. */
  #live(id: string): SubscriptionRecord {
    const subscription = this.subscription(id);
    if (subscription.status !== 'active' && subscription.status !== 'past_due') {
      throw invalidParam(`The subscription is ${subscription.status}: only active or past_due ones change.`);
    }
    return subscription;
  }

  #emit(type: string, object: object, previous?: Record<string, unknown>): void {
    const event = {
      id: stripeId('evt', 24),
      object: 'event',
      api_version: API_VERSION,
      created: this.#nowS(),
      data: previous ? { object, previous_attributes: previous } : { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: this.#origin.id, idempotency_key: this.#origin.idempotencyKey },
      type,
    } as unknown as Stripe.Event;
    this.#collected?.push(event);
    this.#settings.emit(event);
  }

  /** An `*.updated` event, when anything changed. */
  #emitChange(type: string, before: object, after: object): void {
    const previous = previousAttributes(before as Record<string, unknown>, after as Record<string, unknown>);
    if (Object.keys(previous).length > 0) this.#emit(type, after, previous);
  }

  #collect(work: () => void): Stripe.Event[] {
    const outer = this.#collected;
    const events: Stripe.Event[] = [];
    this.#collected = events;
    try {
      work();
    } finally {
      this.#collected = outer;
    }
    outer?.push(...events);
    return events;
  }

  #expire(session: CheckoutSessionRecord): void {
    session.status = 'expired';
    this.#emit('checkout.session.expired', checkoutSessionJson(session, this));
    const pending = session.pendingSubscription
      ? this.#subscriptions.get(session.pendingSubscription)
      : undefined;
    if (pending?.status !== 'incomplete') return;
    // An incomplete subscription whose first invoice was never paid expires, and its invoice is voided.
    const before = subscriptionJson(pending, this);
    const at = this.clockOf(pending);
    const invoice = this.#openInvoice(pending);
    if (invoice) {
      invoice.status = 'void';
      invoice.voidedAt = at;
      invoice.nextPaymentAttempt = null;
      this.#emit('invoice.voided', invoiceJson(invoice, this));
    }
    pending.status = 'incomplete_expired';
    pending.canceledAt = at;
    pending.endedAt = at;
    this.#emitChange('customer.subscription.updated', before, subscriptionJson(pending, this));
  }

  /** A card attached to the customer (Checkout makes it the subscription's default, the portal the customer's). */
  #saveCard(
    customer: CustomerRecord,
    card: PaymentMethodRecord['card'],
    name: string,
    email: string | null,
  ): PaymentMethodRecord {
    const method: PaymentMethodRecord = {
      id: stripeId('pm', 24),
      created: this.#nowS(),
      customer: customer.id,
      card,
      name,
      email,
    };
    this.#paymentMethods.set(method.id, method);
    return method;
  }

  /** The subscription Checkout starts, with its first invoice made and finalized (not yet paid). */
  #startSubscription(
    session: CheckoutSessionRecord,
    customer: CustomerRecord,
    paymentMethod: string | null,
  ): SubscriptionRecord {
    const start = this.#nowS();
    const price = this.price(session.price);
    const subscription: SubscriptionRecord = {
      id: stripeId('sub', 24),
      customer: customer.id,
      created: start,
      startDate: start,
      status: paymentMethod ? 'active' : 'incomplete',
      itemId: stripeId('si', 14),
      itemCreated: start,
      price: price.id,
      quantity: session.quantity,
      periodStart: start,
      periodEnd: periodEnd(start, price.interval, 1),
      billingCycleAnchor: start,
      cancelAtPeriodEnd: false,
      cancelAt: null,
      canceledAt: null,
      endedAt: null,
      cancellationReason: null,
      latestInvoice: null,
      metadata: { ...session.subscriptionMetadata },
      defaultPaymentMethod: paymentMethod,
      clockOffsetMs: 0,
    };
    this.#subscriptions.set(subscription.id, subscription);
    const invoice = this.#draftInvoice(subscription, 'subscription_create', start, start);
    this.#emit('customer.subscription.created', subscriptionJson(subscription, this));
    this.#emit('invoice.created', invoiceJson(invoice, this));
    this.#finalize(invoice);
    return subscription;
  }

  #draftInvoice(
    subscription: SubscriptionRecord,
    reason: InvoiceRecord['billingReason'],
    periodStart: number,
    periodEnd: number,
  ): InvoiceRecord {
    const price = this.price(subscription.price);
    const customer = this.customer(subscription.customer);
    const id = stripeId('in', 24);
    const invoice: InvoiceRecord = {
      id,
      customer: customer.id,
      subscription: subscription.id,
      subscriptionItem: subscription.itemId,
      created: this.clockOf(subscription),
      status: 'draft',
      billingReason: reason,
      price: price.id,
      quantity: subscription.quantity,
      amount: price.unitAmount * subscription.quantity,
      currency: price.currency,
      periodStart,
      periodEnd,
      lineId: stripeId('il', 24),
      lineStart: subscription.periodStart,
      lineEnd: subscription.periodEnd,
      number: null,
      attemptCount: 0,
      nextPaymentAttempt: null,
      finalizedAt: null,
      paidAt: null,
      voidedAt: null,
      subscriptionMetadata: { ...subscription.metadata },
      customerEmail: customer.email,
      customerName: customer.name,
      hostedUrl: this.#settings.urls.invoice(id),
    };
    this.#invoices.set(id, invoice);
    subscription.latestInvoice = id;
    return invoice;
  }

  #finalize(invoice: InvoiceRecord): void {
    const customer = this.customer(invoice.customer);
    invoice.status = 'open';
    invoice.number = `${customer.invoicePrefix}-${String(customer.invoiceSequence).padStart(4, '0')}`;
    customer.invoiceSequence += 1;
    invoice.finalizedAt = this.clockOf(this.subscription(invoice.subscription));
    this.#emit('invoice.finalized', invoiceJson(invoice, this));
  }

  #markPaid(invoice: InvoiceRecord, subscription: SubscriptionRecord): void {
    invoice.status = 'paid';
    invoice.attemptCount += 1;
    invoice.paidAt = this.clockOf(subscription);
    invoice.nextPaymentAttempt = null;
  }

  #declined(invoice: InvoiceRecord, decline: Decline): PayOutcome {
    invoice.attemptCount += 1;
    this.#emit('invoice.payment_failed', invoiceJson(invoice, this));
    return { outcome: 'declined', message: decline.message, redirect: null };
  }

  #complete(
    session: CheckoutSessionRecord,
    subscription: SubscriptionRecord,
    invoice: InvoiceRecord,
    details: { email: string; name: string },
  ): PayOutcome {
    session.status = 'complete';
    session.paymentStatus = 'paid';
    session.customer = subscription.customer;
    session.subscription = subscription.id;
    session.invoice = invoice.id;
    session.customerDetails = details;
    this.#emit('checkout.session.completed', checkoutSessionJson(session, this));
    const redirect = session.successUrl
      ? session.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', session.id)
      : session.url;
    return { outcome: 'paid', message: 'Payment complete: the subscription is active.', redirect };
  }

  #openInvoice(subscription: SubscriptionRecord): InvoiceRecord | undefined {
    const invoice = subscription.latestInvoice ? this.#invoices.get(subscription.latestInvoice) : undefined;
    return invoice?.status === 'open' ? invoice : undefined;
  }

  #chargeableCard(subscription: SubscriptionRecord): PaymentMethodRecord | undefined {
    const customer = this.customer(subscription.customer);
    return this.findPaymentMethod(subscription.defaultPaymentMethod ?? customer.defaultPaymentMethod);
  }

  /**
   * Charges an open invoice with the subscription's card. A failure leaves it open, to be retried at
   * `next_payment_attempt` — unless this was the last try.
   */
  #collectPayment(invoice: InvoiceRecord, subscription: SubscriptionRecord, lastTry = false): boolean {
    const method = this.#chargeableCard(subscription);
    const decline = method ? chargeCard(method.card, 'later') : NO_CARD;
    if (!decline) {
      this.#markPaid(invoice, subscription);
      this.#emit('invoice.paid', invoiceJson(invoice, this));
      this.#emit('invoice.payment_succeeded', invoiceJson(invoice, this));
      return true;
    }
    invoice.attemptCount += 1;
    invoice.nextPaymentAttempt = lastTry ? null : this.clockOf(subscription) + RETRY_AFTER_S;
    this.#emit('invoice.payment_failed', invoiceJson(invoice, this));
    return false;
  }

  #setCancelAtPeriodEnd(subscription: SubscriptionRecord, cancel: boolean): void {
    if (subscription.cancelAtPeriodEnd === cancel) return;
    subscription.cancelAtPeriodEnd = cancel;
    subscription.cancelAt = cancel ? subscription.periodEnd : null;
    subscription.canceledAt = cancel ? this.clockOf(subscription) : null;
    subscription.cancellationReason = cancel ? 'cancellation_requested' : null;
  }

  /**
   * A new price on the subscription's one item. The same interval keeps the period (no proration is
   * invoiced); another interval starts a new period now and invoices it at once (billing_reason
   * subscription_update), as Stripe does when the billing interval changes.
   */
  #changePrice(subscription: SubscriptionRecord, priceId: string, quantity: number): void {
    const from = this.price(subscription.price);
    const to = this.price(priceId);
    subscription.price = to.id;
    subscription.quantity = quantity;
    if (from.interval === to.interval) return;
    const now = this.clockOf(subscription);
    subscription.periodStart = now;
    subscription.periodEnd = periodEnd(now, to.interval, 1);
    subscription.billingCycleAnchor = now;
    if (subscription.cancelAtPeriodEnd) subscription.cancelAt = subscription.periodEnd;
    const invoice = this.#draftInvoice(subscription, 'subscription_update', now, now);
    this.#emit('invoice.created', invoiceJson(invoice, this));
    this.#finalize(invoice);
    subscription.status = this.#collectPayment(invoice, subscription) ? 'active' : 'past_due';
  }

  #moveClock(subscription: SubscriptionRecord, to: number): void {
    subscription.clockOffsetMs = Math.max(subscription.clockOffsetMs, to * 1000 - this.#settings.now());
  }

  #renew(subscription: SubscriptionRecord): void {
    const price = this.price(subscription.price);
    const ended = { start: subscription.periodStart, end: subscription.periodEnd };
    this.#moveClock(subscription, ended.end);
    const before = subscriptionJson(subscription, this);
    subscription.periodStart = ended.end;
    subscription.periodEnd = nextPeriodEnd(subscription.billingCycleAnchor, price.interval, ended.end);
    const invoice = this.#draftInvoice(subscription, 'subscription_cycle', ended.start, ended.end);
    this.#emit('invoice.created', invoiceJson(invoice, this));
    this.#finalize(invoice);
    if (!this.#collectPayment(invoice, subscription)) subscription.status = 'past_due';
    this.#emitChange('customer.subscription.updated', before, subscriptionJson(subscription, this));
  }

  /** The last retry of a past_due subscription's invoice: paid, or the subscription is canceled. */
  #finalRetry(subscription: SubscriptionRecord): void {
    const invoice = this.#openInvoice(subscription);
    if (invoice?.nextPaymentAttempt) this.#moveClock(subscription, invoice.nextPaymentAttempt);
    const before = subscriptionJson(subscription, this);
    if (invoice && this.#collectPayment(invoice, subscription, true)) {
      subscription.status = 'active';
      this.#emitChange('customer.subscription.updated', before, subscriptionJson(subscription, this));
      return;
    }
    this.#end(subscription, this.clockOf(subscription), 'payment_failed');
    this.#emit('customer.subscription.deleted', subscriptionJson(subscription, this));
  }

  #end(subscription: SubscriptionRecord, at: number, reason: SubscriptionRecord['cancellationReason']): void {
    subscription.status = 'canceled';
    subscription.endedAt = at;
    subscription.canceledAt = subscription.canceledAt ?? at;
    subscription.cancelAt = subscription.cancelAtPeriodEnd ? subscription.cancelAt : null;
    subscription.cancellationReason = subscription.cancellationReason ?? reason;
  }
}
