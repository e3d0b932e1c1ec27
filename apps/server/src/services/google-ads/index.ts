import type { GoogleAdsSettings } from '../../config.ts';
import type { AdsIntegration, AdsIntegrationDeps } from '../ads/integration.ts';
import { createLinkedShops } from '../ads/linked-shop.ts';
import { createGoogleAdsApi } from './google-ads-api.ts';
import { createGoogleAdsBinding } from './google-ads.binding.ts';
import { createGoogleAdsChecker, type GoogleAdsChecker } from './google-ads.check.ts';
import { createGoogleAdsClient } from './google-ads.client.ts';
import { googleAdsRoutes } from './google-ads.routes.ts';
import { createGoogleAdsService } from './google-ads.service.ts';

/**
 * The `google_ads` service, wired: the adapter (OAuth and the Google Ads REST API), the binding of Google
 * accounts, the pickers and target preparation of the API, and the engine's checker.
 */
export function createGoogleAdsIntegration(
  deps: AdsIntegrationDeps<GoogleAdsSettings>,
): Omit<AdsIntegration, 'checker'> & { checker(): GoogleAdsChecker } {
  const { store, clock, cipher, log } = deps;
  const now = () => clock.now().getTime();
  const client = createGoogleAdsClient({ settings: deps.settings, fetch: deps.fetch, now, log });
  const api = createGoogleAdsApi(client);
  const service = createGoogleAdsService({ store, clock, cipher, api });
  return {
    binding: createGoogleAdsBinding({ client, publicUrl: deps.publicUrl }),
    service: service as AdsIntegration['service'],
    routes: async (app, { authenticate }) => {
      await app.register(googleAdsRoutes, { google: service, authenticate });
    },
    checker: () =>
      createGoogleAdsChecker({
        connections: store.connections,
        cipher,
        api,
        linkedShops: createLinkedShops(store.incidents),
        log,
        now,
      }),
  };
}
