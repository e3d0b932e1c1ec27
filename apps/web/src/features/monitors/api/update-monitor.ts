import type { Monitor, MonitorInput } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export function updateMonitor(body: MonitorInput & { monitorId: string }) {
  return api.put<Monitor>('/monitor-bff/monitor', body);
}
