import { sql, type SQL } from 'drizzle-orm';
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

    /**
     * Tries of a delivery the provider took (calls placed), to bound the calls of an unanswered alert; with
     * `including`, a resource whose callback is at hand counts even when its try has not recorded it yet.
     */
    async providerTries(deliveryId: string, including?: string): Promise<number> {
      const rows = await rowsOf<{ n: number }>(
        db,
        sql`select count(*)::int as n from (
              select provider_id from delivery_attempts
              where delivery_id = ${deliveryId}::uuid and provider_id is not null
              union select ${including ?? null}::text
            ) placed where provider_id is not null`,
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

    /** The provider's confirmation (SMS delivered, call answered): see `applyReceipt`. */
    async markDelivered(deliveryId: string, providerId: string, now: Date): Promise<boolean> {
      return applyReceipt(db, deliveryId, providerId, now, sql`status = 'delivered', last_error = null`);
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
     * final state (`unanswered`, `failed`). See `applyReceipt`.
     */
    async markNotReached(
      deliveryId: string,
      providerId: string,
      status: 'pending' | 'unanswered' | 'failed',
      error: string,
      now: Date,
    ): Promise<boolean> {
      return applyReceipt(
        db,
        deliveryId,
        providerId,
        now,
        sql`status = ${status}, last_error = ${error},
          queued_at = case when ${status} = 'pending' then ${at(now)} else queued_at end`,
      );
    },
  };
}
export type PhoneRepository = ReturnType<typeof createPhoneRepository>;

/**
 * Moves a delivery by the provider's receipt for one of its resources (`change`: the new status and error), when
 * the delivery waits on that resource: it is `sent` with that id, or still `sending` with the id on none of its
 * tries. The second is a receipt that came before the sending job wrote what the provider answered. The provider
 * does not send it again, so it is kept: the id goes on the delivery and on its open try, and the try's outcome
 * then leaves the delivery as the receipt set it (`finishAttempt`). False for a late or repeated callback, or
 * one about an earlier call of the delivery, so nothing moves twice.
 */
async function applyReceipt(
  db: Db,
  deliveryId: string,
  providerId: string,
  now: Date,
  change: SQL,
): Promise<boolean> {
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`with moved as (
          update alert_deliveries set ${change}, updated_at = ${at(now)}, provider_message_id = ${providerId},
            lease_until = null, sent_at = case when status = 'sending' then ${at(now)} else sent_at end
          where id = ${deliveryId}::uuid
            and ((status = 'sent' and provider_message_id = ${providerId})
              or (status = 'sending' and not exists (select 1 from delivery_attempts
                where delivery_id = ${deliveryId}::uuid and provider_id = ${providerId})))
          returning id
        ),
        tried as (
          update delivery_attempts set provider_id = ${providerId}
          where delivery_id in (select id from moved) and finished_at is null and provider_id is null
        )
        select id from moved`,
  );
  return rows.length === 1;
}
