import { z } from 'zod';
import { createPlanLimitsSweep } from '../modules/billing/plan-limits-sweep.ts';
import { defineJob } from './job.ts';

/**
 * Limits over time (modules/billing/plan-limits-sweep.ts): applies plans that changed with time, warns of plans
 * ending without renewal, re-queues unsent account notices. Sent every minute by the check engine.
 */
export const applyPlanLimitsJob = defineJob<Record<string, never>>({
  name: 'apply-plan-limits',
  payload: z.object({}).strict() as z.ZodType<Record<string, never>>,
  retry: { retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
  concurrency: 1,
  async handle(_payload, { store, clock, queue, publicUrl, log }) {
    const done = await createPlanLimitsSweep({ store, clock, queue, publicUrl, log }).run();
    if (done.applied + done.warned + done.requeued > 0) log.info(done, 'plan limits swept');
  },
});
