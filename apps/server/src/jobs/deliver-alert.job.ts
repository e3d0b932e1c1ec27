import { z } from 'zod';
import { deliverAlert } from '../engine/alert-delivery.ts';
import { defineJob } from './job.ts';

export const deliverAlertPayload = z.object({ deliveryId: z.uuid() });
export type DeliverAlertPayload = z.infer<typeof deliverAlertPayload>;

/**
 * Sends one alert delivery (an incident event to one recipient on one channel). Retried with backoff for
 * about half an hour; the job expires with the delivery's lease, so a worker that dies mid-send has its
 * delivery taken over by the retry.
 */
export const deliverAlertJob = defineJob<DeliverAlertPayload>({
  name: 'deliver-alert',
  payload: deliverAlertPayload,
  retry: { retryLimit: 10, retryDelay: 2, retryBackoff: true, expireInSeconds: 20 },
  concurrency: 8,
  async handle({ deliveryId }, deps, attempt) {
    await deliverAlert(deliveryId, deps, attempt);
  },
});
