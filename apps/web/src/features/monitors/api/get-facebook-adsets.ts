import type { FacebookAdSet } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';
import { sourceParams, type AdsSource } from './ads-source.ts';
import type { CursorPage } from './get-facebook-accounts.ts';

/** An ad account's ad sets, by cursor (`after`); `accountId` without its `act_` prefix. */
export function getFacebookAdSets(
  query: { accountId: string; source: AdsSource; after?: string },
  signal?: AbortSignal,
) {
  return api.get<CursorPage<FacebookAdSet>>('/monitor-bff/monitor/facebook/adsets', {
    params: {
      account_id: query.accountId,
      ...sourceParams(query.source),
      ...(query.after ? { after: query.after } : {}),
    },
    ...(signal ? { signal } : {}),
  });
}
