import type { Store } from '../../db/store.ts';
import type { PhonePolicy } from '../../delivery/delivery.ts';
import { phoneWebhookUrls } from '../../delivery/phone-delivery.ts';
import { recordFallback } from '../../engine/alert-events.ts';
import { queueDeliveries } from '../../jobs/deliver-alert.job.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Clock } from '../../lib/clock.ts';
import { EMPTY_TWIML, gatherReplyTwiml } from '../../notify/alert-phone.ts';
import { TWILIO_UNSUBSCRIBED } from '../../notify/twilio.ts';
import type { FastifyBaseLogger } from 'fastify';

/** Twilio's form parameters, as its webhooks post them. */
export type TwilioParams = Record<string, string | string[]>;

const one = (params: TwilioParams, name: string): string => {
  const value = params[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};

/** Twilio's default opt-out and opt-in keywords (it answers them itself; Vigil records them). */
export const OPT_OUT_KEYWORDS = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'OPTOUT',
  'REVOKE',
];
export const OPT_IN_KEYWORDS = ['START', 'YES', 'UNSTOP'];

const UNANSWERED: Record<string, string> = {
  busy: 'The line was busy',
  'no-answer': 'Nobody answered',
  failed: 'The call could not be connected',
  canceled: 'The call was cancelled',
};

/**
 * What Twilio reports back: call and SMS outcomes, the key pressed on an alert call, and texts people send to
 * Vigil's number (STOP and START). Every change is conditional on the delivery still waiting on that very
 * call or message, so a callback Twilio repeats, or one that arrives late, changes nothing.
 */
export function createPhoneEventService(deps: {
  store: Store;
  clock: Clock;
  queue: JobQueue;
  log: FastifyBaseLogger;
  publicUrl: string;
  policy: PhonePolicy;
}) {
  const { store, clock, policy } = deps;

  /** Ends a delivery that did not reach the person and hands its fallback (SMS, then email) to the workers. */
  async function fallBack(deliveryId: string): Promise<void> {
    const delivery = await store.alerting.findToSend(deliveryId);
    if (!delivery) return;
    // Acknowledged or resolved meanwhile: someone saw it, nothing more needs to reach them.
    if (delivery.event !== 'resolved' && delivery.incidentState !== 'open') return;
    const ids = await store.transaction((tx) => recordFallback(tx, delivery, clock.now()));
    await queueDeliveries(deps, ids);
  }

  return {
    async callStatus(deliveryId: string, params: TwilioParams): Promise<void> {
      const delivery = await store.phone.context(deliveryId);
      if (!delivery || delivery.channel !== 'call') return;
      const sid = one(params, 'CallSid');
      const status = one(params, 'CallStatus');
      const now = clock.now();
      // Only an answered call counts: in-progress when picked up, completed when it ended after that.
      if (status === 'in-progress' || status === 'completed') {
        await store.phone.markDelivered(deliveryId, sid, now);
        return;
      }
      const why = UNANSWERED[status];
      if (!why) return;
      const tries = await store.phone.providerTries(deliveryId, sid);
      if (tries < policy.callTries && delivery.incidentState === 'open') {
        const minutes = Math.max(1, Math.round(policy.retryPauseSeconds / 60));
        const again = `${why} (call ${tries} of ${policy.callTries}); calling again in ${minutes} min.`;
        if (await store.phone.markNotReached(deliveryId, sid, 'pending', again, now)) {
          await queueDeliveries(deps, [deliveryId], policy.retryPauseSeconds);
        }
        return;
      }
      const final =
        delivery.incidentState === 'open'
          ? `${why}: ${tries} ${tries === 1 ? 'call' : 'calls'} went unanswered, so an SMS goes instead.`
          : `${why}; the alert was ${delivery.incidentState} meanwhile, so it was not tried again.`;
      if (await store.phone.markNotReached(deliveryId, sid, 'unanswered', final, now))
        await fallBack(deliveryId);
    },

    async messageStatus(deliveryId: string, params: TwilioParams): Promise<void> {
      const delivery = await store.phone.context(deliveryId);
      if (!delivery || delivery.channel !== 'sms') return;
      const sid = one(params, 'MessageSid') || one(params, 'SmsSid');
      const status = one(params, 'MessageStatus') || one(params, 'SmsStatus');
      const now = clock.now();
      if (status === 'delivered') {
        await store.phone.markDelivered(deliveryId, sid, now);
        return;
      }
      if (status !== 'undelivered' && status !== 'failed') return;
      const code = Number(one(params, 'ErrorCode')) || null;
      if (code === TWILIO_UNSUBSCRIBED) await store.phone.optOut(delivery.recipient, now);
      const error = `The phone network did not deliver this SMS${code ? ` (Twilio error ${code})` : ''}, so an email goes instead.`;
      if (await store.phone.markNotReached(deliveryId, sid, 'failed', error, now)) await fallBack(deliveryId);
    },

    /** The key pressed during an alert call: 1 acknowledges. Answers the TwiML the call continues with. */
    async gather(deliveryId: string, params: TwilioParams): Promise<string> {
      const delivery = await store.phone.context(deliveryId);
      if (!delivery || delivery.channel !== 'call') return EMPTY_TWIML;
      const now = clock.now();
      const gatherUrl = phoneWebhookUrls(deps.publicUrl, deliveryId).gather;
      // A key press proves the call was answered, even before its status callback comes.
      await store.phone.markDelivered(deliveryId, one(params, 'CallSid'), now);
      if (one(params, 'Digits') !== '1')
        return gatherReplyTwiml(delivery.languageCode, 'other-key', gatherUrl);
      if (delivery.incidentState === 'resolved')
        return gatherReplyTwiml(delivery.languageCode, 'closed', gatherUrl);
      await store.phone.markAcknowledged(deliveryId, one(params, 'CallSid'), now);
      if (delivery.incidentState === 'open') {
        await store.incidents.acknowledge(delivery.incidentId, now);
        deps.log.info({ incidentId: delivery.incidentId, deliveryId }, 'alert acknowledged by a key press');
      }
      return gatherReplyTwiml(delivery.languageCode, 'acknowledged', gatherUrl);
    },

    /** A text to Vigil's number. Twilio itself confirms STOP and START with one reply, so Vigil adds none. */
    async inboundSms(params: TwilioParams): Promise<string> {
      const from = one(params, 'From');
      const keyword = one(params, 'Body').trim().toUpperCase();
      if (OPT_OUT_KEYWORDS.includes(keyword)) {
        await store.phone.optOut(from, clock.now());
        deps.log.info({ from }, 'number replied STOP: no more SMS to it');
      } else if (OPT_IN_KEYWORDS.includes(keyword)) {
        await store.phone.optIn(from);
        deps.log.info({ from }, 'number replied START: SMS to it resume');
      }
      return EMPTY_TWIML;
    },
  };
}
export type PhoneEventService = ReturnType<typeof createPhoneEventService>;
