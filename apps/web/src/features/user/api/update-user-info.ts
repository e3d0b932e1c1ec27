import type { UserInfo } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** The editable contact fields; null clears one. (The contracts' input type, before its preprocessing.) */
export interface UpdateUserInfoInput {
  industry?: string;
  telPhone?: string | null;
  contactEmail?: string | null;
}

export function updateUserInfo(body: UpdateUserInfoInput) {
  return api.put<UserInfo>('/monitor-bff/user-info', body);
}
