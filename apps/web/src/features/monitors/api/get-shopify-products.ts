import { SHOPIFY_PRODUCTS_PAGE, type ShopifyProductsPage } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export interface ShopifyProductsQuery {
  /** The spec's parameter: the monitor whose shop to list (when editing it). */
  monitorId?: string;
  /** The shop chosen in the form of a monitor being created (or moved to another shop). */
  connectionId?: string;
  cursor?: string;
  direction?: 'next' | 'previous';
  /** Title search. */
  query?: string;
}

/** The shop's products, 10 a page by cursor (the spec's call). */
export function getShopifyProducts(query: ShopifyProductsQuery, signal?: AbortSignal) {
  const params: Record<string, string | number> = { limit: SHOPIFY_PRODUCTS_PAGE };
  for (const [key, value] of Object.entries(query)) if (value) params[key] = value;
  return api.get<ShopifyProductsPage>('/monitor-bff/monitor/shopify-products', {
    params,
    ...(signal ? { signal } : {}),
  });
}
