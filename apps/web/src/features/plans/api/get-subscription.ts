import type { SubscriptionInfo } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** What the person pays for now: plan, state, renewal or end, and whether Manage billing is open to them. */
export function getSubscription(signal?: AbortSignal) {
  return api.get<SubscriptionInfo>('/monitor-bff/subscription', signal ? { signal } : {});
}
