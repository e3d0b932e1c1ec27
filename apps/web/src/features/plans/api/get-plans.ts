import type { Plan } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export function getPlans(signal?: AbortSignal) {
  return api.get<{ list: Plan[] }>('/monitor-bff/plans', signal ? { signal } : {});
}
