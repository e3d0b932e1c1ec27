import type { Provider } from '@vigil/contracts';
import { googleAdsService } from './google-ads/index.ts';
import { metaAdsService } from './meta-ads/index.ts';
import { shopifyService } from './shopify/index.ts';
import type { ServiceModule } from './types.ts';
import { websiteService } from './website/index.ts';

/**
 * The services this app can create, by id. A service the catalogue lists without a module here is left off the
 * picker; adding one is a folder beside these and a line below.
 */
const SERVICE_MODULES: Record<string, ServiceModule | undefined> = {
  website: websiteService,
  shopify: shopifyService,
  google_ads: googleAdsService,
  facebook_ads: metaAdsService,
};

export function serviceModule(service: string): ServiceModule | undefined {
  return Object.hasOwn(SERVICE_MODULES, service) ? SERVICE_MODULES[service] : undefined;
}

/** The service that watches through the provider's connections (a Shopify shop → `shopify`). */
export function serviceModuleOfProvider(provider: Provider): ServiceModule | undefined {
  return Object.values(SERVICE_MODULES).find((module) => module?.provider === provider);
}
