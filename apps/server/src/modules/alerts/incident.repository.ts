import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { at, rowsOf } from '../../db/raw-sql.ts';
import { alertDeliveries, deliveryAttempts, incidents, monitors } from '../../db/schema.ts';

export type IncidentRow = typeof incidents.$inferSelect;
export type DeliveryRow = typeof alertDeliveries.$inferSelect;

export interface IncidentWithMonitor extends IncidentRow {
  monitorName: string;
  service: string;
}

/** A failed check of one condition, as the incident timeline lists it. */
export interface FailedCheck {
  checkedAt: Date;
  statusCode: number | null;
  error: string | null;
}

/** The failed checks of an incident's condition: the first and last few, and how many there are in all. */
export interface IncidentFailures {
  first: FailedCheck[];
  last: FailedCheck[];
  total: number;
  /** The monitor's oldest kept check result (older ones are pruned); null when none is kept. */
  oldestKept: Date | null;
}

export interface FailedTry {
  deliveryId: string;
  at: Date;
  error: string;
}

export interface IncidentFilter {
  monitorId?: string | undefined;
  state?: string | undefined;
}

/** Reads of incidents and their deliveries (the engine opens, re-alerts and resolves them) and acknowledging. */
export function createIncidentRepository(db: Db) {
  const withMonitor = {
    ...incidentColumns(),
    monitorName: monitors.name,
    service: monitors.service,
  };

  function whereOf(userId: string, filter: IncidentFilter): SQL | undefined {
    return and(
      eq(incidents.userId, userId),
      filter.monitorId ? eq(incidents.monitorId, filter.monitorId) : undefined,
      filter.state ? eq(incidents.state, filter.state) : undefined,
    );
  }

  return {
    /** The user's incidents, newest first. */
    async pageOfUser(
      userId: string,
      filter: IncidentFilter,
      limit: number,
      offset: number,
    ): Promise<{ rows: IncidentWithMonitor[]; total: number }> {
      const where = whereOf(userId, filter);
      const [totalRow] = await db.select({ n: count() }).from(incidents).where(where);
      const rows = await db
        .select(withMonitor)
        .from(incidents)
        .innerJoin(monitors, eq(monitors.id, incidents.monitorId))
        .where(where)
        .orderBy(desc(incidents.openedAt), desc(incidents.id))
        .limit(limit)
        .offset(offset);
      return { rows, total: Number(totalRow?.n ?? 0) };
    },

    async findOwned(userId: string, id: string): Promise<IncidentWithMonitor | undefined> {
      const [row] = await db
        .select(withMonitor)
        .from(incidents)
        .innerJoin(monitors, eq(monitors.id, incidents.monitorId))
        .where(and(eq(incidents.userId, userId), eq(incidents.id, id)));
      return row;
    },

    async findWithMonitor(id: string): Promise<IncidentWithMonitor | undefined> {
      const [row] = await db
        .select(withMonitor)
        .from(incidents)
        .innerJoin(monitors, eq(monitors.id, incidents.monitorId))
        .where(eq(incidents.id, id));
      return row;
    },

    /**
     * Resolved by the person, with their note; false when it was resolved already. The monitor forgets the
     * condition's failures, so a site still failing opens a new incident after its confirmations.
     */
    async resolveByHand(id: string, note: string | null, now: Date): Promise<boolean> {
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`with ended as (
              update incidents set state = 'resolved', resolved_at = ${at(now)}, next_alert_at = null,
                resolved_by = 'person', resolution_note = ${note}::text
              where id = ${id}::uuid and state <> 'resolved'
              returning id, monitor_id, condition_key
            )
            update monitors m set check_state = m.check_state - ended.condition_key
            from ended where m.id = ended.monitor_id
            returning ended.id`,
      );
      return rows.length === 1;
    },

    /** Open → acknowledged and no more repeats; false when it was not open (acknowledged or resolved first). */
    async acknowledge(id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(incidents)
        .set({ state: 'acknowledged', acknowledgedAt: now, nextAlertAt: null })
        .where(and(eq(incidents.id, id), eq(incidents.state, 'open')))
        .returning({ id: incidents.id });
      return rows.length === 1;
    },

    /**
     * The failed checks of the incident's condition, from just after the condition last passed before the
     * incident opened (or the same condition's previous incident ended, or `lookbackMs` before it opened,
     * whichever is latest) up to `until`. Only the first and last `shown` are read in full; the rest are
     * counted. One statement, on the results' (monitor, slot) index.
     */
    async failuresOf(
      incident: IncidentRow,
      until: Date,
      shown: number,
      lookbackMs: number,
    ): Promise<IncidentFailures> {
      const key = JSON.stringify([incident.conditionKey]);
      const lookback = new Date(incident.openedAt.getTime() - lookbackMs);
      const rows = await rowsOf<{
        checked_ms: number | null;
        status_code: number | null;
        error: string | null;
        n_asc: number | null;
        n_desc: number | null;
        total: number | null;
        oldest_ms: number | null;
      }>(
        db,
        sql`with since as (
              select greatest(
                ${at(lookback)},
                -- The condition last judged and passing (a check that crashed judged nothing).
                (select max(slot_at) from check_results
                  where monitor_id = ${incident.monitorId}::uuid
                    and slot_at >= ${at(lookback)} and slot_at <= ${at(incident.openedAt)}
                    and not failed_conditions @> ${key}::jsonb
                    and (ok or jsonb_array_length(failed_conditions) > 0)),
                -- Resolved by hand while still failing: those failures were that incident's.
                (select max(resolved_at) from incidents
                  where user_id = ${incident.userId}::uuid and monitor_id = ${incident.monitorId}::uuid
                    and condition_key = ${incident.conditionKey} and id <> ${incident.id}::uuid
                    and opened_at <= ${at(incident.openedAt)} and resolved_at <= ${at(incident.openedAt)})
              ) as at
            ),
            failed as (
              select checked_at, status_code, error,
                row_number() over (order by slot_at) as n_asc,
                row_number() over (order by slot_at desc) as n_desc,
                count(*) over () as total
              from check_results
              where monitor_id = ${incident.monitorId}::uuid
                and slot_at > (select at from since) and slot_at <= ${at(until)}
                and not ok and failed_conditions @> ${key}::jsonb
            ),
            shown as (
              select * from failed where n_asc <= ${shown} or n_desc <= ${shown}
            )
            select (extract(epoch from s.checked_at) * 1000)::float8 as checked_ms, s.status_code::int,
              s.error::text, s.n_asc::int, s.n_desc::int, s.total::int,
              (extract(epoch from (select min(slot_at) from check_results
                where monitor_id = ${incident.monitorId}::uuid)) * 1000)::float8 as oldest_ms
            -- One row even without failures, to carry the oldest kept result.
            from (select 1) as one left join shown s on true
            order by s.n_asc`,
      );
      const total = rows[0]?.total ?? 0;
      const oldestMs = rows[0]?.oldest_ms ?? null;
      const checks = rows
        .filter((row) => row.checked_ms !== null)
        .map((row) => ({
          n: row.n_asc!,
          check: {
            checkedAt: new Date(Math.round(row.checked_ms!)),
            statusCode: row.status_code,
            error: row.error,
          },
        }));
      return {
        first: checks.filter(({ n }) => n <= shown).map(({ check }) => check),
        last: checks.filter(({ n }) => n > shown).map(({ check }) => check),
        total,
        oldestKept: oldestMs === null ? null : new Date(Math.round(oldestMs)),
      };
    },

    /** The tries of the incident's deliveries that did not get through, with why, oldest first. */
    async failedTriesOf(incidentId: string): Promise<FailedTry[]> {
      const rows = await db
        .select({
          deliveryId: deliveryAttempts.deliveryId,
          at: deliveryAttempts.startedAt,
          error: deliveryAttempts.error,
        })
        .from(deliveryAttempts)
        .innerJoin(alertDeliveries, eq(alertDeliveries.id, deliveryAttempts.deliveryId))
        .where(
          and(
            eq(alertDeliveries.incidentId, incidentId),
            inArray(deliveryAttempts.outcome, ['retry', 'failed']),
            isNotNull(deliveryAttempts.error),
          ),
        )
        .orderBy(asc(deliveryAttempts.startedAt), asc(deliveryAttempts.id));
      return rows.map((row) => ({ deliveryId: row.deliveryId, at: row.at, error: row.error! }));
    },

    /** Deliveries of the incidents, oldest first. */
    async deliveriesOf(incidentIds: string[]): Promise<DeliveryRow[]> {
      if (incidentIds.length === 0) return [];
      return db
        .select()
        .from(alertDeliveries)
        .where(inArray(alertDeliveries.incidentId, incidentIds))
        .orderBy(asc(alertDeliveries.createdAt), asc(alertDeliveries.channel), asc(alertDeliveries.id));
    },

    /**
     * The oldest unresolved incident of each of these monitors, with the monitor's name: whether a shop an ads
     * monitor links to can sell (services/ads/linked-shop.ts).
     */
    async oldestUnresolved(
      monitorIds: string[],
    ): Promise<{ monitorId: string; name: string; openedAt: Date; summary: string }[]> {
      if (monitorIds.length === 0) return [];
      const rows = await db
        .selectDistinctOn([incidents.monitorId], {
          monitorId: incidents.monitorId,
          name: monitors.name,
          openedAt: incidents.openedAt,
          summary: incidents.summary,
        })
        .from(incidents)
        .innerJoin(monitors, eq(monitors.id, incidents.monitorId))
        .where(and(inArray(incidents.monitorId, monitorIds), ne(incidents.state, 'resolved')))
        .orderBy(incidents.monitorId, asc(incidents.openedAt));
      return rows;
    },

    /**
     * When each of the monitor's incidents that overlap [from, to) was open, oldest first; `resolvedAt` null
     * while one is not resolved. Through the user's index: a monitor's incidents are among its owner's.
     */
    async periodsOf(
      userId: string,
      monitorId: string,
      from: Date,
      to: Date,
    ): Promise<{ openedAt: Date; resolvedAt: Date | null }[]> {
      return db
        .select({ openedAt: incidents.openedAt, resolvedAt: incidents.resolvedAt })
        .from(incidents)
        .where(
          and(
            eq(incidents.userId, userId),
            eq(incidents.monitorId, monitorId),
            lt(incidents.openedAt, to),
            or(isNull(incidents.resolvedAt), gt(incidents.resolvedAt, from)),
          ),
        )
        .orderBy(asc(incidents.openedAt));
    },

    /** Incidents not yet resolved (open or acknowledged) of each monitor, by id. */
    async unresolvedCounts(monitorIds: string[]): Promise<Map<string, number>> {
      if (monitorIds.length === 0) return new Map();
      const rows = await db
        .select({ monitorId: incidents.monitorId, n: count() })
        .from(incidents)
        .where(and(inArray(incidents.monitorId, monitorIds), ne(incidents.state, 'resolved')))
        .groupBy(incidents.monitorId);
      return new Map(rows.map((row) => [row.monitorId, Number(row.n)]));
    },
  };
}
export type IncidentRepository = ReturnType<typeof createIncidentRepository>;

function incidentColumns() {
  return {
    id: incidents.id,
    monitorId: incidents.monitorId,
    userId: incidents.userId,
    conditionKey: incidents.conditionKey,
    state: incidents.state,
    summary: incidents.summary,
    openedAt: incidents.openedAt,
    acknowledgedAt: incidents.acknowledgedAt,
    resolvedAt: incidents.resolvedAt,
    lastAlertAt: incidents.lastAlertAt,
    nextAlertAt: incidents.nextAlertAt,
    alertCount: incidents.alertCount,
    resolvedBy: incidents.resolvedBy,
    resolutionNote: incidents.resolutionNote,
  };
}

/**
 * Ends the unresolved incidents of monitors being paused (by the person or by the plan): a paused monitor
 * is not checked, so nothing else would ever end them. No recovery notice goes out (nothing recovered), and
 * the monitors forget their failures, so checks start afresh when they run again. Two statements: callers
 * pause inside a transaction.
 */
export async function endIncidentsOfPaused(db: Db, monitorIds: string[], now: Date): Promise<void> {
  if (monitorIds.length === 0) return;
  await db
    .update(incidents)
    .set({ state: 'resolved', resolvedAt: now, nextAlertAt: null, resolvedBy: 'pause' })
    .where(and(inArray(incidents.monitorId, monitorIds), ne(incidents.state, 'resolved')));
  await db.update(monitors).set({ checkState: {} }).where(inArray(monitors.id, monitorIds));
}
