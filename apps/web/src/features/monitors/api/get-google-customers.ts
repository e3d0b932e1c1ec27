import type { GoogleCustomer } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';
import { sourceParams, type AdsSource } from './ads-source.ts';

/** The Google Ads accounts the Google account reaches: direct ones, and managers with their clients. */
export function getGoogleCustomers(source: AdsSource, signal?: AbortSignal) {
  return api.get<{ list: GoogleCustomer[] }>('/monitor-bff/monitor/google-customers', {
    params: sourceParams(source),
    ...(signal ? { signal } : {}),
  });
}
