import type { UserInfo } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** The user as the entry asked for them, if the answer has come (`api.peek`). */
export function peekUserInfo() {
  return api.peek<UserInfo>('/monitor-bff/user-info');
}

/** `quiet` leaves failures to the caller (a 401 still ends the session). */
export function getUserInfo(signal?: AbortSignal, { quiet = false }: { quiet?: boolean } = {}) {
  return api.get<UserInfo>('/monitor-bff/user-info', { ...(signal ? { signal } : {}), quiet });
}
