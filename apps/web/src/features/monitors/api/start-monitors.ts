import { api } from '../../../lib/api-client.ts';

export function startMonitors(monitorIds: string[]) {
  return api.post<{ count: number }>('/monitor-bff/monitor-start', { monitor_ids: monitorIds });
}
