import type { IncidentTimeline } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** One alert's timeline, oldest first. `quiet`: a background refresh, no toast. */
export function getIncidentTimeline(incidentId: string, signal?: AbortSignal, quiet = false) {
  return api.get<IncidentTimeline>('/monitor-bff/monitor/alerts/timeline', {
    params: { incidentId },
    quiet,
    ...(signal ? { signal } : {}),
  });
}
