import type { Alert } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export function acknowledgeAlert(incidentId: string) {
  return api.post<Alert>('/monitor-bff/monitor/alerts/acknowledge', { incidentId });
}
