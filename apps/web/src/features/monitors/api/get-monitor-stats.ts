import type { MonitorStats, StatsRange } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export function getMonitorStats(query: { monitorId: string; range: StatsRange }, signal?: AbortSignal) {
  return api.get<MonitorStats>('/monitor-bff/monitor-stats', {
    params: query,
    ...(signal ? { signal } : {}),
  });
}
