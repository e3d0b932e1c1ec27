import type { JobAttempt, WorkerDeps } from '../jobs/job.ts';
import { addMs } from '../lib/clock.ts';
import { conditionLabel } from '../modules/monitors/service-catalogue.ts';
import { alertEmail } from '../notify/alert-email.ts';
import { isTransientEmailError } from '../notify/email.ts';

/**
 * How long a worker owns a delivery it is sending. It matches the job's expiry (deliver-alert.job.ts) and
 * is longer than the email sender's own time limits, so a live worker finishes (or gives up) before anyone
 * else may take the delivery over, and a dead worker's delivery is free again when its job is retried.
 */
export const DELIVERY_LEASE_MS = 20_000;

/** Thrown when another worker holds the delivery: the job is retried and then finds it sent. */
export class DeliveryBusyError extends Error {
  constructor(id: string) {
    super(`Delivery ${id} is being sent by another worker`);
    this.name = 'DeliveryBusyError';
  }
}

type DeliverDeps = Pick<WorkerDeps, 'store' | 'clock' | 'email' | 'ackLink' | 'publicUrl' | 'log'>;

/**
 * Sends one alert delivery, at most once: a delivery already sent, given up or skipped is left alone, and
 * one being sent by a live worker is waited for. Alerts of a paused monitor, and reminders of an incident
 * acknowledged or resolved before they went out, are skipped. SMTP 4xx, timeouts and connection failures are
 * retried (the job's backoff) until the last try; any other refusal fails the delivery at once.
 */
export async function deliverAlert(
  deliveryId: string,
  deps: DeliverDeps,
  attempt: JobAttempt,
): Promise<void> {
  const { store, clock } = deps;
  const delivery = await store.alerting.findToSend(deliveryId);
  if (!delivery || !['pending', 'sending'].includes(delivery.status)) return;

  const skip = skipReason(delivery);
  if (skip && delivery.status === 'pending') {
    await store.alerting.finishAttempt({
      deliveryId,
      attemptId: null,
      outcome: 'skipped',
      error: skip,
      now: clock.now(),
    });
    return;
  }
  const alerting = delivery.event !== 'resolved';
  const ackLink = alerting ? await deps.ackLink(delivery.incidentId) : null;
  const message = alertEmail({
    to: delivery.recipient,
    event: delivery.event,
    monitorName: delivery.monitorName,
    target: (delivery.target as { url?: string } | null)?.url ?? '',
    conditionLabel: conditionLabel(delivery.service, delivery.conditionKey),
    summary: delivery.summary,
    openedAt: delivery.openedAt,
    resolvedAt: delivery.resolvedAt,
    ackLink,
    alertsUrl: `${deps.publicUrl}/app/alerts`,
  });

  const startedAt = clock.now();
  const attemptId = await store.alerting.startAttempt(
    deliveryId,
    startedAt,
    addMs(startedAt, DELIVERY_LEASE_MS),
  );
  if (attemptId === null) {
    const now = await store.alerting.findToSend(deliveryId);
    if (now?.status === 'sending') throw new DeliveryBusyError(deliveryId);
    return;
  }
  try {
    const sent = await deps.email.send(message);
    await store.alerting.finishAttempt({
      deliveryId,
      attemptId,
      outcome: 'sent',
      error: null,
      providerMessageId: sent.messageId,
      now: clock.now(),
    });
  } catch (error) {
    const reason = (error as Error).message ?? String(error);
    const retry = isTransientEmailError(error) && attempt.retryCount < attempt.retryLimit;
    await store.alerting.finishAttempt({
      deliveryId,
      attemptId,
      outcome: retry ? 'retry' : 'failed',
      error: reason,
      now: clock.now(),
    });
    if (retry) throw error;
    deps.log.warn({ err: error, deliveryId }, 'alert email refused; not retried');
  }
}

function skipReason(delivery: { paused: boolean; event: string; incidentState: string }): string | null {
  if (delivery.paused) return 'The monitor was paused before this alert went out.';
  if (delivery.event.startsWith('repeat-') && delivery.incidentState !== 'open') {
    return `The incident was ${delivery.incidentState} before this reminder went out.`;
  }
  return null;
}
