import type { Monitor } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** `quiet`: a background refresh, whose failure shows no toast. */
export function getMonitorInfo(monitorId: string, signal?: AbortSignal, quiet = false) {
  return api.get<Monitor>('/monitor-bff/monitor-info', {
    params: { monitorId },
    quiet,
    ...(signal ? { signal } : {}),
  });
}
