import type { DeliveryToSend } from '../engine/alert.repository.ts';
import { addMs } from '../lib/clock.ts';
import { conditionLabel, describeTarget } from '../modules/monitors/service-catalogue.ts';
import { alertEmail } from '../notify/alert-email.ts';
import { isTransientEmailError, stableMessageId } from '../notify/email.ts';
import { DeliveryBusyError, type DeliverDeps, type DeliveryAttempt } from './delivery.ts';
import { deliverByPhone } from './phone-delivery.ts';

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
  attempt: DeliveryAttempt,
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
    messageId: stableMessageId('delivery', deliveryId, deps.publicUrl),
  });

  const startedAt = clock.now();
  const taken = await store.alerting.startAttempt(deliveryId, startedAt, addMs(startedAt, attempt.leaseMs));
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
