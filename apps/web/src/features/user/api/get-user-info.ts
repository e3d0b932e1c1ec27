import type { UserInfo } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** `quiet` leaves failures to the caller (a 401 still ends the session). */
export function getUserInfo(signal?: AbortSignal, { quiet = false }: { quiet?: boolean } = {}) {
  return api.get<UserInfo>('/monitor-bff/user-info', { ...(signal ? { signal } : {}), quiet });
}
