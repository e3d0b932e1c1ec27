import type { Monitor } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export function checkMonitorNow(monitorId: string) {
  return api.post<Monitor>('/monitor-bff/monitor-check', { monitorId });
}
