import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import type { Card } from './stripe-cards.ts';

/**
 * What the Stripe stand-in keeps, and each record as Stripe's API version 2026-02-25.clover answers it: every
 * field the object has, null where the sandbox has nothing to say. The SDK's own types check the shapes, so a
 * field Stripe moved (a subscription's periods now on its items, an invoice's subscription under `parent`)
 * cannot be answered in its old place.
 */
export const API_VERSION = '2026-02-25.clover';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** `cus_Qx7…`: Stripe's prefix and random letters and digits. */
export function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${id}`;
}

export type Interval = 'month' | 'year';

export interface ProductRecord {
  id: string;
  name: string;
  created: number;
}

export interface PriceRecord {
  id: string;
  product: string;
  unitAmount: number;
  currency: string;
  interval: Interval;
  lookupKey: string | null;
  created: number;
}

export interface CustomerRecord {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  description: string | null;
  phone: string | null;
  metadata: Record<string, string>;
  defaultPaymentMethod: string | null;
  /** Invoice numbers are `${invoicePrefix}-0001`, counted per customer. */
  invoicePrefix: string;
  invoiceSequence: number;
}

export interface PaymentMethodRecord {
  id: string;
  created: number;
  customer: string | null;
  card: Card;
  name: string | null;
  email: string | null;
}

export interface CheckoutSessionRecord {
  id: string;
  created: number;
  expiresAt: number;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'unpaid' | 'paid';
  customer: string | null;
  /** 'always' when Checkout makes the customer (none was given), as Stripe reports it. */
  customerCreation: 'always' | null;
  customerEmail: string | null;
  /** What the person typed at Checkout, once it is complete. */
  customerDetails: { email: string | null; name: string | null } | null;
  price: string;
  quantity: number;
  successUrl: string | null;
  cancelUrl: string | null;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  subscriptionMetadata: Record<string, string>;
  /** Set once complete, as Stripe shows it; `pendingSubscription` holds the incomplete one a decline made. */
  subscription: string | null;
  invoice: string | null;
  pendingSubscription: string | null;
  url: string;
}

export type SubscriptionStatus =
  'incomplete' | 'incomplete_expired' | 'active' | 'past_due' | 'canceled' | 'unpaid';

export interface SubscriptionRecord {
  id: string;
  customer: string;
  created: number;
  startDate: number;
  status: SubscriptionStatus;
  itemId: string;
  itemCreated: number;
  price: string;
  quantity: number;
  periodStart: number;
  periodEnd: number;
  billingCycleAnchor: number;
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  canceledAt: number | null;
  endedAt: number | null;
  cancellationReason: 'cancellation_requested' | 'payment_failed' | 'payment_disputed' | null;
  latestInvoice: string | null;
  metadata: Record<string, string>;
  defaultPaymentMethod: string | null;
  /** The subscription's test clock, as an offset from the sandbox's clock: advancing moves it, never real time. */
  clockOffsetMs: number;
}

export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';

export interface InvoiceRecord {
  id: string;
  customer: string;
  subscription: string;
  subscriptionItem: string;
  created: number;
  status: InvoiceStatus;
  billingReason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  price: string;
  quantity: number;
  amount: number;
  currency: string;
  /** The invoice's own period (for a renewal, the period just ended) and the line's service period. */
  periodStart: number;
  periodEnd: number;
  lineId: string;
  lineStart: number;
  lineEnd: number;
  number: string | null;
  attemptCount: number;
  nextPaymentAttempt: number | null;
  finalizedAt: number | null;
  paidAt: number | null;
  voidedAt: number | null;
  subscriptionMetadata: Record<string, string>;
  customerEmail: string | null;
  customerName: string | null;
  hostedUrl: string;
}

export interface PortalSessionRecord {
  id: string;
  customer: string;
  returnUrl: string | null;
  created: number;
  /** Real time (ms) of the last page view or action: the link lapses after 5 minutes without one. */
  lastActiveAt: number;
  url: string;
}

/** Where a serializer finds the records an object points at. */
export interface Records {
  price(id: string): PriceRecord;
  product(id: string): ProductRecord;
}

export function list<T>(data: T[], url: string, hasMore = false): Stripe.ApiList<T> {
  return { object: 'list', data, has_more: hasMore, url };
}

const MONTHS: Record<Interval, number> = { month: 1, year: 12 };

/**
 * The end of the `count`-th period after the anchor: the same day of the month (the last day when the month is
 * shorter, as Stripe bills a subscription anchored on the 31st), the same time of day.
 */
export function periodEnd(anchor: number, interval: Interval, count: number): number {
  const start = new Date(anchor * 1000);
  const months = start.getUTCMonth() + MONTHS[interval] * count;
  const year = start.getUTCFullYear() + Math.floor(months / 12);
  const month = months % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const end = Date.UTC(
    year,
    month,
    Math.min(start.getUTCDate(), lastDay),
    start.getUTCHours(),
    start.getUTCMinutes(),
    start.getUTCSeconds(),
  );
  return Math.floor(end / 1000);
}

/** The period after one that ends at `end`, on the subscription's anchor. */
export function nextPeriodEnd(anchor: number, interval: Interval, end: number): number {
  let count = 1;
  while (periodEnd(anchor, interval, count) <= end) count += 1;
  return periodEnd(anchor, interval, count);
}

export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(
    cents / 100,
  );
}

/** "Vigil Pro — $49.00 per month". */
export function priceLabel(price: PriceRecord, product: ProductRecord): string {
  return `${product.name} — ${formatMoney(price.unitAmount, price.currency)} per ${price.interval}`;
}

export function productJson(product: ProductRecord): Stripe.Product {
  return {
    id: product.id,
    object: 'product',
    active: true,
    created: product.created,
    default_price: null,
    description: null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: {},
    name: product.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    type: 'service',
    unit_label: null,
    updated: product.created,
    url: null,
  };
}

export function priceJson(price: PriceRecord): Stripe.Price {
  return {
    id: price.id,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: price.lookupKey,
    metadata: {},
    nickname: null,
    product: price.product,
    recurring: {
      interval: price.interval,
      interval_count: 1,
      meter: null,
      trial_period_days: null,
      usage_type: 'licensed',
    },
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: 'recurring',
    unit_amount: price.unitAmount,
    unit_amount_decimal: String(price.unitAmount),
  };
}

/** The legacy Plan every subscription item still carries beside its price. */
function planJson(price: PriceRecord): Stripe.Plan {
  return {
    id: price.id,
    object: 'plan',
    active: true,
    amount: price.unitAmount,
    amount_decimal: String(price.unitAmount),
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: price.interval,
    interval_count: 1,
    livemode: false,
    metadata: {},
    meter: null,
    nickname: null,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

export function customerJson(customer: CustomerRecord): Stripe.Customer {
  return {
    id: customer.id,
    object: 'customer',
    address: null,
    balance: 0,
    created: customer.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: customer.description,
    discount: null,
    email: customer.email,
    invoice_prefix: customer.invoicePrefix,
    invoice_settings: {
      custom_fields: null,
      default_payment_method: customer.defaultPaymentMethod,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: { ...customer.metadata },
    name: customer.name,
    next_invoice_sequence: customer.invoiceSequence,
    phone: customer.phone,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

export function paymentMethodJson(method: PaymentMethodRecord): Stripe.PaymentMethod {
  const { card } = method;
  return {
    id: method.id,
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: {
      address: null,
      email: method.email,
      name: method.name,
      phone: null,
      tax_id: null,
    },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: card.brand,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      fingerprint: card.fingerprint,
      funding: 'credit',
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: method.created,
    customer: method.customer,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
}

function subscriptionItemJson(subscription: SubscriptionRecord, records: Records): Stripe.SubscriptionItem {
  const price = records.price(subscription.price);
  return {
    id: subscription.itemId,
    object: 'subscription_item',
    billing_thresholds: null,
    created: subscription.itemCreated,
    current_period_end: subscription.periodEnd,
    current_period_start: subscription.periodStart,
    discounts: [],
    metadata: {},
    plan: planJson(price),
    price: priceJson(price),
    quantity: subscription.quantity,
    subscription: subscription.id,
    tax_rates: [],
  };
}

export function subscriptionJson(subscription: SubscriptionRecord, records: Records): Stripe.Subscription {
  const price = records.price(subscription.price);
  return {
    id: subscription.id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: subscription.billingCycleAnchor,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_thresholds: null,
    cancel_at: subscription.cancelAt,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    canceled_at: subscription.canceledAt,
    cancellation_details: { comment: null, feedback: null, reason: subscription.cancellationReason },
    collection_method: 'charge_automatically',
    created: subscription.created,
    currency: price.currency,
    customer: subscription.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: subscription.defaultPaymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: subscription.endedAt,
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: list(
      [subscriptionItemJson(subscription, records)],
      `/v1/subscription_items?subscription=${subscription.id}`,
    ),
    latest_invoice: subscription.latestInvoice,
    livemode: false,
    metadata: { ...subscription.metadata },
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: 'off',
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: subscription.startDate,
    status: subscription.status,
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
    trial_start: null,
  };
}

function invoiceLineJson(invoice: InvoiceRecord, records: Records): Stripe.InvoiceLineItem {
  const price = records.price(invoice.price);
  const product = records.product(price.product);
  return {
    id: invoice.lineId,
    object: 'line_item',
    amount: invoice.amount,
    currency: invoice.currency,
    description: `${invoice.quantity} × ${product.name} (at ${formatMoney(price.unitAmount, price.currency)} / ${price.interval})`,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: invoice.id,
    livemode: false,
    metadata: {},
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: invoice.subscription,
        subscription_item: invoice.subscriptionItem,
      },
      type: 'subscription_item_details',
    },
    period: { end: invoice.lineEnd, start: invoice.lineStart },
    pretax_credit_amounts: [],
    pricing: {
      price_details: { price: price.id, product: product.id },
      type: 'price_details',
      unit_amount_decimal: String(price.unitAmount),
    },
    quantity: invoice.quantity,
    subscription: invoice.subscription,
    subtotal: invoice.amount,
    taxes: [],
  };
}

export function invoiceJson(invoice: InvoiceRecord, records: Records): Stripe.Invoice {
  const paid = invoice.status === 'paid' ? invoice.amount : 0;
  const settled = invoice.status === 'paid' || invoice.status === 'void';
  return {
    id: invoice.id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Vigil (sandbox)',
    account_tax_ids: null,
    amount_due: invoice.amount,
    amount_overpaid: 0,
    amount_paid: paid,
    amount_remaining: settled ? 0 : invoice.amount - paid,
    amount_shipping: 0,
    application: null,
    attempt_count: invoice.attemptCount,
    attempted: invoice.attemptCount > 0,
    auto_advance: invoice.status === 'draft' || invoice.status === 'open',
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: invoice.billingReason,
    collection_method: 'charge_automatically',
    created: invoice.created,
    currency: invoice.currency,
    custom_fields: null,
    customer: invoice.customer,
    customer_account: null,
    customer_address: null,
    customer_email: invoice.customerEmail,
    customer_name: invoice.customerName,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: invoice.finalizedAt,
    ending_balance: invoice.status === 'draft' ? null : 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: invoice.status === 'draft' ? null : invoice.hostedUrl,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: list([invoiceLineJson(invoice, records)], `/v1/invoices/${invoice.id}/lines`),
    livemode: false,
    metadata: {},
    next_payment_attempt: invoice.nextPaymentAttempt,
    number: invoice.number,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: {
        metadata: { ...invoice.subscriptionMetadata },
        subscription: invoice.subscription,
      },
      type: 'subscription_details',
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: invoice.periodEnd,
    period_start: invoice.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: invoice.status,
    status_transitions: {
      finalized_at: invoice.finalizedAt,
      marked_uncollectible_at: null,
      paid_at: invoice.paidAt,
      voided_at: invoice.voidedAt,
    },
    subtotal: invoice.amount,
    subtotal_excluding_tax: invoice.amount,
    test_clock: null,
    total: invoice.amount,
    total_discount_amounts: [],
    total_excluding_tax: invoice.amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: invoice.finalizedAt,
  };
}

export function checkoutLineItemsJson(
  session: CheckoutSessionRecord,
  records: Records,
): Stripe.ApiList<Stripe.LineItem> {
  const price = records.price(session.price);
  const amount = price.unitAmount * session.quantity;
  return list(
    [
      {
        id: `li_${session.id.slice(-24)}`,
        object: 'item',
        adjustable_quantity: null,
        amount_discount: 0,
        amount_subtotal: amount,
        amount_tax: 0,
        amount_total: amount,
        currency: price.currency,
        description: records.product(price.product).name,
        metadata: {},
        price: priceJson(price),
        quantity: session.quantity,
      },
    ],
    `/v1/checkout/sessions/${session.id}/line_items`,
  );
}

export function checkoutSessionJson(
  session: CheckoutSessionRecord,
  records: Records,
): Stripe.Checkout.Session {
  const price = records.price(session.price);
  const amount = price.unitAmount * session.quantity;
  return {
    id: session.id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: amount,
    amount_total: amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: session.cancelUrl,
    client_reference_id: session.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: session.created,
    currency: price.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: session.customer,
    customer_account: null,
    customer_creation: session.customerCreation,
    customer_details: session.customerDetails && {
      address: null,
      business_name: null,
      email: session.customerDetails.email,
      individual_name: null,
      name: session.customerDetails.name,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    },
    customer_email: session.customerEmail,
    discounts: [],
    expires_at: session.expiresAt,
    invoice: session.invoice,
    invoice_creation: null,
    livemode: false,
    locale: null,
    metadata: { ...session.metadata },
    mode: 'subscription',
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'always',
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_status: session.paymentStatus,
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: session.status,
    submit_type: null,
    subscription: session.subscription,
    success_url: session.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: session.status === 'open' ? session.url : null,
    wallet_options: null,
  };
}

export function portalSessionJson(session: PortalSessionRecord): Stripe.BillingPortal.Session {
  return {
    id: session.id,
    object: 'billing_portal.session',
    configuration: 'bpc_vigil_sandbox',
    created: session.created,
    customer: session.customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: session.returnUrl,
    url: session.url,
  };
}
