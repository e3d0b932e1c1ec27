import { useSyncExternalStore } from 'react';
import type { UserInfo } from '@vigil/contracts';
import { getUserInfo, subscribeUserInfo } from './session.ts';

/** The stored userInfo, re-rendering when it changes. */
export function useUserInfo(): UserInfo | null {
  return useSyncExternalStore(subscribeUserInfo, getUserInfo, getUserInfo);
}
