import type { MonitorListItem } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

export { MONITOR_PAGE_SIZE } from '../paths.ts';

/** The page of monitors as the entry asked for it, if its answer has come (`api.peek`). */
export function peekMonitors(query: { page: number; pageSize: number }) {
  return api.peek<Page<MonitorListItem>>('/monitor-bff/monitor', query);
}

/** `quiet`: a background refresh, whose failure shows no toast. */
export function getMonitors(query: { page: number; pageSize: number }, signal?: AbortSignal, quiet = false) {
  return api.get<Page<MonitorListItem>>('/monitor-bff/monitor', {
    params: query,
    quiet,
    ...(signal ? { signal } : {}),
  });
}
