import type { GoogleCustomerAds } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';
import { sourceParams, type AdsSource } from './ads-source.ts';

/** A Google Ads account's campaigns, with their ad groups and ads (`resource_name` = `customers/123`). */
export function getGoogleCustomerAds(
  query: { resourceName: string; source: AdsSource },
  signal?: AbortSignal,
) {
  return api.get<GoogleCustomerAds>('/monitor-bff/monitor/google-customerads', {
    params: { resource_name: query.resourceName, ...sourceParams(query.source) },
    ...(signal ? { signal } : {}),
  });
}
