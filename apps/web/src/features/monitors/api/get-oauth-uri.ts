import { api } from '../../../lib/api-client.ts';

export interface OAuthUri {
  /** The provider's authorize page. */
  url: string;
  /** The shop it is for, as the server resolved it (`hoodies.myshopify.com`). */
  account: string;
  expiresAt: string;
}

/**
 * The spec's `ouathuri` (spelled so): where to send the browser to connect a shop. With `monitorId` it
 * reconnects that monitor's shop, and `shop` may be left out.
 */
export function getOAuthUri(query: { service: 'shopify'; shop?: string; monitorId?: string }) {
  return api.get<OAuthUri>('/monitor-bff/monitor/ouathuri', {
    params: {
      service: query.service,
      ...(query.shop ? { shop: query.shop } : {}),
      ...(query.monitorId ? { monitor_id: query.monitorId } : {}),
    },
  });
}
