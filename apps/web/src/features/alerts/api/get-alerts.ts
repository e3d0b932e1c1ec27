import type { Alert, IncidentState } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export interface AlertQuery {
  page: number;
  pageSize: number;
  monitorId?: string;
  state?: IncidentState;
}

export interface AlertPage {
  list: Alert[];
  total: number;
  page: number;
  pageSize: number;
}

/** Newest first; only the filters that are set are sent. `quiet`: a background refresh, no toast. */
export function getAlerts(query: AlertQuery, signal?: AbortSignal, quiet = false) {
  const params: Record<string, string | number> = { page: query.page, pageSize: query.pageSize };
  if (query.monitorId) params.monitorId = query.monitorId;
  if (query.state) params.state = query.state;
  return api.get<AlertPage>('/monitor-bff/monitor/alerts', { params, quiet, ...(signal ? { signal } : {}) });
}
