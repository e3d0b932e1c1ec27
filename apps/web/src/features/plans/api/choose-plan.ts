import type { UserInfo } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** Only plans without checkout (Free) can be chosen directly. */
export function choosePlan(plan: string) {
  return api.post<UserInfo>('/monitor-bff/v1/user/choose-plan', { plan });
}
