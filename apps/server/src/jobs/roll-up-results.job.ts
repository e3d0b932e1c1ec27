import { z } from 'zod';
import { rollUpAndPrune } from '../engine/retention.ts';
import { defineJob } from './job.ts';

const WEBHOOK_IDS_KEPT_MS = 7 * 24 * 3600 * 1000;

/**
 * Rolls raw check results up per hour, creates their partitions ahead and drops those past the retention
 * window, and deletes expired bindings.
 */
export const rollUpResultsJob = defineJob<Record<string, never>>({
  name: 'roll-up-results',
  payload: z.object({}).strict() as z.ZodType<Record<string, never>>,
  retry: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 600 },
  concurrency: 1,
  async handle(_payload, { store, clock, resultRetentionHours, rollUpPacing, log }) {
    const now = clock.now();
    const results = await rollUpAndPrune(store, now, resultRetentionHours, rollUpPacing);
    // Binding states and held installs expire; webhook ids are kept a week, past Shopify's 48 hours of retries.
    await store.connections.deleteExpiredStates(now);
    await store.connections.deleteExpiredHeld(now);
    await store.connections.deleteWebhooksBefore(new Date(now.getTime() - WEBHOOK_IDS_KEPT_MS));
    log.info(results, 'check results rolled up, partitions maintained');
  },
});
