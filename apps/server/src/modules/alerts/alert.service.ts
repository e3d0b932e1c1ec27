import {
  TIMELINE_FAILURES_SHOWN,
  type AckLinkError,
  type Alert,
  type IncidentState,
  type IncidentTimeline,
  type ResolvedBy,
} from '@vigil/contracts';
import type { Store } from '../../db/store.ts';
import { AppError } from '../../lib/app-error.ts';
import { HOUR_MS, type Clock } from '../../lib/clock.ts';
import { MONITOR_NOT_FOUND } from '../monitors/monitor.service.ts';
import { conditionLabel } from '../monitors/service-catalogue.ts';
import type { AuthSession } from '../sessions/session.service.ts';
import type { AckLinks } from './ack-link.ts';
import { toDelivery } from './delivery-view.ts';
import { buildTimeline } from './incident-timeline.ts';
import type { DeliveryRow, IncidentWithMonitor } from './incident.repository.ts';

export const ALERT_NOT_FOUND = 'That alert does not exist.';
export const ALREADY_RESOLVED = 'This alert is already resolved: there is nothing left to acknowledge.';
export const RESOLVED_BEFORE = 'This alert is already resolved.';

/**
 * How far before an incident opened its timeline looks for the failures that led to it, when no passing
 * check is found sooner: confirmations are re-checked every 30 s, so a day covers any confirming run.
 */
export const TIMELINE_LOOKBACK_MS = 24 * HOUR_MS;

const iso = (date: Date | null) => date?.toISOString() ?? null;

function toAlert(row: IncidentWithMonitor, deliveries: DeliveryRow[]): Alert {
  return {
    incidentId: row.id,
    monitorId: row.monitorId,
    monitorName: row.monitorName,
    conditionKey: row.conditionKey,
    conditionLabel: conditionLabel(row.service, row.conditionKey),
    summary: row.summary,
    state: row.state as IncidentState,
    openedAt: row.openedAt.toISOString(),
    acknowledgedAt: iso(row.acknowledgedAt),
    resolvedAt: iso(row.resolvedAt),
    resolvedBy: row.state === 'resolved' ? ((row.resolvedBy as ResolvedBy | null) ?? 'check') : null,
    resolutionNote: row.resolutionNote,
    alertCount: row.alertCount,
    deliveries: deliveries.map(toDelivery),
  };
}

/** What acknowledging did: the incident as it is now, or why it could not be acknowledged. */
type AckOutcome = { incident: IncidentWithMonitor } | { error: 'resolved' | 'not_found' };

export function createAlertService(deps: { store: Store; clock: Clock; ackLinks: AckLinks }) {
  const { store, clock, ackLinks } = deps;

  async function present(rows: IncidentWithMonitor[]): Promise<Alert[]> {
    const deliveries = await store.incidents.deliveriesOf(rows.map((row) => row.id));
    return rows.map((row) =>
      toAlert(
        row,
        deliveries.filter((delivery) => delivery.incidentId === row.id),
      ),
    );
  }

  /** Open becomes acknowledged; acknowledging twice is a no-op; a resolved incident stays as it is. */
  async function acknowledge(incident: IncidentWithMonitor): Promise<AckOutcome> {
    if (incident.state === 'resolved') return { error: 'resolved' };
    if (incident.state === 'open') await store.incidents.acknowledge(incident.id, clock.now());
    // Read back: the engine may have resolved it in the meantime.
    const now = await store.incidents.findWithMonitor(incident.id);
    if (!now) return { error: 'not_found' };
    if (now.state === 'resolved') return { error: 'resolved' };
    return { incident: now };
  }

  return {
    async list(
      session: AuthSession,
      query: {
        page: number;
        pageSize: number;
        monitorId?: string | undefined;
        state?: IncidentState | undefined;
      },
    ) {
      if (query.monitorId && !(await store.monitors.findOwned(session.userId, query.monitorId))) {
        throw new AppError('NOT_FOUND', MONITOR_NOT_FOUND);
      }
      const { rows, total } = await store.incidents.pageOfUser(
        session.userId,
        { monitorId: query.monitorId, state: query.state },
        query.pageSize,
        (query.page - 1) * query.pageSize,
      );
      return { list: await present(rows), total, page: query.page, pageSize: query.pageSize };
    },

    async acknowledge(session: AuthSession, incidentId: string): Promise<Alert> {
      const incident = await store.incidents.findOwned(session.userId, incidentId);
      if (!incident) throw new AppError('NOT_FOUND', ALERT_NOT_FOUND);
      const outcome = await acknowledge(incident);
      if ('error' in outcome) {
        if (outcome.error === 'resolved') throw new AppError('CONFLICT', ALREADY_RESOLVED);
        throw new AppError('NOT_FOUND', ALERT_NOT_FOUND);
      }
      return (await present([outcome.incident]))[0]!;
    },

    /**
     * Resolved by the person, with an optional note: no more repeats and no recovery notice (nothing says the
     * site recovered). A site still failing opens a new incident after its confirmations.
     */
    async resolve(session: AuthSession, incidentId: string, note: string | undefined): Promise<Alert> {
      const incident = await store.incidents.findOwned(session.userId, incidentId);
      if (!incident) throw new AppError('NOT_FOUND', ALERT_NOT_FOUND);
      const resolved = await store.transaction((tx) =>
        tx.incidents.resolveByHand(incident.id, note || null, clock.now()),
      );
      if (!resolved) throw new AppError('CONFLICT', RESOLVED_BEFORE);
      const now = await store.incidents.findWithMonitor(incident.id);
      if (!now) throw new AppError('NOT_FOUND', ALERT_NOT_FOUND);
      return (await present([now]))[0]!;
    },

    /**
     * The incident's story: the failed checks of its condition before and while it lasted (the first and last
     * few, the rest counted), its opening, each alert sent, its acknowledgement and its end.
     */
    async timeline(session: AuthSession, incidentId: string): Promise<IncidentTimeline> {
      const incident = await store.incidents.findOwned(session.userId, incidentId);
      if (!incident) throw new AppError('NOT_FOUND', ALERT_NOT_FOUND);
      const [failures, deliveries, failedTries] = await Promise.all([
        store.incidents.failuresOf(
          incident,
          incident.resolvedAt ?? clock.now(),
          TIMELINE_FAILURES_SHOWN,
          TIMELINE_LOOKBACK_MS,
        ),
        store.incidents.deliveriesOf([incident.id]),
        store.incidents.failedTriesOf(incident.id),
      ]);
      return buildTimeline({ incident, failures, deliveries, failedTries });
    },

    /** The emailed link: no session, the signed token is the permission. */
    async acknowledgeByToken(token: string): Promise<{ incidentId: string } | { error: AckLinkError }> {
      const reading = await ackLinks.readToken(token);
      if ('error' in reading) return reading;
      const incident = await store.incidents.findWithMonitor(reading.incidentId);
      if (!incident) return { error: 'not_found' };
      const outcome = await acknowledge(incident);
      return 'error' in outcome ? outcome : { incidentId: incident.id };
    },
  };
}
export type AlertService = ReturnType<typeof createAlertService>;
