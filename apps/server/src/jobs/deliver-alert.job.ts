import { z } from 'zod';
import { deliverAlert } from '../delivery/alert-delivery.ts';
import { defineJob, type WorkerDeps } from './job.ts';
import { sendEmailJob } from './send-email.job.ts';

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
    await deliverAlert(
      deliveryId,
      {
        ...deps,
        queueDeliveries: (ids, startAfterSeconds) => queueDeliveries(deps, ids, startAfterSeconds),
        queueEmail: async (message) => {
          await deps.queue.send(sendEmailJob, message);
        },
      },
      { ...attempt, leaseMs: attempt.expireInSeconds * 1000 },
    );
  },
});

/** Hands new deliveries (fallbacks, call retries) to the job engine; the engine's sweep catches any missed. */
export async function queueDeliveries(
  deps: Pick<WorkerDeps, 'queue' | 'store' | 'clock'> & { log: Pick<WorkerDeps['log'], 'error'> },
  ids: string[],
  startAfterSeconds?: number,
): Promise<void> {
  const queued: string[] = [];
  for (const deliveryId of ids) {
    try {
      await deps.queue.send(
        deliverAlertJob,
        { deliveryId },
        startAfterSeconds ? { startAfterSeconds } : undefined,
      );
      queued.push(deliveryId);
    } catch (error) {
      deps.log.error(
        { err: error, deliveryId },
        'could not queue an alert; the stranded-delivery sweep retries it',
      );
    }
  }
  await deps.store.alerting.markQueued(queued, deps.clock.now());
}
