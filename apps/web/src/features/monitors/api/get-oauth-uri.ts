import type { ConnectedService, Provider } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export interface OAuthUri {
  /** The provider's authorize page. */
  url: string;
  provider: Provider;
  /**
   * The account it is for when known before leaving (a shop, as the server resolved it:
   * `hoodies.myshopify.com`); null when the provider tells it only once the person signs in (Google, Facebook).
   */
  account: string | null;
  expiresAt: string;
}

/**
 * The spec's `ouathuri` (spelled so): where to send the browser to connect an account of `service`. With
 * `monitorId` it reconnects that monitor's account, and `shop` may be left out.
 */
export function getOAuthUri(query: { service: ConnectedService; shop?: string; monitorId?: string }) {
  return api.get<OAuthUri>('/monitor-bff/monitor/ouathuri', {
    params: {
      service: query.service,
      ...(query.shop ? { shop: query.shop } : {}),
      ...(query.monitorId ? { monitor_id: query.monitorId } : {}),
    },
  });
}
