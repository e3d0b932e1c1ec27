import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { at, rowsOf } from '../db/raw-sql.ts';

export type PhoneChannel = 'sms' | 'call';

/** The calendar month (UTC) quotas count in, as 'YYYY-MM'. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** Where a phone delivery stands once the provider took it: what its callbacks may move it to. */
export interface PhoneDeliveryContext {
  id: string;
  incidentId: string;
  incidentState: string;
  event: string;
  channel: string;
  recipient: string;
  status: string;
  providerMessageId: string | null;
  languageCode: string;
  userId: string;
}

/** STOP replies, monthly call/SMS counts, and the phone deliveries' callbacks. */
export function createPhoneRepository(db: Db) {
  return {
    /** Records a STOP; true when the number was not opted out before. */
    async optOut(phone: string, now: Date): Promise<boolean> {
      const rows = await rowsOf<{ phone: string }>(
        db,
        sql`insert into sms_opt_outs (phone, opted_out_at) values (${phone}, ${at(now)})
            on conflict (phone) do nothing returning phone`,
      );
      return rows.length === 1;
    },

    /** Records a START; true when the number was opted out. */
    async optIn(phone: string): Promise<boolean> {
      const rows = await rowsOf<{ phone: string }>(
        db,
        sql`delete from sms_opt_outs where phone = ${phone} returning phone`,
      );
      return rows.length === 1;
    },

    /** When each of `phones` replied STOP, for those that did. */
    async optedOut(phones: string[]): Promise<Map<string, Date>> {
      if (phones.length === 0) return new Map();
      const rows = await rowsOf<{ phone: string; at_ms: number }>(
        db,
        sql`select phone, (extract(epoch from opted_out_at) * 1000)::float8 as at_ms from sms_opt_outs
            where phone in (${sql.join(
              phones.map((phone) => sql`${phone}`),
              sql`, `,
            )})`,
      );
      return new Map(rows.map((row) => [row.phone, new Date(Math.round(row.at_ms))]));
    },

    /**
     * Counts one call or SMS against the month's quota when there is room; false when the quota is used up.
     * One statement, so two workers can never both take the last one.
     */
    async reserve(userId: string, month: string, channel: PhoneChannel, limit: number): Promise<boolean> {
      if (limit <= 0) return false;
      const rows = await rowsOf<{ used: number }>(
        db,
        sql`insert into phone_usage (user_id, month, channel, used) values (${userId}::uuid, ${month}, ${channel}, 1)
            on conflict (user_id, month, channel) do update set used = phone_usage.used + 1
              where phone_usage.used < ${limit}
            returning used`,
      );
      return rows.length === 1;
    },

    /** Gives back a reservation the provider never took. */
    async release(userId: string, month: string, channel: PhoneChannel): Promise<void> {
      await db.execute(
        sql`update phone_usage set used = greatest(used - 1, 0)
            where user_id = ${userId}::uuid and month = ${month} and channel = ${channel}`,
      );
    },

    async usage(userId: string, month: string): Promise<Record<PhoneChannel, number>> {
      const rows = await rowsOf<{ channel: PhoneChannel; used: number }>(
        db,
        sql`select channel, used from phone_usage where user_id = ${userId}::uuid and month = ${month}`,
      );
      const usage: Record<PhoneChannel, number> = { sms: 0, call: 0 };
      for (const row of rows) usage[row.channel] = row.used;
      return usage;
    },

    /** True the first time it is called for the user, month and channel: the one quota warning to send. */
    async claimQuotaWarning(
      userId: string,
      month: string,
      channel: PhoneChannel,
      now: Date,
    ): Promise<boolean> {
      const rows = await rowsOf<{ used: number }>(
        db,
        sql`insert into phone_usage (user_id, month, channel, used, warned_at)
            values (${userId}::uuid, ${month}, ${channel}, 0, ${at(now)})
            on conflict (user_id, month, channel) do update set warned_at = ${at(now)}
              where phone_usage.warned_at is null
            returning used`,
      );
      return rows.length === 1;
    },

    /** Provider ids already recorded on some try: a resource found among them is not a lost send. */
    async knownProviderIds(ids: string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await rowsOf<{ provider_id: string }>(
        db,
        sql`select provider_id from delivery_attempts where provider_id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
      return new Set(rows.map((row) => row.provider_id));
    },

    /** Tries of a delivery the provider took (calls placed), to bound the calls of an unanswered alert. */
    async providerTries(deliveryId: string): Promise<number> {
      const rows = await rowsOf<{ n: number }>(
        db,
        sql`select count(*)::int as n from delivery_attempts
            where delivery_id = ${deliveryId}::uuid and provider_id is not null`,
      );
      return rows[0]?.n ?? 0;
    },

    async context(deliveryId: string): Promise<PhoneDeliveryContext | undefined> {
      const rows = await rowsOf<{
        id: string;
        incident_id: string;
        incident_state: string;
        event: string;
        channel: string;
        recipient: string;
        status: string;
        provider_message_id: string | null;
        language_code: string;
        user_id: string;
      }>(
        db,
        sql`select d.id, d.incident_id, i.state as incident_state, d.event, d.channel, d.recipient, d.status,
              d.provider_message_id, m.language_code, i.user_id
            from alert_deliveries d
              join incidents i on i.id = d.incident_id
              join monitors m on m.id = i.monitor_id
            where d.id = ${deliveryId}::uuid`,
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        id: row.id,
        incidentId: row.incident_id,
        incidentState: row.incident_state,
        event: row.event,
        channel: row.channel,
        recipient: row.recipient,
        status: row.status,
        providerMessageId: row.provider_message_id,
        languageCode: row.language_code,
        userId: row.user_id,
      };
    },

    /**
     * The provider's confirmation (SMS delivered, call answered) for the resource the delivery is waiting on, or
     * for one it is still recording the send of: a receipt can come before the sending job has written what the
     * provider answered, and the provider does not send it again (`finishAttempt` then keeps it delivered). False
     * when it is not waiting on that resource (a late or repeated callback), so nothing moves twice.
     */
    async markDelivered(deliveryId: string, providerId: string, now: Date): Promise<boolean> {
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`update alert_deliveries set status = 'delivered', last_error = null, updated_at = ${at(now)},
              provider_message_id = ${providerId}
            where id = ${deliveryId}::uuid
              and ((provider_message_id = ${providerId} and status = 'sent')
                or (provider_message_id is null and status = 'sending'))
            returning id`,
      );
      return rows.length === 1;
    },

    /** A call answered with 1 pressed: it acknowledged its alert (a call already counted delivered included). */
    async markAcknowledged(deliveryId: string, providerId: string, now: Date): Promise<boolean> {
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`update alert_deliveries set status = 'acknowledged', last_error = null, updated_at = ${at(now)}
            where id = ${deliveryId}::uuid and provider_message_id = ${providerId}
              and status in ('sent', 'delivered')
            returning id`,
      );
      return rows.length === 1;
    },

    /**
     * The resource did not reach the person: back to pending for another try (a call not answered), or to its
     * final state (`unanswered`, `failed`). False for a late or repeated callback.
     */
    async markNotReached(
      deliveryId: string,
      providerId: string,
      status: 'pending' | 'unanswered' | 'failed',
      error: string,
      now: Date,
    ): Promise<boolean> {
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`update alert_deliveries set status = ${status}, last_error = ${error}, updated_at = ${at(now)},
              queued_at = case when ${status} = 'pending' then ${at(now)} else queued_at end
            where id = ${deliveryId}::uuid and provider_message_id = ${providerId} and status = 'sent'
            returning id`,
      );
      return rows.length === 1;
    },
  };
}
export type PhoneRepository = ReturnType<typeof createPhoneRepository>;
