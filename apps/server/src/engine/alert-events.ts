import type { Repositories } from '../db/store.ts';
import type { DeliveryToSend } from './alert.repository.ts';

/** The spec's three groups, as the monitor stores them. */
interface ChannelGroup {
  checked?: boolean;
  email?: string;
  phone?: string;
}
interface StoredAlertSettings {
  callSettings?: ChannelGroup;
  smsSettings?: ChannelGroup;
  emailSettings?: ChannelGroup;
}

export const UNVERIFIED_EMAIL =
  'This email address is not verified, so no alert goes to it. Verify it on the monitor’s page to receive alerts.';
export const UNVERIFIED_PHONE =
  'This number is not verified, so no call or SMS goes to it. Verify it on the monitor’s page to receive alerts.';

/** A verified phone number proves itself once for both phone channels. */
export const PHONE_CONTACT = 'phone';

interface Wanted {
  channel: 'email' | 'sms' | 'call';
  recipient: string;
  contactChannel: string;
}

function wantedOf(settings: StoredAlertSettings | null, event: string): Wanted[] {
  const wanted: Wanted[] = [];
  const call = settings?.callSettings;
  // Recovery notices go by SMS and email only: nobody is woken by a call to hear that all is well.
  if (call?.checked && call.phone && event !== 'resolved') {
    wanted.push({ channel: 'call', recipient: call.phone, contactChannel: PHONE_CONTACT });
  }
  const sms = settings?.smsSettings;
  if (sms?.checked && sms.phone)
    wanted.push({ channel: 'sms', recipient: sms.phone, contactChannel: PHONE_CONTACT });
  const email = settings?.emailSettings;
  const address = email?.checked ? email.email?.trim().toLowerCase() : undefined;
  if (address) wanted.push({ channel: 'email', recipient: address, contactChannel: 'email' });
  return wanted;
}

/**
 * Records one incident event's deliveries: one per ticked channel and recipient. A contact the user has not
 * verified gets a 'skipped' delivery saying so, so the alerts page shows why nothing arrived. Returns the ids
 * of the deliveries to hand to the job engine after the commit.
 */
export async function recordEventDeliveries(
  tx: Repositories,
  event: { incidentId: string; event: string; userId: string; alertSettings: unknown; now: Date },
): Promise<string[]> {
  const wanted = wantedOf(event.alertSettings as StoredAlertSettings | null, event.event);
  if (wanted.length === 0) return [];
  const verified = new Set<string>();
  for (const contactChannel of new Set(wanted.map((w) => w.contactChannel))) {
    const addresses = wanted.filter((w) => w.contactChannel === contactChannel).map((w) => w.recipient);
    for (const address of await tx.alerting.verifiedAddresses(event.userId, contactChannel, addresses)) {
      verified.add(`${contactChannel}:${address}`);
    }
  }
  return tx.alerting.insertDeliveries(
    wanted.map((w) => {
      const ok = verified.has(`${w.contactChannel}:${w.recipient}`);
      return {
        incidentId: event.incidentId,
        event: event.event,
        channel: w.channel,
        recipient: w.recipient,
        status: ok ? 'pending' : 'skipped',
        lastError: ok ? null : w.channel === 'email' ? UNVERIFIED_EMAIL : UNVERIFIED_PHONE,
      };
    }),
    event.now,
  );
}

/**
 * The next channel when a phone delivery cannot reach the person: a call falls back to an SMS to the same
 * number, an SMS to email (the monitor's verified alert address, else the account's own). The delivery key
 * (incident, event, channel, recipient) keeps a fallback from repeating a message that already went out.
 * Returns the ids of new pending deliveries to queue after the commit.
 */
export async function recordFallback(
  tx: Repositories,
  delivery: DeliveryToSend,
  now: Date,
): Promise<string[]> {
  if (delivery.channel === 'call') {
    return tx.alerting.insertDeliveries(
      [
        {
          incidentId: delivery.incidentId,
          event: delivery.event,
          channel: 'sms',
          recipient: delivery.recipient,
          status: 'pending',
          lastError: null,
          fallbackFor: 'call',
        },
      ],
      now,
    );
  }
  if (delivery.channel !== 'sms') return [];
  const settings = delivery.alertSettings as StoredAlertSettings | null;
  const wanted = settings?.emailSettings?.checked
    ? settings.emailSettings.email?.trim().toLowerCase()
    : undefined;
  const verified = wanted
    ? await tx.alerting.verifiedAddresses(delivery.userId, 'email', [wanted])
    : new Set();
  const to = wanted && verified.has(wanted) ? wanted : delivery.userEmail;
  return tx.alerting.insertDeliveries(
    [
      {
        incidentId: delivery.incidentId,
        event: delivery.event,
        channel: 'email',
        recipient: to,
        status: 'pending',
        lastError: null,
        fallbackFor: delivery.fallbackFor ?? 'sms',
      },
    ],
    now,
  );
}
