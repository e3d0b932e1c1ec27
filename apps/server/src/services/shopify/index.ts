import type { FastifyBaseLogger } from 'fastify';
import type { ShopifySettings } from '../../config.ts';
import type { Store } from '../../db/store.ts';
import type { Clock } from '../../lib/clock.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import { createShopifyBinding } from './shopify.binding.ts';
import { createShopifyChecker } from './shopify.check.ts';
import { createShopifyClient } from './shopify.client.ts';
import { createShopifyService } from './shopify.service.ts';
import { createShopApi } from './shopify-api.ts';
import { createShopifyWebhookService } from './shopify-webhooks.ts';
import { createStorefront } from './storefront.ts';

/**
 * The `shopify` service, wired: the adapter (OAuth, Admin GraphQL, storefront), the binding, the products and
 * target service of the API, the webhooks and the checker of the engine.
 */
export function createShopifyIntegration(deps: {
  settings: ShopifySettings;
  store: Store;
  clock: Clock;
  cipher: TokenCipher;
  publicUrl: string;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  fetch?: typeof fetch;
}) {
  const client = createShopifyClient(deps.settings, deps.fetch);
  const api = createShopApi(client);
  const { store, clock, cipher, log } = deps;
  return {
    client,
    api,
    binding: createShopifyBinding({ api, publicUrl: deps.publicUrl }),
    service: createShopifyService({ store, clock, cipher, api }),
    webhooks: createShopifyWebhookService({ store, clock, log }),
    checker: () =>
      createShopifyChecker({
        connections: store.connections,
        cipher,
        api,
        storefront: createStorefront(deps.fetch),
        log,
        now: () => clock.now().getTime(),
      }),
  };
}
export type ShopifyIntegration = ReturnType<typeof createShopifyIntegration>;
