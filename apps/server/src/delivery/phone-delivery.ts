import type { DeliveryToSend } from '../engine/alert.repository.ts';
import { recordFallback } from '../engine/alert-events.ts';
import { monthOf, type PhoneChannel } from '../engine/phone.repository.ts';
import { addMs, type Clock } from '../lib/clock.ts';
import { effectivePlan, NO_PLAN } from '../modules/plans/plan-catalogue.ts';
import { alertCallTwiml, alertSms } from '../notify/alert-phone.ts';
import { quotaEmail } from '../notify/quota-email.ts';
import { TWILIO_UNSUBSCRIBED, TwilioError, type TwilioResource } from '../notify/twilio.ts';
import { DeliveryBusyError, type DeliverDeps, type DeliveryAttempt } from './delivery.ts';

/** Where Twilio reports on a delivery: its status callbacks and the key press of a call. */
export const phoneWebhookUrls = (publicUrl: string, deliveryId: string) => ({
  callStatus: `${publicUrl}/webhooks/twilio/call-status?delivery=${deliveryId}`,
  messageStatus: `${publicUrl}/webhooks/twilio/message-status?delivery=${deliveryId}`,
  gather: `${publicUrl}/webhooks/twilio/gather?delivery=${deliveryId}`,
});

const dateOf = (date: Date) => date.toISOString().slice(0, 10);

/** Why this SMS or call cannot go out at all; null when it may. */
async function refusalOf(delivery: DeliveryToSend, deps: DeliverDeps, now: Date): Promise<string | null> {
  if (!deps.phone) return 'SMS and calls are not set up on this Vigil server, so this alert went by email.';
  const plan = effectivePlan(delivery, now);
  const channel = delivery.channel as PhoneChannel;
  if (!plan.channels.includes(channel)) {
    const which =
      plan === NO_PLAN ? 'No plan runs (the Free period ended), so there are' : `The ${plan.name} plan has`;
    return `${which} no ${channel === 'sms' ? 'SMS' : 'call'} alerts, so this alert went by email.`;
  }
  if (channel === 'sms') {
    const stopped = (await deps.store.phone.optedOut([delivery.recipient])).get(delivery.recipient);
    if (stopped) {
      return `This number replied STOP on ${dateOf(stopped)}: no texts go to it until it replies START to ${deps.phone.fromNumber}.`;
    }
  }
  return null;
}

/**
 * Sends one SMS or places one call of an alert, once per delivery even when a worker dies mid-send: a try that
 * takes over a dead worker's first asks Twilio whether that worker's message or call went out, and adopts it.
 * Twilio's 429, 5xx and timeouts are retried with the job's backoff; other refusals are final. What cannot
 * reach the person (no provider, plan, STOP, quota, refusal) falls back: a call to SMS, an SMS to email.
 * Whether the SMS arrived or the call was answered comes later, from Twilio's status callbacks.
 */
export async function deliverByPhone(
  delivery: DeliveryToSend,
  deps: DeliverDeps,
  attempt: DeliveryAttempt,
): Promise<void> {
  const { store, clock } = deps;
  const channel = delivery.channel as PhoneChannel;
  const refusal = await refusalOf(delivery, deps, clock.now());
  if (refusal) {
    await notReached(delivery, deps, { attemptId: null, outcome: 'skipped', error: refusal });
    return;
  }
  const phone = deps.phone!;

  const startedAt = clock.now();
  const taken = await store.alerting.startAttempt(delivery.id, startedAt, addMs(startedAt, attempt.leaseMs));
  if (!taken) {
    const now = await store.alerting.findToSend(delivery.id);
    if (now?.status === 'sending') throw new DeliveryBusyError(delivery.id);
    return;
  }
  const { attemptId, inDoubtSince } = taken;
  const month = monthOf(startedAt);
  if (inDoubtSince) {
    const lost = await findLostSend(delivery, deps, inDoubtSince);
    if (lost) {
      await store.alerting.finishAttempt({
        deliveryId: delivery.id,
        attemptId,
        outcome: 'sent',
        error: null,
        providerMessageId: lost.sid,
        now: clock.now(),
      });
      deps.log.info({ deliveryId: delivery.id, sid: lost.sid }, 'adopted the send of a worker that stopped');
      return;
    }
    // The stopped worker counted this message against the quota already (it reserves before sending).
  } else {
    const plan = effectivePlan(delivery, startedAt);
    const limit = channel === 'sms' ? plan.smsPerMonth : plan.callsPerMonth;
    if (!(await store.phone.reserve(delivery.userId, month, channel, limit))) {
      await warnQuotaOnce(delivery, deps, { month, limit, planName: plan.name });
      const noun = channel === 'sms' ? 'SMS' : 'calls';
      await notReached(delivery, deps, {
        attemptId,
        outcome: 'skipped',
        error: `This month’s ${limit} ${noun} of the ${plan.name} plan are used up, so this alert went by email.`,
      });
      return;
    }
  }

  const urls = phoneWebhookUrls(deps.publicUrl, delivery.id);
  let resource: TwilioResource;
  try {
    if (channel === 'sms') {
      const ackLink = delivery.event === 'resolved' ? null : await deps.ackLink(delivery.incidentId);
      resource = await phone.sendSms({
        to: delivery.recipient,
        body: alertSms({ ...phoneAlertOf(delivery), ackLink }),
        statusCallback: urls.messageStatus,
      });
    } else {
      resource = await phone.startCall({
        to: delivery.recipient,
        twiml: alertCallTwiml({ ...phoneAlertOf(delivery), gatherUrl: urls.gather }),
        statusCallback: urls.callStatus,
        timeoutSeconds: deps.phonePolicy.ringSeconds,
      });
    }
  } catch (error) {
    await store.phone.release(delivery.userId, month, channel);
    const reason = (error as Error).message ?? String(error);
    if (error instanceof TwilioError && error.code === TWILIO_UNSUBSCRIBED) {
      // Twilio knows of a STOP that Vigil missed: remember it, so the page says why texts stopped.
      await store.phone.optOut(delivery.recipient, clock.now());
      await notReached(delivery, deps, {
        attemptId,
        outcome: 'skipped',
        error: `This number replied STOP: no texts go to it until it replies START to ${phone.fromNumber}.`,
      });
      return;
    }
    const transient = !(error instanceof TwilioError) || error.transient;
    if (transient && attempt.retryCount < attempt.retryLimit) {
      await store.alerting.finishAttempt({
        deliveryId: delivery.id,
        attemptId,
        outcome: 'retry',
        error: reason,
        now: clock.now(),
      });
      throw error;
    }
    deps.log.warn({ err: error, deliveryId: delivery.id }, 'Twilio refused an alert; not retried');
    await notReached(delivery, deps, { attemptId, outcome: 'failed', error: reason });
    return;
  }
  await store.alerting.finishAttempt({
    deliveryId: delivery.id,
    attemptId,
    outcome: 'sent',
    error: null,
    providerMessageId: resource.sid,
    now: clock.now(),
  });
}

export function phoneAlertOf(delivery: DeliveryToSend) {
  return {
    event: delivery.event,
    monitorName: delivery.monitorName,
    summary: delivery.summary,
    languageCode: delivery.languageCode,
  };
}

/**
 * A message or call to the recipient that Twilio created after the dead worker's try began and that no try
 * recorded: that worker's send. (Twilio's dates have whole seconds, hence the second of slack.)
 */
async function findLostSend(
  delivery: DeliveryToSend,
  deps: DeliverDeps,
  since: Date,
): Promise<TwilioResource | undefined> {
  const found = await deps.phone!.recent(
    delivery.channel as PhoneChannel,
    delivery.recipient,
    addMs(since, -1000),
  );
  const known = await deps.store.phone.knownProviderIds(found.map((resource) => resource.sid));
  return found.filter((resource) => !known.has(resource.sid)).at(-1);
}

/** Ends the delivery as skipped or failed and records the next channel's delivery. */
export async function notReached(
  delivery: DeliveryToSend,
  deps: Pick<DeliverDeps, 'store' | 'clock' | 'queueDeliveries'>,
  end: { attemptId: number | null; outcome: 'skipped' | 'failed'; error: string },
): Promise<void> {
  const { store, clock } = deps;
  await store.alerting.finishAttempt({ deliveryId: delivery.id, ...end, now: clock.now() });
  const fallbacks = await store.transaction((tx) => recordFallback(tx, delivery, clock.now()));
  await deps.queueDeliveries(fallbacks);
}

async function warnQuotaOnce(
  delivery: DeliveryToSend,
  deps: Pick<DeliverDeps, 'store' | 'clock' | 'queueEmail' | 'publicUrl'>,
  quota: { month: string; limit: number; planName: string },
): Promise<void> {
  const channel = delivery.channel as PhoneChannel;
  if (!(await deps.store.phone.claimQuotaWarning(delivery.userId, quota.month, channel, deps.clock.now())))
    return;
  await deps.queueEmail(
    quotaEmail({
      to: delivery.userEmail,
      channel,
      planName: quota.planName,
      limit: quota.limit,
      resetsOn: firstOfNextMonth(deps.clock),
      pricingUrl: `${deps.publicUrl}/app/pricing`,
    }),
  );
}

function firstOfNextMonth(clock: Clock): Date {
  const now = clock.now();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}
