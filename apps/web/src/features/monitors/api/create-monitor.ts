import type { Monitor, MonitorInput } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export function createMonitor(body: MonitorInput) {
  return api.post<Monitor>('/monitor-bff/monitor', body);
}
