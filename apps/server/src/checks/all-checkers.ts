import type { ServiceId } from '@vigil/contracts';
import type { Checker } from './checker.ts';
import { createWebsiteChecker, type WebsiteCheckerOptions } from '../services/website/website.check.ts';

export type CheckerMap = Partial<Record<ServiceId, Checker>>;

export interface CheckerOptions {
  website?: WebsiteCheckerOptions;
  /** The Shopify checker, when this server has a Shopify app (services/shopify). */
  shopify?: Checker;
}

/** Every service whose integration is built and configured; a monitor of another service is never claimed. */
export function createCheckers(options: CheckerOptions = {}): CheckerMap {
  return {
    website: createWebsiteChecker(options.website),
    ...(options.shopify ? { shopify: options.shopify } : {}),
  };
}
