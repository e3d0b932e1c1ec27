import type { Monitor } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** The monitor as the entry asked for it, if its answer has come (`api.peek`). */
export function peekMonitorInfo(monitorId: string) {
  return api.peek<Monitor>('/monitor-bff/monitor-info', { monitorId });
}

/** `quiet`: a background refresh, whose failure shows no toast. */
export function getMonitorInfo(monitorId: string, signal?: AbortSignal, quiet = false) {
  return api.get<Monitor>('/monitor-bff/monitor-info', {
    params: { monitorId },
    quiet,
    ...(signal ? { signal } : {}),
  });
}
