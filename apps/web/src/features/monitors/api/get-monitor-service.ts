import type { Language, ServiceDefinition } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export interface Bounds {
  min: number;
  max: number;
  default: number;
}

/** The catalogue: every service with its conditions, the alert languages and the interval bounds. */
export interface MonitorCatalogue {
  list: ServiceDefinition[];
  languages: Language[];
  intervalSeconds: Bounds;
  repeatIntervalMinutes: Bounds;
  confirmations: Bounds;
}

export function getMonitorService(signal?: AbortSignal) {
  return api.get<MonitorCatalogue>('/monitor-bff/monitor-service', signal ? { signal } : {});
}
