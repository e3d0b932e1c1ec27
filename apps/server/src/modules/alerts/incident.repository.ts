import { and, asc, count, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { at, rowsOf } from '../../db/raw-sql.ts';
import { alertDeliveries, incidents, monitors } from '../../db/schema.ts';

export type IncidentRow = typeof incidents.$inferSelect;
export type DeliveryRow = typeof alertDeliveries.$inferSelect;

export interface IncidentWithMonitor extends IncidentRow {
  monitorName: string;
  service: string;
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
