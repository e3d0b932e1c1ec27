import { api } from '../../../lib/api-client.ts';

export function pauseMonitors(monitorIds: string[]) {
  return api.post<{ count: number }>('/monitor-bff/monitor-pause', { monitor_ids: monitorIds });
}
