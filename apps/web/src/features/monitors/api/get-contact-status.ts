import type { MonitorContacts } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** Whether each ticked channel of the monitor gets its alerts (and why not), and this month's SMS/call use. */
export function getContactStatus(monitorId: string, signal?: AbortSignal) {
  return api.get<MonitorContacts>('/monitor-bff/monitor/contact-status', {
    params: { monitorId },
    ...(signal ? { signal } : {}),
  });
}
