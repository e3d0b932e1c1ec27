import type { Alert } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export function resolveAlert(incidentId: string, note: string) {
  return api.post<Alert>('/monitor-bff/monitor/alerts/resolve', {
    incidentId,
    ...(note.trim() ? { note: note.trim() } : {}),
  });
}
