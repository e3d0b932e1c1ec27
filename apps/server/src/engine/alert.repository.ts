import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { at, rowsOf } from '../db/raw-sql.ts';

const atOrNull = (date: Date | null) => (date ? at(date) : sql`null::timestamptz`);
const list = (items: SQL[]) => sql.join(items, sql`, `);

export interface NewDelivery {
  incidentId: string;
  event: string;
  channel: string;
  recipient: string;
  status: 'pending' | 'skipped';
  lastError: string | null;
  /** The channel whose delivery this one stands in for (an unanswered call, an SMS not delivered). */
  fallbackFor?: 'call' | 'sms' | null;
}

export interface RepeatRow {
  id: string;
  userId: string;
  state: 'open';
  alertCount: number;
  nextAlertAt: Date;
  repeatIntervalMinutes: number;
  alertSettings: unknown;
}

/** Everything an alert message says, read when it is sent. */
export interface DeliveryToSend {
  id: string;
  incidentId: string;
  event: string;
  channel: string;
  recipient: string;
  status: string;
  incidentState: string;
  conditionKey: string;
  summary: string;
  openedAt: Date;
  resolvedAt: Date | null;
  monitorId: string;
  monitorName: string;
  service: string;
  target: unknown;
  paused: boolean;
  languageCode: string;
  alertSettings: unknown;
  fallbackFor: 'call' | 'sms' | null;
  userId: string;
  userEmail: string;
  plan: string;
  planExpiresAt: number | null;
}

/** A try taken for sending; `inDoubtSince` is set when it takes over a try whose worker died mid-send. */
export interface TakenAttempt {
  attemptId: number;
  inDoubtSince: Date | null;
}

/** The engine's writes to incidents and alert deliveries, and the delivery job's. */
export function createAlertRepository(db: Db) {
  return {
    /**
     * Opens an incident; null when one is already unresolved for the monitor and condition (the partial
     * unique index), in which case nothing is alerted again.
     */
    async openIncident(incident: {
      monitorId: string;
      userId: string;
      conditionKey: string;
      summary: string;
      now: Date;
      nextAlertAt: Date | null;
    }): Promise<string | null> {
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`insert into incidents (monitor_id, user_id, condition_key, state, summary, opened_at, last_alert_at, next_alert_at, alert_count)
            values (${incident.monitorId}::uuid, ${incident.userId}::uuid, ${incident.conditionKey}, 'open',
              ${incident.summary}, ${at(incident.now)}, ${at(incident.now)}, ${atOrNull(incident.nextAlertAt)}, 1)
            on conflict (monitor_id, condition_key) where state <> 'resolved' do nothing
            returning id`,
      );
      return rows[0]?.id ?? null;
    },

    /** Resolves the unresolved incident of the monitor and condition; null when there is none. */
    async resolveIncident(monitorId: string, conditionKey: string, now: Date): Promise<string | null> {
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`update incidents set state = 'resolved', resolved_at = ${at(now)}, next_alert_at = null,
              resolved_by = 'check'
            where monitor_id = ${monitorId}::uuid and condition_key = ${conditionKey} and state <> 'resolved'
            returning id`,
      );
      return rows[0]?.id ?? null;
    },

    /** Open incidents of running monitors whose repeat alert is due, locked for this transaction. */
    async lockDueRepeats(now: Date, limit: number): Promise<RepeatRow[]> {
      const rows = await rowsOf<{
        id: string;
        user_id: string;
        alert_count: number;
        next_alert_ms: number;
        repeat_interval_minutes: number;
        alert_settings: unknown;
      }>(
        db,
        sql`select i.id, i.user_id, i.alert_count, (extract(epoch from i.next_alert_at) * 1000)::float8 as next_alert_ms,
              m.repeat_interval_minutes, m.alert_settings
            from incidents i join monitors m on m.id = i.monitor_id
            where i.state = 'open' and i.next_alert_at <= ${at(now)} and m.paused = false
            order by i.next_alert_at
            limit ${limit}
            for update of i skip locked`,
      );
      return rows.map((row) => ({
        id: row.id,
        userId: row.user_id,
        state: 'open',
        alertCount: row.alert_count,
        nextAlertAt: new Date(Math.round(row.next_alert_ms)),
        repeatIntervalMinutes: row.repeat_interval_minutes,
        alertSettings: row.alert_settings,
      }));
    },

    async recordRepeat(id: string, alertCount: number, nextAlertAt: Date | null, now: Date): Promise<void> {
      await db.execute(
        sql`update incidents set alert_count = ${alertCount}, last_alert_at = ${at(now)},
              next_alert_at = ${atOrNull(nextAlertAt)}
            where id = ${id}::uuid`,
      );
    },

    async stopRepeats(id: string): Promise<void> {
      await db.execute(sql`update incidents set next_alert_at = null where id = ${id}::uuid`);
    },

    /** Which of `addresses` the user proved they own on `channel`. */
    async verifiedAddresses(userId: string, channel: string, addresses: string[]): Promise<Set<string>> {
      if (addresses.length === 0) return new Set();
      const rows = await rowsOf<{ address: string }>(
        db,
        sql`select address from verified_contacts
            where user_id = ${userId}::uuid and channel = ${channel}
              and address in (${list(addresses.map((address) => sql`${address}`))})`,
      );
      return new Set(rows.map((row) => row.address));
    },

    /** Inserts deliveries once per (incident, event, channel, recipient); returns the new pending ones' ids. */
    async insertDeliveries(deliveries: NewDelivery[], now: Date): Promise<string[]> {
      if (deliveries.length === 0) return [];
      const values = deliveries.map(
        (d) =>
          sql`(${d.incidentId}::uuid, ${d.event}, ${d.channel}, ${d.recipient}, ${d.status}, ${d.lastError}::text, ${d.fallbackFor ?? null}::text, ${at(now)}, ${at(now)})`,
      );
      const rows = await rowsOf<{ id: string; status: string }>(
        db,
        sql`insert into alert_deliveries (incident_id, event, channel, recipient, status, last_error, fallback_for, created_at, updated_at)
            values ${list(values)}
            on conflict (incident_id, event, channel, recipient) do nothing
            returning id, status`,
      );
      return rows.filter((row) => row.status === 'pending').map((row) => row.id);
    },

    async markQueued(ids: string[], now: Date): Promise<void> {
      if (ids.length === 0) return;
      await db.execute(
        sql`update alert_deliveries set queued_at = ${at(now)}
            where id in (${list(ids.map((id) => sql`${id}::uuid`))})`,
      );
    },

    /** Pending deliveries whose job was never handed over (the process died right after the commit). */
    async unqueued(createdBefore: Date, limit: number): Promise<string[]> {
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`select id from alert_deliveries
            where queued_at is null and status = 'pending' and created_at < ${at(createdBefore)}
            order by created_at limit ${limit}`,
      );
      return rows.map((row) => row.id);
    },

    async findToSend(id: string): Promise<DeliveryToSend | undefined> {
      const rows = await rowsOf<{
        id: string;
        incident_id: string;
        event: string;
        channel: string;
        recipient: string;
        status: string;
        incident_state: string;
        condition_key: string;
        summary: string;
        opened_ms: number;
        resolved_ms: number | null;
        monitor_id: string;
        monitor_name: string;
        service: string;
        target: unknown;
        paused: boolean;
        language_code: string;
        alert_settings: unknown;
        fallback_for: 'call' | 'sms' | null;
        user_id: string;
        user_email: string;
        plan: string;
        plan_expires_at: number | null;
      }>(
        db,
        sql`select d.id, d.incident_id, d.event, d.channel, d.recipient, d.status, d.fallback_for,
              i.state as incident_state, i.condition_key, i.summary,
              (extract(epoch from i.opened_at) * 1000)::float8 as opened_ms,
              (extract(epoch from i.resolved_at) * 1000)::float8 as resolved_ms,
              m.id as monitor_id, m.name as monitor_name, m.service, m.target, m.paused, m.language_code,
              m.alert_settings, u.id as user_id, u.email as user_email, u.plan, u.plan_expires_at::float8 as plan_expires_at
            from alert_deliveries d
              join incidents i on i.id = d.incident_id
              join monitors m on m.id = i.monitor_id
              join users u on u.id = i.user_id
            where d.id = ${id}::uuid`,
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        id: row.id,
        incidentId: row.incident_id,
        event: row.event,
        channel: row.channel,
        recipient: row.recipient,
        status: row.status,
        incidentState: row.incident_state,
        conditionKey: row.condition_key,
        summary: row.summary,
        openedAt: new Date(Math.round(row.opened_ms)),
        resolvedAt: row.resolved_ms === null ? null : new Date(Math.round(row.resolved_ms)),
        monitorId: row.monitor_id,
        monitorName: row.monitor_name,
        service: row.service,
        target: row.target,
        paused: row.paused,
        languageCode: row.language_code,
        alertSettings: row.alert_settings,
        fallbackFor: row.fallback_for,
        userId: row.user_id,
        userEmail: row.user_email,
        plan: row.plan,
        planExpiresAt: row.plan_expires_at,
      };
    },

    /**
     * Takes the delivery for sending: pending, or 'sending' by a worker whose lease ran out (it died). Records
     * the attempt. Returns the attempt id, or null when it is sent, given up, or being sent by a live worker.
     */
    async startAttempt(id: string, now: Date, leaseUntil: Date): Promise<TakenAttempt | null> {
      // One statement, so a worker that dies here leaves either nothing or the whole take.
      const [row] = await rowsOf<{ attempt_id: number | null; since_ms: number | null }>(
        db,
        sql`with taken as (
              update alert_deliveries set status = 'sending', attempts = attempts + 1,
                lease_until = ${at(leaseUntil)}, updated_at = ${at(now)}
              where id = ${id}::uuid
                and (status = 'pending' or (status = 'sending' and lease_until <= ${at(now)}))
              returning id
            ),
            -- A try that never finished belonged to a worker that died: before the provider confirmed, unless a
            -- receipt already named what it sent (applyReceipt), which is then that try's and not in doubt.
            unfinished as (
              update delivery_attempts set finished_at = ${at(now)},
                outcome = case when provider_id is null then 'retry' else 'sent' end,
                error = case when provider_id is null
                  then 'The worker stopped before the provider confirmed the message; tried again.' end
              where delivery_id in (select id from taken) and finished_at is null
              returning started_at, provider_id
            ),
            attempt as (
              insert into delivery_attempts (delivery_id, started_at) select id, ${at(now)} from taken
              returning id
            )
            select (select id from attempt)::int as attempt_id,
              (select min(extract(epoch from started_at) * 1000) from unfinished
                where provider_id is null)::float8 as since_ms`,
      );
      if (row?.attempt_id == null) return null;
      return {
        attemptId: row.attempt_id,
        inDoubtSince: row.since_ms === null ? null : new Date(Math.round(row.since_ms)),
      };
    },

    /**
     * The attempt's outcome, and the delivery's new state: sent, back to pending (retry), failed or skipped. A try
     * moves its delivery only while it is still `sending`: a provider's receipt that came first (delivered, not
     * answered, undelivered; see `applyReceipt`) has the last word.
     */
    async finishAttempt(result: {
      deliveryId: string;
      attemptId: number | null;
      outcome: 'sent' | 'retry' | 'failed' | 'skipped';
      error: string | null;
      providerMessageId?: string | null;
      now: Date;
    }): Promise<void> {
      const status = result.outcome === 'retry' ? 'pending' : result.outcome;
      const providerId = result.providerMessageId ?? null;
      // One statement: the delivery and its try are recorded together or not at all.
      await db.execute(
        sql`with delivery as (
              update alert_deliveries set status = ${status}, lease_until = null, updated_at = ${at(result.now)},
                last_error = ${result.error}::text,
                provider_message_id = coalesce(${providerId}::text, provider_message_id),
                sent_at = case when ${status} = 'sent' then ${at(result.now)} else sent_at end
              where id = ${result.deliveryId}::uuid
                and (case when ${result.attemptId !== null}::boolean then status = 'sending'
                  else ${result.outcome} <> 'skipped' or status = 'pending' end)
              returning id
            )
            update delivery_attempts set finished_at = ${at(result.now)}, outcome = ${result.outcome},
              error = ${result.error}::text, provider_id = ${providerId}::text
            where id = ${result.attemptId ?? -1}`,
      );
    },
  };
}
export type AlertRepository = ReturnType<typeof createAlertRepository>;
