import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Stripe from 'stripe';
import type { StripeAccount, SubscriptionUpdate } from './stripe-account.ts';
import { invalidParam, missingParam, noSuch, StripeApiError } from './stripe-errors.ts';
import { fingerprint, Params, parseStripeParams } from './stripe-form.ts';
import type { IdempotencyKeys, SavedAnswer } from './stripe-idempotency.ts';
import {
  API_VERSION,
  checkoutLineItemsJson,
  checkoutSessionJson,
  customerJson,
  invoiceJson,
  list,
  paymentMethodJson,
  portalSessionJson,
  priceJson,
  productJson,
  stripeId,
  subscriptionJson,
  type SubscriptionRecord,
} from './stripe-objects.ts';
import type { StripeWebhooks } from './stripe-webhooks.ts';

/**
 * Stripe's REST API (v1), as the official SDK calls it, at the root of the sandbox's own listener (the SDK
 * takes a host, port and protocol but no base path): Bearer (or Basic) auth with the secret key, form-encoded
 * parameters in bracket notation, `expand`, list objects with cursors, Idempotency-Key, Request-Id, and
 * Stripe's error bodies.
 */
export interface StripeRestDeps {
  account: StripeAccount;
  webhooks: StripeWebhooks;
  keys: IdempotencyKeys;
  secretKey: string;
}

type Handler = (params: Params, ids: Record<string, string>) => object;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_EXPAND_DEPTH = 4;

/** Each request's Request-Id, which its events and a replay's Original-Request name. */
const requestIds = new WeakMap<FastifyRequest, string>();

function keyMatches(given: string, secret: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(secret);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The API key from `Authorization: Bearer <key>`, or Basic with the key as the user name (`curl -u sk_…:`). */
function apiKeyOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization ?? '';
  const bearer = /^Bearer\s+(.+)$/i.exec(header)?.[1];
  if (bearer) return bearer.trim();
  const basic = /^Basic\s+(.+)$/i.exec(header)?.[1];
  if (basic) return Buffer.from(basic, 'base64').toString('utf8').split(':')[0] ?? null;
  return null;
}

function masked(key: string): string {
  return key.length > 12
    ? `${key.slice(0, 8)}${'*'.repeat(Math.min(key.length - 12, 20))}${key.slice(-4)}`
    : key;
}

function paramsOf(request: FastifyRequest): Params {
  const query = request.raw.url?.split('?')[1] ?? '';
  const body = typeof request.body === 'string' ? request.body : '';
  return new Params({ ...parseStripeParams(query), ...parseStripeParams(body) });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function cannotExpand(path: string): StripeApiError {
  return invalidParam(`This property cannot be expanded (${path}).`, 'expand');
}

/**
 * Replaces the id at `path` (`customer`, `data.subscription`, `latest_invoice.customer`) by the object, as
 * Stripe's `expand[]` does; lists are walked through their `data`.
 */
function expandAt(node: unknown, path: string[], full: string, account: StripeAccount): void {
  if (Array.isArray(node)) {
    for (const item of node) expandAt(item, path, full, account);
    return;
  }
  if (!isObject(node)) return;
  const [head, ...rest] = path as [string, ...string[]];
  if (head === 'line_items' && node.object === 'checkout.session') {
    node.line_items = checkoutLineItemsJson(account.checkoutSession(String(node.id)), account);
  }
  if (!(head in node)) throw cannotExpand(full);
  const child = node[head];
  if (typeof child === 'string') {
    const found = account.objectJson(child);
    if (!found) throw cannotExpand(full);
    node[head] = found;
  } else if (child !== null && typeof child !== 'object') throw cannotExpand(full);
  if (rest.length > 0) expandAt(node[head], rest, full, account);
}

function expand(body: object, params: Params, account: StripeAccount): object {
  for (const path of params.strings('expand')) {
    const parts = path.split('.');
    if (parts.length > MAX_EXPAND_DEPTH) {
      throw invalidParam(
        `You cannot expand more than ${MAX_EXPAND_DEPTH} levels of a property. Property: ${path}`,
        'expand',
      );
    }
    expandAt(body, parts, path, account);
  }
  return body;
}

/** One page of a list, newest first, with Stripe's `limit`, `starting_after` and `ending_before`. */
function page<T extends { id: string }>(
  items: T[],
  params: Params,
  url: string,
  kind: string,
): Stripe.ApiList<T> {
  const limit = params.integer('limit') ?? 10;
  if (limit < 1 || limit > 100) throw invalidParam('Invalid limit: must be between 1 and 100.', 'limit');
  const after = params.optional('starting_after');
  const before = params.optional('ending_before');
  let start = 0;
  let end = items.length;
  if (after) {
    const index = items.findIndex((item) => item.id === after);
    if (index < 0) throw noSuch(kind, after, 'starting_after');
    start = index + 1;
  } else if (before) {
    const index = items.findIndex((item) => item.id === before);
    if (index < 0) throw noSuch(kind, before, 'ending_before');
    end = index;
    start = Math.max(0, end - limit);
  }
  const data = items.slice(start, Math.min(end, start + limit));
  const more = before ? start > 0 : start + limit < end;
  return list(data, url, more);
}

function text(params: Params, key: string): string | null | undefined {
  const value = params.string(key);
  return value === undefined ? undefined : value === '' ? null : value;
}

function email(params: Params, key: string): string | null | undefined {
  const value = text(params, key);
  if (value && !EMAIL.test(value))
    throw invalidParam(`Invalid email address: ${value}`, key, 'email_invalid');
  return value;
}

function subscriptionUpdate(params: Params, subscription: SubscriptionRecord): SubscriptionUpdate {
  const proration = params.optional('proration_behavior');
  if (proration && !['create_prorations', 'none', 'always_invoice'].includes(proration)) {
    throw invalidParam(
      `Invalid proration_behavior: must be one of create_prorations, none, or always_invoice`,
      'proration_behavior',
    );
  }
  const items = params.objects('items');
  if (items.length > 1) {
    throw invalidParam('The sandbox keeps one item per subscription: pass items[0] only.', 'items[1]');
  }
  const item = items[0];
  if (item && !item.has('id')) {
    throw invalidParam(
      'The sandbox keeps one item per subscription: name it with items[0][id] to change its price.',
      'items[0][id]',
    );
  }
  const defaultPaymentMethod = text(params, 'default_payment_method');
  return {
    cancelAtPeriodEnd: params.boolean('cancel_at_period_end'),
    item: item && {
      id: item.required('id'),
      price: item.optional('price'),
      quantity: item.integer('quantity'),
    },
    metadata: params.metadata('metadata', subscription.metadata),
    defaultPaymentMethod,
  };
}

function subscriptionFilter(params: Params): (subscription: SubscriptionRecord) => boolean {
  const customer = params.optional('customer');
  const price = params.optional('price');
  const status = params.optional('status');
  const ended = (s: SubscriptionRecord) => s.status === 'canceled' || s.status === 'incomplete_expired';
  return (s) =>
    (!customer || s.customer === customer) &&
    (!price || s.price === price) &&
    (status === 'all' ||
      (status === 'ended' && ended(s)) ||
      (status === undefined && !ended(s)) ||
      s.status === status);
}

export function registerStripeRest(app: FastifyInstance, deps: StripeRestDeps): void {
  const { account, webhooks, keys } = deps;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, body),
  );

  app.addHook('onRequest', async (request, reply) => {
    const requestId = stripeId('req', 14);
    requestIds.set(request, requestId);
    reply.header('Request-Id', requestId);
    reply.header('Stripe-Version', API_VERSION);
    reply.header('Cache-Control', 'no-cache, no-store');
    const key = apiKeyOf(request);
    if (key !== null && keyMatches(key, deps.secretKey)) return;
    const message =
      key === null
        ? "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/."
        : `Invalid API Key provided: ${masked(key)}`;
    reply.header('WWW-Authenticate', 'Basic realm="Stripe"');
    return reply.code(401).send(new StripeApiError(401, 'invalid_request_error', message).toJSON());
  });

  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(
        new StripeApiError(
          404,
          'invalid_request_error',
          `Unrecognized request URL (${request.method}: ${request.url.split('?')[0]}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
        ).toJSON(),
      ),
  );

  app.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
    if (error instanceof StripeApiError) return reply.code(error.status).send(error.toJSON());
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      const type = request.headers['content-type'] ?? '';
      return reply
        .code(400)
        .send(
          invalidParam(
            `Invalid request: unsupported Content-Type ${type}. If error persists and you need assistance, please contact support@stripe.com.`,
          ).toJSON(),
        );
    }
    request.log.error(error);
    return reply
      .code(500)
      .send(
        new StripeApiError(500, 'api_error', 'An unknown error occurred in the Stripe sandbox.').toJSON(),
      );
  });

  /** Runs a handler as one API request: its events name the request, its answer is expanded as asked. */
  function answer(request: FastifyRequest, handler: Handler): SavedAnswer {
    const requestId = requestIds.get(request)!;
    try {
      const params = paramsOf(request);
      account.expireDue();
      const idempotencyKey = (request.headers['idempotency-key'] as string | undefined) ?? null;
      const body = account.during({ id: requestId, idempotencyKey }, () =>
        handler(params, request.params as Record<string, string>),
      );
      return { status: 200, body: expand(body, params, account), requestId };
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      return { status: error.status, body: error.toJSON(), requestId };
    }
  }

  async function send(request: FastifyRequest, reply: FastifyReply, handler: Handler) {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || typeof key !== 'string' || key === '') {
      const { status, body } = answer(request, handler);
      return reply.code(status).send(body);
    }
    if (key.length > 255) {
      throw invalidParam('Idempotency-Key must be at most 255 characters long.', 'idempotency_key');
    }
    const print = `${request.method} ${request.url.split('?')[0]} ${fingerprint(paramsOf(request).values)}`;
    const { answer: saved, replayed } = await keys.run(key, print, () => answer(request, handler));
    reply.header('Idempotency-Key', key);
    if (replayed) {
      reply.header('Idempotent-Replayed', 'true');
      reply.header('Original-Request', saved.requestId);
    }
    return reply.code(saved.status).send(saved.body);
  }

  const route = (method: 'GET' | 'POST' | 'DELETE', url: string, handler: Handler) =>
    app.route({ method, url, handler: (request, reply) => send(request, reply, handler) });

  // ---- Customers. ----
  route('POST', '/v1/customers', (p) =>
    customerJson(
      account.createCustomer({
        email: email(p, 'email'),
        name: text(p, 'name'),
        description: text(p, 'description'),
        phone: text(p, 'phone'),
        metadata: p.metadata('metadata'),
        defaultPaymentMethod: p.object('invoice_settings')?.optional('default_payment_method'),
      }),
    ),
  );
  route('GET', '/v1/customers', (p) => {
    const wanted = p.optional('email');
    const customers = account.customers().filter((c) => !wanted || c.email === wanted);
    return page(customers.map(customerJson), p, '/v1/customers', 'customer');
  });
  route('GET', '/v1/customers/:id', (_p, { id }) => customerJson(account.customer(id!)));
  route('POST', '/v1/customers/:id', (p, { id }) => {
    const current = account.customer(id!);
    return customerJson(
      account.updateCustomer(id!, {
        email: email(p, 'email'),
        name: text(p, 'name'),
        description: text(p, 'description'),
        phone: text(p, 'phone'),
        metadata: p.metadata('metadata', current.metadata),
        defaultPaymentMethod: p.object('invoice_settings')
          ? text(p.object('invoice_settings')!, 'default_payment_method')
          : undefined,
      }),
    );
  });

  // ---- Products, prices and cards. ----
  route('GET', '/v1/products', (p) =>
    page(account.products().map(productJson), p, '/v1/products', 'product'),
  );
  route('GET', '/v1/products/:id', (_p, { id }) => productJson(account.product(id!)));
  route('GET', '/v1/prices', (p) => {
    const lookupKeys = p.strings('lookup_keys');
    const active = p.boolean('active');
    const product = p.optional('product');
    const type = p.optional('type');
    const prices = account
      .prices()
      .filter(
        (price) =>
          (lookupKeys.length === 0 || (price.lookupKey !== null && lookupKeys.includes(price.lookupKey))) &&
          active !== false &&
          (!product || price.product === product) &&
          (!type || type === 'recurring'),
      );
    return page(prices.map(priceJson), p, '/v1/prices', 'price');
  });
  route('GET', '/v1/prices/:id', (_p, { id }) => priceJson(account.price(id!)));
  route('GET', '/v1/payment_methods/:id', (_p, { id }) => paymentMethodJson(account.paymentMethod(id!)));

  // ---- Checkout Sessions. ----
  route('POST', '/v1/checkout/sessions', (p) => {
    const mode = p.required('mode');
    if (mode !== 'subscription') {
      throw invalidParam("The sandbox's Checkout takes mode=subscription only.", 'mode');
    }
    const items = p.objects('line_items');
    if (items.length === 0) throw missingParam('line_items');
    if (items.length > 1)
      throw invalidParam("The sandbox's Checkout sells one price per session.", 'line_items[1]');
    const item = items[0]!;
    const quantity = item.integer('quantity');
    if (quantity === undefined) throw missingParam('line_items[0][quantity]');
    const clientReferenceId = p.optional('client_reference_id');
    if (clientReferenceId && clientReferenceId.length > 200) {
      throw invalidParam('client_reference_id must be at most 200 characters.', 'client_reference_id');
    }
    const session = account.createCheckoutSession({
      customer: p.optional('customer'),
      customerEmail: p.optional('customer_email'),
      price: item.required('price'),
      quantity,
      successUrl: p.optional('success_url'),
      cancelUrl: p.optional('cancel_url'),
      clientReferenceId,
      metadata: p.metadata('metadata'),
      subscriptionMetadata: p.object('subscription_data')?.metadata('metadata'),
      expiresAt: p.integer('expires_at'),
    });
    return checkoutSessionJson(session, account);
  });
  route('GET', '/v1/checkout/sessions', (p) => {
    const customer = p.optional('customer');
    const subscription = p.optional('subscription');
    const status = p.optional('status');
    const sessions = account
      .checkoutSessions()
      .filter(
        (s) =>
          (!customer || s.customer === customer) &&
          (!subscription || s.subscription === subscription) &&
          (!status || s.status === status),
      );
    return page(
      sessions.map((s) => checkoutSessionJson(s, account)),
      p,
      '/v1/checkout/sessions',
      'checkout.session',
    );
  });
  route('GET', '/v1/checkout/sessions/:id', (_p, { id }) =>
    checkoutSessionJson(account.checkoutSession(id!), account),
  );
  route('GET', '/v1/checkout/sessions/:id/line_items', (_p, { id }) =>
    checkoutLineItemsJson(account.checkoutSession(id!), account),
  );
  route('POST', '/v1/checkout/sessions/:id/expire', (_p, { id }) =>
    checkoutSessionJson(account.expireCheckoutSession(id!), account),
  );

  // ---- Subscriptions. ----
  route('GET', '/v1/subscriptions', (p) => {
    const subscriptions = account.subscriptions().filter(subscriptionFilter(p));
    return page(
      subscriptions.map((s) => subscriptionJson(s, account)),
      p,
      '/v1/subscriptions',
      'subscription',
    );
  });
  route('GET', '/v1/subscriptions/:id', (_p, { id }) => subscriptionJson(account.subscription(id!), account));
  route('POST', '/v1/subscriptions/:id', (p, { id }) => {
    const update = subscriptionUpdate(p, account.subscription(id!));
    return subscriptionJson(account.updateSubscription(id!, update), account);
  });
  route('DELETE', '/v1/subscriptions/:id', (_p, { id }) =>
    subscriptionJson(account.cancelSubscription(id!), account),
  );

  // ---- Invoices. ----
  route('GET', '/v1/invoices', (p) => {
    const customer = p.optional('customer');
    const subscription = p.optional('subscription');
    const status = p.optional('status');
    const invoices = account
      .invoices()
      .filter(
        (i) =>
          (!customer || i.customer === customer) &&
          (!subscription || i.subscription === subscription) &&
          (!status || i.status === status),
      );
    return page(
      invoices.map((i) => invoiceJson(i, account)),
      p,
      '/v1/invoices',
      'invoice',
    );
  });
  route('GET', '/v1/invoices/:id', (_p, { id }) => invoiceJson(account.invoice(id!), account));
  route('GET', '/v1/invoices/:id/lines', (_p, { id }) => invoiceJson(account.invoice(id!), account).lines);

  // ---- Billing portal. ----
  route('POST', '/v1/billing_portal/sessions', (p) =>
    portalSessionJson(
      account.createPortalSession({ customer: p.required('customer'), returnUrl: p.optional('return_url') }),
    ),
  );

  // ---- Events. ----
  route('GET', '/v1/events', (p) => {
    const type = p.optional('type');
    const events = webhooks.list({ type }).map((view) => webhooks.eventNow(view.id)!);
    return page(events, p, '/v1/events', 'event');
  });
  route('GET', '/v1/events/:id', (_p, { id }) => {
    const event = webhooks.eventNow(id!);
    if (!event) throw noSuch('event', id!);
    return event;
  });
}
