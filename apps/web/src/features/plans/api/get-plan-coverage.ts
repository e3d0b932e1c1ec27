import type { PlanOrderAccounts } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** The person's connected accounts and monitors, and how much of them each plan covers. */
export function getPlanCoverage(signal?: AbortSignal) {
  return api.get<PlanOrderAccounts>('/monitor-bff/plan-order/accounts', signal ? { signal } : {});
}
