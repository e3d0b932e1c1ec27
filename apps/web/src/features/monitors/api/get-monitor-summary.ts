import type { MonitorSummary } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export function getMonitorSummary(signal?: AbortSignal) {
  return api.get<MonitorSummary>('/monitor-bff/monitor-summary', {
    quiet: true,
    ...(signal ? { signal } : {}),
  });
}
