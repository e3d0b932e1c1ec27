import type { ComponentType } from 'react';
import type { MonitorListItem } from '@vigil/contracts';
import {
  GoogleAdsTargetDetail,
  GoogleAdsTargetHeader,
  GoogleAdsTargetSummary,
} from './google-ads/google-ads-target.tsx';
import {
  MetaAdsTargetDetail,
  MetaAdsTargetHeader,
  MetaAdsTargetSummary,
} from './meta-ads/meta-ads-target.tsx';
import { ShopifyTargetDetail, ShopifyTargetHeader, ShopifyTargetSummary } from './shopify/shopify-target.tsx';
import { WebsiteTargetHeader, WebsiteTargetSummary } from './website/website-target.tsx';

/**
 * How a service's monitor target shows outside the form. Kept apart from the services' form modules
 * (`index.ts`), so the monitor list and detail load none of the form's sections, pickers and checks.
 */
export interface ServiceDisplay {
  /** The monitor's target in one or two lines, under its name in the list. */
  TargetSummary: ComponentType<{ monitor: MonitorListItem }>;
  /** The target under the monitor's title on its detail. */
  TargetHeader: ComponentType<{ monitor: MonitorListItem }>;
  /** Anything more the detail shows about the target (a lost connection, the watched products). */
  TargetDetail?: ComponentType<{ monitor: MonitorListItem }>;
}

const SERVICE_DISPLAYS: Record<string, ServiceDisplay | undefined> = {
  website: { TargetSummary: WebsiteTargetSummary, TargetHeader: WebsiteTargetHeader },
  shopify: {
    TargetSummary: ShopifyTargetSummary,
    TargetHeader: ShopifyTargetHeader,
    TargetDetail: ShopifyTargetDetail,
  },
  google_ads: {
    TargetSummary: GoogleAdsTargetSummary,
    TargetHeader: GoogleAdsTargetHeader,
    TargetDetail: GoogleAdsTargetDetail,
  },
  facebook_ads: {
    TargetSummary: MetaAdsTargetSummary,
    TargetHeader: MetaAdsTargetHeader,
    TargetDetail: MetaAdsTargetDetail,
  },
};

export function serviceDisplay(service: string): ServiceDisplay | undefined {
  return Object.hasOwn(SERVICE_DISPLAYS, service) ? SERVICE_DISPLAYS[service] : undefined;
}
