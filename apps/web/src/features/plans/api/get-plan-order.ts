import type { PlanOrder } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** One of the person's orders; 404 for an unknown order or another person's. */
export function getPlanOrder(orderId: string, signal?: AbortSignal) {
  return api.get<PlanOrder>('/monitor-bff/plan-order', {
    params: { order: orderId },
    ...(signal ? { signal } : {}),
  });
}
