import type { ServiceDefinition } from '@vigil/contracts';
import { connectionLost, SHOP_CANNOT_SELL, SPEND_ANOMALY } from '../ads/catalogue.ts';

/** The `facebook_ads` service's catalogue entry (contracts' `metaAdsConditions`). */
export const META_ADS_SERVICE: ServiceDefinition = {
  service: 'facebook_ads',
  name: 'Meta ads',
  description: 'A Facebook and Instagram ad account, or the ad sets you choose in it.',
  available: true,
  unavailableReason: null,
  targetLabel: 'Ad account (connect with Facebook)',
  conditions: [
    {
      key: 'account_status',
      label: 'Account not active',
      description:
        'The ad account is disabled, unsettled, in risk review, in a grace period or closed; the alert says which and why.',
      enabledByDefault: true,
      params: [],
    },
    {
      key: 'adset_disapproved',
      label: 'Ad set or ad rejected',
      description: 'A watched ad set, or one of its ads, is DISAPPROVED or WITH_ISSUES.',
      enabledByDefault: true,
      params: [],
    },
    {
      key: 'spend_cap',
      label: 'Spend cap nearly reached',
      description: 'The amount spent reaches this share of the account’s spend cap, after which ads stop.',
      enabledByDefault: true,
      params: [
        {
          key: 'percent',
          label: 'Share of the cap',
          type: 'number',
          unit: '%',
          default: 90,
          min: 50,
          max: 100,
        },
      ],
    },
    SPEND_ANOMALY,
    connectionLost('Meta', ', or its access ends within a week'),
    SHOP_CANNOT_SELL,
  ],
};
