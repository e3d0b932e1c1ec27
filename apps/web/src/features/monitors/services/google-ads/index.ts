import { googleAdsConditions, googleAdsTargetInput } from '@vigil/contracts';
import { addTargetIssues } from '../ads/ads-target-errors.ts';
import { parseConditions } from '../conditions.ts';
import type { ServiceModule } from '../types.ts';
import { GoogleAdsSection } from './google-ads-section.tsx';

/** The Google Ads account chosen, as the form keeps it (the body sends its resource name). */
export type ChosenCustomer = { resourceName: string; customerId: string; name: string; currency: string };
export type ChosenCampaign = { campaignId: string; name: string };
/** A chosen ad, named for the chips and the detail (the body sends its resource name). */
export type ChosenAd = {
  resourceName: string;
  adId: string;
  name: string;
  adGroupName: string;
  campaignId: string;
  campaignName: string;
};

export type GoogleAdsTargetValues = {
  connectionId: string;
  customer: ChosenCustomer | null;
  /** The whole account, or the chosen campaigns and ads (kept while "the whole account" is on). */
  watch: 'account' | 'chosen';
  campaigns: ChosenCampaign[];
  ads: ChosenAd[];
  linkedMonitorId: string | null;
};

export const GOOGLE_CONNECTION_NEEDED_MESSAGE = 'Choose the Google account to read, or connect one.';
export const CUSTOMER_NEEDED_MESSAGE = 'Choose the Google Ads account to watch.';
export const ADS_NEEDED_MESSAGE = 'Choose at least one campaign or ad, or watch the whole account.';

const EMPTY: GoogleAdsTargetValues = {
  connectionId: '',
  customer: null,
  watch: 'account',
  campaigns: [],
  ads: [],
  linkedMonitorId: null,
};

/** The body's field of each part of `googleAdsTargetInput` (and of the server's paths under `target`). */
function fieldOf(path: string): string {
  const [, part] = /^target\.([^.]+)/.exec(path) ?? [];
  if (part === 'customer' || part === 'adIds' || part === 'campaignIds' || part === 'linkedMonitorId') {
    return `target.${part}`;
  }
  if (path === 'target') return 'target.connectionId';
  return path;
}

/** A Google Ads account through a Google connection: the whole account, or chosen campaigns and ads. */
export const googleAdsService: ServiceModule<GoogleAdsTargetValues> = {
  service: 'google_ads',
  provider: 'google',
  initialTarget: (monitor) => {
    if (monitor?.service !== 'google_ads') return { ...EMPTY };
    const { connectionId, customer, campaigns, ads, linkedMonitorId } = monitor.target;
    return {
      connectionId,
      customer: {
        resourceName: customer.resourceName,
        customerId: customer.customerId,
        name: customer.name,
        currency: customer.currency,
      },
      watch: campaigns.length > 0 || ads.length > 0 ? 'chosen' : 'account',
      campaigns: campaigns.map(({ campaignId, name }) => ({ campaignId, name })),
      ads: ads.map((ad) => ({ ...ad })),
      linkedMonitorId,
    };
  },
  // Customers belong to a Google account: another account starts with none chosen.
  withConnection: (target, connection) =>
    connection.connectionId === target.connectionId
      ? target
      : { ...EMPTY, connectionId: connection.connectionId, linkedMonitorId: target.linkedMonitorId },
  check(target, values) {
    const errors: Record<string, string> = {};
    const chosen = target.watch === 'chosen';
    const campaignIds = chosen ? target.campaigns.map((campaign) => campaign.campaignId) : [];
    const adIds = chosen ? target.ads.map((ad) => ad.resourceName) : [];
    if (!target.connectionId) errors['target.connectionId'] = GOOGLE_CONNECTION_NEEDED_MESSAGE;
    else if (!target.customer) errors['target.customer'] = CUSTOMER_NEEDED_MESSAGE;
    else if (chosen && campaignIds.length === 0 && adIds.length === 0) {
      errors['target.adIds'] = ADS_NEEDED_MESSAGE;
    }
    const parsed = googleAdsTargetInput.safeParse({
      connectionId: target.connectionId,
      customer: target.customer?.resourceName,
      campaignIds,
      adIds,
      linkedMonitorId: target.linkedMonitorId,
    });
    if (!parsed.success) addTargetIssues(errors, parsed.error.issues, fieldOf, 'target.customer');
    const conditions = parseConditions(errors, googleAdsConditions, values);
    if (!parsed.success || !conditions || Object.keys(errors).length > 0) return { errors, part: null };
    return { errors, part: { service: 'google_ads', target: parsed.data, conditions } };
  },
  formFieldOf: fieldOf,
  shownErrors: /^target\.(connectionId|customer|adIds|campaignIds|linkedMonitorId)$/,
  Section: GoogleAdsSection,
};
