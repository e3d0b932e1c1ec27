import type { MetaSettings } from '../../config.ts';
import type { AdsIntegration, AdsIntegrationDeps } from '../ads/integration.ts';
import { createMetaApi } from './meta-ads.api.ts';
import { createMetaBinding } from './meta-ads.binding.ts';
import { createMetaAdsChecker } from './meta-ads.check.ts';
import { createMetaClient } from './meta-ads.client.ts';
import { metaAdsRoutes } from './meta-ads.routes.ts';
import { createMetaAdsService } from './meta-ads.service.ts';

/**
 * The `facebook_ads` service, wired: the Graph adapter (one per integration, so the API's pickers and the checks
 * share what Meta said of its limits), the binding of Facebook accounts, the pickers and target preparation of
 * the API, and the engine's checker.
 */
export function createMetaAdsIntegration(
  deps: AdsIntegrationDeps<MetaSettings>,
): AdsIntegration & { client: ReturnType<typeof createMetaClient> } {
  const { store, clock, cipher, log } = deps;
  const now = () => clock.now().getTime();
  const client = createMetaClient(deps.settings, { ...(deps.fetch ? { fetch: deps.fetch } : {}), now });
  const api = createMetaApi(client);
  const service = createMetaAdsService({ store, clock, cipher, api });
  return {
    client,
    binding: createMetaBinding({ api, publicUrl: deps.publicUrl, now }),
    service: service as AdsIntegration['service'],
    routes: metaAdsRoutes(service),
    checker: () =>
      createMetaAdsChecker({
        connections: store.connections,
        incidents: store.incidents,
        cipher,
        api,
        log,
        now,
      }),
  };
}
