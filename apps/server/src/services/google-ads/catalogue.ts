import type { ServiceDefinition } from '@vigil/contracts';
import { connectionLost, SHOP_CANNOT_SELL, SPEND_ANOMALY } from '../ads/catalogue.ts';

/** The `google_ads` service's catalogue entry (contracts' `googleAdsConditions`). */
export const GOOGLE_ADS_SERVICE: ServiceDefinition = {
  service: 'google_ads',
  name: 'Google Ads',
  description: 'A Google Ads account, or the campaigns and ads you choose in it.',
  available: true,
  unavailableReason: null,
  targetLabel: 'Google Ads account (connect with Google)',
  conditions: [
    {
      key: 'account_not_enabled',
      label: 'Account not enabled',
      description: 'The account is no longer ENABLED: suspended, cancelled or closed.',
      enabledByDefault: true,
      params: [],
    },
    {
      key: 'ad_disapproved',
      label: 'Ad disapproved',
      description:
        'A watched ad (or, watching a campaign or the account, any ad meant to serve) is DISAPPROVED or APPROVED_LIMITED, with its policy topic.',
      enabledByDefault: true,
      params: [],
    },
    {
      key: 'campaign_not_eligible',
      label: 'Campaign not serving',
      description: 'A watched campaign’s primary status becomes NOT_ELIGIBLE or LIMITED, with the reasons.',
      enabledByDefault: true,
      params: [],
    },
    {
      key: 'zero_impressions',
      label: 'No impressions today',
      description:
        'No impressions so far today by an hour that usually has them on this weekday (account time zone).',
      enabledByDefault: true,
      params: [],
    },
    SPEND_ANOMALY,
    connectionLost('Google'),
    SHOP_CANNOT_SELL,
  ],
};
