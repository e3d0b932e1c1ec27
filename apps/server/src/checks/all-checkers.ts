import type { ServiceId } from '@vigil/contracts';
import type { Checker } from './checker.ts';
import { createWebsiteChecker, type WebsiteCheckerOptions } from '../services/website/website.check.ts';

export type CheckerMap = Partial<Record<ServiceId, Checker>>;

export interface CheckerOptions {
  website?: WebsiteCheckerOptions;
  /** The Shopify checker, when this server has a Shopify app (services/shopify). */
  shopify?: Checker;
  /** The Google Ads checker, when this server has a Google Ads app (services/google-ads). */
  googleAds?: Checker;
  /** The Meta ads checker, when this server has a Meta app (services/meta-ads). */
  meta?: Checker;
}

/** Every service whose integration is built and configured; a monitor of another service is never claimed. */
export function createCheckers(options: CheckerOptions = {}): CheckerMap {
  return {
    website: createWebsiteChecker(options.website),
    ...(options.shopify ? { shopify: options.shopify } : {}),
    ...(options.googleAds ? { google_ads: options.googleAds } : {}),
    ...(options.meta ? { facebook_ads: options.meta } : {}),
  };
}
