import { api } from '../../../lib/api-client.ts';

/** The spec's `monitor_ids` query, comma-separated: several monitors in one call. */
export function deleteMonitors(monitorIds: string[]) {
  return api.delete<{ count: number }>('/monitor-bff/monitor', {
    params: { monitor_ids: monitorIds.join(',') },
  });
}
