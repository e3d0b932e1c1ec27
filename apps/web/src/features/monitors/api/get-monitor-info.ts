import type { Monitor } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export function getMonitorInfo(monitorId: string, signal?: AbortSignal) {
  return api.get<Monitor>('/monitor-bff/monitor-info', {
    params: { monitorId },
    ...(signal ? { signal } : {}),
  });
}
