import type { ConditionDefinition } from '@vigil/contracts';

/** The conditions both ads services share, as the catalogue lists them. */

export const SPEND_ANOMALY: ConditionDefinition = {
  key: 'spend_anomaly',
  label: 'Spend spike or drop',
  description:
    'Spend so far today differs from the usual spend by this time on the same weekday (the last 4 weeks) by more than this, either way.',
  enabledByDefault: true,
  params: [
    {
      key: 'changePercent',
      label: 'Change versus the same weekday',
      type: 'number',
      unit: '%',
      default: 50,
      min: 10,
      max: 500,
    },
  ],
};

export const SHOP_CANNOT_SELL: ConditionDefinition = {
  key: 'shop_cannot_sell',
  label: 'Ads spending while the shop cannot sell',
  description:
    'The linked website or Shopify monitor has an open incident while the ads keep spending: one alert with the spend since it broke and what to pause, instead of the account’s own alerts on top.',
  enabledByDefault: true,
  params: [],
};

export const connectionLost = (provider: string, extra = ''): ConditionDefinition => ({
  key: 'connection_lost',
  label: 'Connection lost',
  description: `${provider} no longer lets Vigil read the account (access revoked or expired)${extra}: reconnect to keep watching.`,
  enabledByDefault: true,
  params: [],
});
