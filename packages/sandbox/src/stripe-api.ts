import type { FastifyInstance } from 'fastify';
import { FieldError } from './stripe-cards.ts';
import { StripeActionError } from './stripe-errors.ts';
import type { StripeSandbox, TestCardInput } from './stripe.ts';

const STATUS_OF: Record<StripeActionError['code'], number> = { INVALID: 400, NOT_FOUND: 404, CONFLICT: 409 };

type Body = Record<string, unknown> | undefined;

function text(body: Body, name: string): string | undefined {
  const value = body?.[name];
  return typeof value === 'string' ? value : undefined;
}

function card(body: Body): TestCardInput {
  const number = text(body, 'card');
  if (!number)
    throw new StripeActionError('INVALID', 'card must be a card number, like 4242 4242 4242 4242.');
  return { card: number, expiry: text(body, 'expiry'), cvc: text(body, 'cvc'), name: text(body, 'name') };
}

/**
 * The sandbox's own JSON API for the Stripe stand-in, under `${basePath}/api/stripe`, for tests: the events
 * and their deliveries (re-send, duplicate, hold and release), subscriptions and their test clocks, and what a
 * person does on Checkout and in the portal. Answers `{ data }`, errors `{ code, message }`.
 */
export function registerStripeApi(app: FastifyInstance, stripe: StripeSandbox): void {
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof StripeActionError)) throw error;
    return reply.code(STATUS_OF[error.code]).send({
      code: error.code,
      message: error.message,
      ...(error instanceof FieldError ? { field: error.field } : {}),
    });
  });

  app.get('/', async () => ({
    data: {
      apiUrl: stripe.apiUrl,
      port: stripe.port,
      webhookUrl: stripe.webhookUrl,
      webhooksHeld: stripe.webhooksHeld,
      heldEventCount: stripe.heldEventCount,
      prices: stripe.prices(),
    },
  }));

  app.get<{ Querystring: { type?: string; limit?: string } }>('/events', async (request) => {
    const limit = request.query.limit === undefined ? undefined : Number(request.query.limit);
    if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
      throw new StripeActionError('INVALID', 'limit must be a whole number above 0.');
    }
    return { data: { list: stripe.events({ type: request.query.type || undefined, limit }) } };
  });

  app.get<{ Params: { id: string } }>('/events/:id', async (request) => {
    const event = stripe.event(request.params.id);
    if (!event) throw new StripeActionError('NOT_FOUND', `There is no event ${request.params.id}.`);
    return { data: event };
  });

  app.post<{ Params: { id: string } }>('/events/:id/resend', async (request) => ({
    data: await stripe.resendEvent(request.params.id),
  }));

  app.post<{ Params: { id: string } }>('/events/:id/duplicate', async (request) => ({
    data: { list: await stripe.duplicateEvent(request.params.id) },
  }));

  app.post<{ Body: Body }>('/webhooks/hold', async (request) => {
    const hold = request.body?.hold;
    if (typeof hold !== 'boolean') throw new StripeActionError('INVALID', 'hold must be true or false.');
    stripe.holdWebhooks(hold);
    return { data: { webhooksHeld: stripe.webhooksHeld, heldEventCount: stripe.heldEventCount } };
  });

  app.post<{ Body: Body }>('/webhooks/release', async (request) => {
    const order = text(request.body, 'order') ?? 'created';
    if (order !== 'created' && order !== 'reverse') {
      throw new StripeActionError('INVALID', 'order must be created or reverse.');
    }
    return { data: { list: await stripe.releaseWebhooks(order) } };
  });

  app.get('/customers', async () => ({ data: { list: stripe.customers() } }));

  app.post<{ Params: { id: string }; Body: Body }>('/customers/:id/card', async (request) => ({
    data: stripe.updateCard(request.params.id, card(request.body)),
  }));

  app.post<{ Params: { id: string }; Body: Body }>('/customers/:id/portal', async (request) => ({
    data: { url: stripe.openPortal(request.params.id, text(request.body, 'returnUrl')) },
  }));

  app.get<{ Querystring: { status?: string } }>('/checkout/sessions', async (request) => ({
    data: { list: stripe.checkoutSessions({ status: request.query.status || undefined }) },
  }));

  app.post<{ Params: { id: string }; Body: Body }>('/checkout/sessions/:id/pay', async (request) => ({
    data: stripe.payCheckout(request.params.id, {
      ...card(request.body),
      email: text(request.body, 'email'),
    }),
  }));

  app.get<{ Querystring: { email?: string } }>('/subscriptions', async (request) => ({
    data: { list: stripe.subscriptions({ email: request.query.email || undefined }) },
  }));

  app.get<{ Params: { id: string } }>('/subscriptions/:id', async (request) => {
    const subscription = stripe.subscription(request.params.id);
    if (!subscription)
      throw new StripeActionError('NOT_FOUND', `There is no subscription ${request.params.id}.`);
    return { data: subscription };
  });

  app.post<{ Params: { id: string } }>('/subscriptions/:id/advance', async (request) => ({
    data: stripe.advanceSubscription(request.params.id),
  }));

  app.post<{ Params: { id: string }; Body: Body }>('/subscriptions/:id/price', async (request) => {
    const price = text(request.body, 'price');
    if (!price) throw new StripeActionError('INVALID', 'price must be a price id.');
    return { data: stripe.switchPrice(request.params.id, price) };
  });

  app.post<{ Params: { id: string }; Body: Body }>(
    '/subscriptions/:id/cancel-at-period-end',
    async (request) => {
      const cancel = request.body?.cancel;
      if (typeof cancel !== 'boolean')
        throw new StripeActionError('INVALID', 'cancel must be true or false.');
      return { data: stripe.setCancelAtPeriodEnd(request.params.id, cancel) };
    },
  );
}
