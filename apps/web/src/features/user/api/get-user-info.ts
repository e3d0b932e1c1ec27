import type { UserInfo } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export function getUserInfo(signal?: AbortSignal) {
  return api.get<UserInfo>('/monitor-bff/user-info', signal ? { signal } : {});
}
