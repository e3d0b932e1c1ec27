import type { MonitorChecks } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** The monitor's last checks one by one, oldest first (at most 100), for the status bar. */
export function getMonitorChecks(query: { monitorId: string; limit?: number }, signal?: AbortSignal) {
  return api.get<MonitorChecks>('/monitor-bff/monitor-checks', {
    params: query,
    ...(signal ? { signal } : {}),
  });
}
