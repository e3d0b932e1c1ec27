import type { PlanOrderCreateBody, planOrderCreated } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export type PlanOrderCreated = (typeof planOrderCreated)['_output'];

/**
 * Opens a Stripe Checkout for a paid plan: the browser then goes to `url`. 409 when the person already pays
 * for a plan (plans change in Manage billing instead).
 */
export function createPlanOrder(body: PlanOrderCreateBody) {
  return api.post<PlanOrderCreated>('/monitor-bff/plan-order/create', body);
}
