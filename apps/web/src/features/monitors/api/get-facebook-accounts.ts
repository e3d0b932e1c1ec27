import type { FacebookAccount } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';
import { sourceParams, type AdsSource } from './ads-source.ts';

/** Ad accounts listed a page at a time. */
export const FACEBOOK_ACCOUNTS_PAGE = 25;

export interface CursorPage<T> {
  list: T[];
  /** `after` is the next page's cursor, null on the last page. */
  paging: { after: string | null; before: string | null };
}

/** The Facebook account's ad accounts, by cursor (`after`). */
export function getFacebookAccounts(query: { source: AdsSource; after?: string }, signal?: AbortSignal) {
  return api.get<CursorPage<FacebookAccount>>('/monitor-bff/monitor/facebook/account', {
    params: {
      ...sourceParams(query.source),
      limit: FACEBOOK_ACCOUNTS_PAGE,
      ...(query.after ? { after: query.after } : {}),
    },
    ...(signal ? { signal } : {}),
  });
}
