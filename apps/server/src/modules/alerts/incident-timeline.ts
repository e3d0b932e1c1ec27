import type { IncidentState, IncidentTimeline, ResolvedBy, TimelineEvent } from '@vigil/contracts';
import { toDelivery } from './delivery-view.ts';
import type {
  DeliveryRow,
  FailedCheck,
  FailedTry,
  IncidentFailures,
  IncidentRow,
} from './incident.repository.ts';

/** Statuses whose `lastError` is the reason of the final try, so that try is not listed twice. */
const ENDED_WITH_REASON = new Set(['pending', 'failed', 'skipped', 'unanswered']);

/**
 * Where an event stands among others of the same instant: the check that confirmed a failure comes before
 * the incident it opened, the alerts after it, the recovery after the last alert and before its notice.
 */
function rankOf(event: TimelineEvent): number {
  switch (event.kind) {
    case 'check-failed':
    case 'more-failures':
      return 0;
    case 'opened':
      return 1;
    case 'acknowledged':
      return 2;
    case 'delivery':
      return event.event === 'resolved' ? 4 : 2;
    case 'resolved':
      return 3;
  }
}

function failedCheck(check: FailedCheck): TimelineEvent {
  return {
    kind: 'check-failed',
    at: check.checkedAt.toISOString(),
    statusCode: check.statusCode,
    error: check.error,
  };
}

function deliveryEvent(row: DeliveryRow, tries: FailedTry[]): TimelineEvent {
  const last = tries.at(-1);
  const listed =
    last && ENDED_WITH_REASON.has(row.status) && last.error === row.lastError ? tries.slice(0, -1) : tries;
  const given = ENDED_WITH_REASON.has(row.status) && row.status !== 'pending' ? row.updatedAt : null;
  return {
    kind: 'delivery',
    at: (row.sentAt ?? given ?? row.createdAt).toISOString(),
    ...toDelivery(row),
    failedTries: listed.map((item) => ({ at: item.at.toISOString(), error: item.error })),
  };
}

/**
 * An incident's story in time order: the failed checks of its condition (the first and last few, the rest
 * counted), its opening, each alert sent per channel, its acknowledgement and its end.
 */
export function buildTimeline(input: {
  incident: IncidentRow;
  failures: IncidentFailures;
  deliveries: DeliveryRow[];
  failedTries: FailedTry[];
}): IncidentTimeline {
  const { incident, failures, deliveries, failedTries } = input;
  const events: TimelineEvent[] = failures.first.map(failedCheck);
  const hidden = failures.total - failures.first.length - failures.last.length;
  if (hidden > 0) {
    // The hidden ones lie between the last listed at the start and the first listed at the end.
    events.push({
      kind: 'more-failures',
      at: failures.first.at(-1)!.checkedAt.toISOString(),
      until: failures.last[0]!.checkedAt.toISOString(),
      count: hidden,
    });
  }
  events.push(...failures.last.map(failedCheck));
  events.push({ kind: 'opened', at: incident.openedAt.toISOString(), summary: incident.summary });
  for (const row of deliveries) {
    events.push(
      deliveryEvent(
        row,
        failedTries.filter((item) => item.deliveryId === row.id),
      ),
    );
  }
  if (incident.acknowledgedAt) {
    const pressed = deliveries.find((row) => row.channel === 'call' && row.status === 'acknowledged');
    events.push({
      kind: 'acknowledged',
      at: incident.acknowledgedAt.toISOString(),
      byCallTo: pressed?.recipient ?? null,
    });
  }
  if (incident.state === 'resolved' && incident.resolvedAt) {
    events.push({
      kind: 'resolved',
      at: incident.resolvedAt.toISOString(),
      by: (incident.resolvedBy as ResolvedBy | null) ?? 'check',
      note: incident.resolutionNote,
    });
  }
  // A stable sort: entries of one instant keep their rank, and deliveries their order of creation.
  const ordered = events
    .map((event, index) => ({ event, index, ms: Date.parse(event.at) }))
    .sort((a, b) => a.ms - b.ms || rankOf(a.event) - rankOf(b.event) || a.index - b.index)
    .map(({ event }) => event);
  const oldest = failures.oldestKept;
  return {
    incidentId: incident.id,
    state: incident.state as IncidentState,
    events: ordered,
    // The check that opened the incident ran at `openedAt`: kept results starting later mean some are gone.
    checksKeptFrom:
      oldest === null
        ? (incident.resolvedAt ?? incident.openedAt).toISOString()
        : oldest > incident.openedAt
          ? oldest.toISOString()
          : null,
  };
}
