import type { JobAttempt, WorkerDeps } from '../jobs/job.ts';
import { addMs } from '../lib/clock.ts';
import { conditionLabel, describeTarget } from '../modules/monitors/service-catalogue.ts';
import { alertEmail } from '../notify/alert-email.ts';
import { isTransientEmailError } from '../notify/email.ts';
import { deliverAlertJob } from '../jobs/deliver-alert.job.ts';
import type { DeliveryToSend } from './alert.repository.ts';
import { deliverByPhone } from './phone-delivery.ts';

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

export type DeliverDeps = Pick<
  WorkerDeps,
  'store' | 'clock' | 'email' | 'phone' | 'queue' | 'ackLink' | 'publicUrl' | 'log' | 'phonePolicy'
>;

/**
 * Sends one alert delivery, at most once: a delivery already sent, given up or skipped is left alone, and
 * one being sent by a live worker is waited for. Alerts of a paused monitor, and reminders (or call retries
 * and fallbacks) of an incident acknowledged or resolved before they went out, are skipped. SMTP 4xx,
 * timeouts and connection failures are retried (the job's backoff) until the last try; any other refusal
 * fails the delivery at once. SMS and calls go through `deliverByPhone`.
 */
export async function deliverAlert(
  deliveryId: string,
  deps: DeliverDeps,
  attempt: JobAttempt,
): Promise<void> {
  const { store, clock } = deps;
  const delivery = await store.alerting.findToSend(deliveryId);
  if (!delivery || !['pending', 'sending'].includes(delivery.status)) return;

  const callsPlaced = delivery.channel === 'call' ? await store.phone.providerTries(deliveryId) : 0;
  const skip = skipReason(delivery, callsPlaced);
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
  if (delivery.channel !== 'email') {
    await deliverByPhone(delivery, deps, attempt);
    return;
  }
  const alerting = delivery.event !== 'resolved';
  const ackLink = alerting ? await deps.ackLink(delivery.incidentId) : null;
  const message = alertEmail({
    to: delivery.recipient,
    event: delivery.event,
    monitorName: delivery.monitorName,
    target: describeTarget(delivery.service, delivery.target),
    conditionLabel: conditionLabel(delivery.service, delivery.conditionKey),
    summary: delivery.summary,
    openedAt: delivery.openedAt,
    resolvedAt: delivery.resolvedAt,
    ackLink,
    alertsUrl: `${deps.publicUrl}/app/alerts`,
  });

  const startedAt = clock.now();
  const taken = await store.alerting.startAttempt(deliveryId, startedAt, addMs(startedAt, DELIVERY_LEASE_MS));
  const attemptId = taken?.attemptId ?? null;
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

export function skipReason(delivery: DeliveryToSend, attemptsSoFar: number): string | null {
  if (delivery.paused) return 'The monitor was paused before this alert went out.';
  if (delivery.event === 'resolved' || delivery.incidentState === 'open') return null;
  if (delivery.event.startsWith('repeat-')) {
    return `The incident was ${delivery.incidentState} before this reminder went out.`;
  }
  if (delivery.fallbackFor || (delivery.channel === 'call' && attemptsSoFar > 0)) {
    return `The incident was ${delivery.incidentState} before this went out.`;
  }
  return null;
}

/** Hands new deliveries (fallbacks, call retries) to the job engine; the engine's sweep catches any missed. */
export async function queueDeliveries(
  deps: Pick<DeliverDeps, 'queue' | 'store' | 'clock'> & { log: Pick<DeliverDeps['log'], 'error'> },
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
