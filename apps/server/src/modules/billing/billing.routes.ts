import type { FastifyPluginAsync, preHandlerAsyncHookHandler } from 'fastify';
import {
  billingPortalResponse,
  planOrderCreateBody,
  planOrderCreateResponse,
  planOrderQuery,
  planOrderResponse,
  subscriptionResponse,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { applyStripeEventJob } from '../../jobs/apply-stripe-event.job.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Store } from '../../db/store.ts';
import { errorResponses, SESSION_SECURITY } from '../../lib/route-schemas.ts';
import { sessionOf } from '../sessions/authenticate.ts';
import type { BillingService } from './billing.service.ts';
import type { BillingGateway } from './stripe-gateway.ts';

const tags = ['billing'];

export const billingRoutes: FastifyPluginAsyncZod<{
  billing: BillingService;
  authenticate: preHandlerAsyncHookHandler;
}> = async (app, { billing, authenticate }) => {
  app.post(
    '/monitor-bff/plan-order/create',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'Order a paid plan: records the order and opens its Stripe Checkout; go to `url`',
        description:
          'A pending order of the same plan and period from the last 30 minutes is reused, and Checkout is opened with the order as Idempotency-Key: a double click opens one session. Checkout returns to /app/payment-success?order=… or /app/payment-error?order=…. 409 when a paid plan already runs (change it in the billing portal).',
        security: SESSION_SECURITY,
        body: planOrderCreateBody,
        response: { 200: planOrderCreateResponse, ...errorResponses(401, 409, 413, 503) },
      },
    },
    async (request) => ({ data: await billing.createOrder(sessionOf(request), request.body) }),
  );

  app.get(
    '/monitor-bff/plan-order',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'One of your plan orders: pending, active (the webhook activated the plan) or failed',
        security: SESSION_SECURITY,
        querystring: planOrderQuery,
        response: { 200: planOrderResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({ data: await billing.order(sessionOf(request), request.query.order) }),
  );

  app.get(
    '/monitor-bff/subscription',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'Your plan now: its state, end, next charge and whether the billing portal is open to you',
        security: SESSION_SECURITY,
        response: { 200: subscriptionResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await billing.subscription(sessionOf(request)) }),
  );

  app.post(
    '/monitor-bff/subscription/portal',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: "Open Stripe's customer portal (card, plan changes, cancelling, invoices); go to `url`",
        security: SESSION_SECURITY,
        response: { 200: billingPortalResponse, ...errorResponses(401, 503) },
      },
    },
    async (request) => ({ data: await billing.portal(sessionOf(request)) }),
  );
};

/**
 * `POST /webhooks/stripe`: the raw body's `Stripe-Signature` is verified with the SDK (300 s tolerance; else
 * 400 and nothing is written). A verified event is recorded by its id (a retry or replay of an id already
 * received changes nothing) and applied by a job, so the answer is quick and a dead worker's event is
 * applied by the next.
 */
export const stripeWebhookRoutes: FastifyPluginAsync<{
  gateway: BillingGateway;
  store: Store;
  queue: JobQueue;
  clock: Clock;
}> = async (app, { gateway, store, queue, clock }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/webhooks/stripe',
    {
      // Hidden from /docs like the other providers' webhooks: only Stripe calls it.
      schema: { hide: true, response: { 200: z.object({ received: z.boolean() }) } },
    },
    async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      const event = gateway.verifyEvent(
        raw,
        typeof signature === 'string' ? signature : undefined,
        clock.now(),
      );
      if (typeof event.id !== 'string' || typeof event.type !== 'string' || !event.data?.object) {
        throw new AppError('INVALID', 'A Stripe event needs an id, a type and data.object.');
      }
      const fresh = await store.billing.insertEvent({
        id: event.id,
        type: event.type,
        payload: event,
        now: clock.now(),
      });
      if (fresh) {
        // A lost send is not lost work: the billing sweep re-queues events left unapplied.
        await queue.send(applyStripeEventJob, { eventId: event.id }).catch((error: unknown) => {
          request.log.error(
            { err: error, eventId: event.id },
            'could not queue a Stripe event; the sweep will',
          );
        });
      }
      return { received: true };
    },
  );
};
