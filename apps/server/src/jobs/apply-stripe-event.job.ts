import { z } from 'zod';
import { addMs, DAY_MS } from '../lib/clock.ts';
import { defineJob } from './job.ts';
import { queueNotices } from './send-account-notice.job.ts';

/** An event unapplied this long after it arrived lost its job (or its worker died): the sweep re-queues it. */
const STRANDED_EVENT_MS = 30_000;
/** Applied event ids are kept past Stripe's three days of retries, so a late retry is still known. */
const EVENT_IDS_KEPT_MS = 30 * DAY_MS;

/** Applies one Stripe event (modules/billing/stripe-events.ts); Stripe being unreachable is retried. */
export const applyStripeEventJob = defineJob<{ eventId: string }>({
  name: 'apply-stripe-event',
  payload: z.object({ eventId: z.string().min(1).max(255) }),
  retry: { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 120 },
  concurrency: 2,
  async handle({ eventId }, { billing, log, queue }) {
    if (!billing) {
      log.warn({ eventId }, 'a Stripe event arrived but this worker has no Stripe settings');
      return;
    }
    const applied = await billing.events.apply(eventId);
    if (!applied) return;
    log.info({ eventId, outcome: applied.outcome }, 'Stripe event applied');
    // A lost send here is caught by the plan-limits sweep, which re-sends notices left unsent.
    await queueNotices(queue, applied.noticeIds);
  },
});

/** Re-queues Stripe events left unapplied and forgets old applied ones; sent every minute by the engine. */
export const sweepBillingJob = defineJob<Record<string, never>>({
  name: 'sweep-billing',
  payload: z.object({}).strict() as z.ZodType<Record<string, never>>,
  retry: { retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
  concurrency: 1,
  async handle(_payload, { store, clock, queue }) {
    const now = clock.now();
    for (const eventId of await store.billing.unapplied(addMs(now, -STRANDED_EVENT_MS), 500)) {
      await queue.send(applyStripeEventJob, { eventId });
    }
    await store.billing.deleteAppliedBefore(addMs(now, -EVENT_IDS_KEPT_MS));
  },
});
