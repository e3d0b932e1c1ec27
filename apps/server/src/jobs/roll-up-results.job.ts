import { z } from 'zod';
import { rollUpAndPrune } from '../engine/retention.ts';
import { defineJob } from './job.ts';

/** Rolls raw check results up per hour and deletes those past the retention window. */
export const rollUpResultsJob = defineJob<Record<string, never>>({
  name: 'roll-up-results',
  payload: z.object({}).strict() as z.ZodType<Record<string, never>>,
  retry: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 600 },
  concurrency: 1,
  async handle(_payload, { store, clock, resultRetentionHours, log }) {
    const { rolledUp, deleted } = await rollUpAndPrune(store, clock.now(), resultRetentionHours);
    log.info({ rolledUp, deleted }, 'check results rolled up');
  },
});
