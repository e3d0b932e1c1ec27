import type { ConditionDefinition, Language, ServiceDefinition, ServiceId } from '@vigil/contracts';

/**
 * Every service Vigil watches, with its conditions, thresholds and bounds: the one place they are written.
 * `GET /monitor-bff/monitor-service` serves it; the engine reads condition labels from it for alerts.
 */

const LATER_RELEASE = 'Its integration opens in a later release; website and Shopify monitors work today.';

/** Check interval in seconds; the plan's shortest interval applies on top (plan-catalogue.ts). */
export const INTERVAL_SECONDS = { min: 30, max: 86_400, default: 300 } as const;
/** Minutes between repeat alerts of an unacknowledged incident; 0: alert once per event. */
export const REPEAT_INTERVAL_MINUTES = { min: 0, max: 1440, default: 30 } as const;
/** Consecutive failed checks of a condition before an incident opens. */
export const CONFIRMATIONS = { min: 1, max: 10, default: 2 } as const;

/** Several codes share a language (the web form de-duplicates by language); the code picks the voice. */
export const ALERT_LANGUAGES: readonly Language[] = [
  { languageCode: 'en-US', language: 'English' },
  { languageCode: 'en-GB', language: 'English' },
  { languageCode: 'es-ES', language: 'Spanish' },
  { languageCode: 'es-MX', language: 'Spanish' },
  { languageCode: 'fr-FR', language: 'French' },
  { languageCode: 'fr-CA', language: 'French' },
  { languageCode: 'de-DE', language: 'German' },
  { languageCode: 'it-IT', language: 'Italian' },
  { languageCode: 'pt-BR', language: 'Portuguese' },
];

export function isAlertLanguage(code: string): boolean {
  return ALERT_LANGUAGES.some((language) => language.languageCode === code);
}

const WEBSITE_CONDITIONS: ConditionDefinition[] = [
  {
    key: 'http_status',
    label: 'Error status',
    description: 'The page answers with an HTTP status outside 2xx and 3xx, or does not answer at all.',
    enabledByDefault: true,
    params: [],
  },
  {
    key: 'timeout',
    label: 'Timeout',
    description: 'The page takes longer than this to answer.',
    enabledByDefault: true,
    params: [
      {
        key: 'timeoutMs',
        label: 'Give up after',
        type: 'number',
        unit: 'ms',
        default: 10_000,
        min: 1000,
        max: 30_000,
      },
    ],
  },
  {
    key: 'keyword',
    label: 'Keyword',
    description: 'A word or phrase is missing from the page (or present, such as "Sold out").',
    enabledByDefault: false,
    params: [
      { key: 'keyword', label: 'Keyword', type: 'text', default: '' },
      {
        key: 'mode',
        label: 'Alert when the keyword is',
        type: 'text',
        default: 'missing',
        options: ['missing', 'present'],
      },
    ],
  },
  {
    key: 'slow_response',
    label: 'Slow response',
    description: 'The page answers, but slower than this.',
    enabledByDefault: false,
    params: [
      {
        key: 'thresholdMs',
        label: 'Slower than',
        type: 'number',
        unit: 'ms',
        default: 3000,
        min: 100,
        max: 30_000,
      },
    ],
  },
  {
    key: 'tls_expiry',
    label: 'Certificate expiring',
    description: 'The HTTPS certificate expires within this many days (or is already invalid).',
    enabledByDefault: true,
    params: [
      { key: 'days', label: 'Expires within', type: 'number', unit: 'days', default: 14, min: 1, max: 90 },
    ],
  },
  {
    key: 'password_page',
    label: 'Password page',
    description: 'The storefront shows a password page instead of the shop, so shoppers cannot buy.',
    enabledByDefault: false,
    params: [],
  },
];

const SPEND_CHANGE_PARAM = {
  key: 'changePercent',
  label: 'Change versus the same weekday',
  type: 'number' as const,
  unit: '%',
  default: 50,
  min: 10,
  max: 500,
};

export const SERVICE_CATALOGUE: readonly ServiceDefinition[] = [
  {
    service: 'website',
    name: 'Website',
    description: 'Any web page or storefront address: status, speed, content and certificate.',
    available: true,
    unavailableReason: null,
    targetLabel: 'Page address (https://…)',
    conditions: WEBSITE_CONDITIONS,
  },
  {
    service: 'shopify',
    name: 'Shopify store',
    description: 'Your Shopify shop and the products you choose, through the Vigil app.',
    available: true,
    unavailableReason: null,
    targetLabel: 'Shop (connect with Shopify)',
    conditions: [
      {
        key: 'storefront_down',
        label: 'Storefront down',
        description: 'The storefront does not load, or shows its password page so shoppers cannot buy.',
        enabledByDefault: true,
        params: [],
      },
      {
        key: 'checkout_broken',
        label: 'Add to cart broken',
        description: 'Adding a watched product that is in stock to the cart fails on the storefront.',
        enabledByDefault: true,
        params: [],
      },
      {
        key: 'product_out_of_stock',
        label: 'Product out of stock',
        description:
          'A watched product’s tracked stock falls to this many or fewer (products that keep selling when out of stock are left alone).',
        enabledByDefault: true,
        params: [
          {
            key: 'threshold',
            label: 'Alert at or under',
            type: 'number',
            unit: 'in stock',
            default: 0,
            min: 0,
            max: 10_000,
          },
        ],
      },
      {
        key: 'product_unpublished',
        label: 'Product unavailable',
        description: 'A watched product is archived, set to draft, deleted or taken off the online store.',
        enabledByDefault: true,
        params: [],
      },
      {
        key: 'product_price_changed',
        label: 'Price changed',
        description: 'A watched product’s price differs from its price when you chose it.',
        enabledByDefault: false,
        params: [],
      },
      {
        key: 'app_uninstalled',
        label: 'Connection lost',
        description: 'The Vigil app was uninstalled or its access revoked, so the shop is no longer watched.',
        enabledByDefault: true,
        params: [],
      },
    ],
  },
  {
    service: 'google_ads',
    name: 'Google Ads',
    description: 'A Google Ads account and its ads and campaigns.',
    available: false,
    unavailableReason: LATER_RELEASE,
    targetLabel: 'Google Ads account (connect with Google)',
    conditions: [
      {
        key: 'account_not_enabled',
        label: 'Account not enabled',
        description: 'The account is no longer ENABLED (suspended, cancelled or closed).',
        enabledByDefault: true,
        params: [],
      },
      {
        key: 'ad_disapproved',
        label: 'Ad disapproved',
        description: 'An ad is newly DISAPPROVED or APPROVED_LIMITED.',
        enabledByDefault: true,
        params: [],
      },
      {
        key: 'campaign_not_eligible',
        label: 'Campaign not serving',
        description: 'A campaign becomes NOT_ELIGIBLE or LIMITED.',
        enabledByDefault: true,
        params: [],
      },
      {
        key: 'zero_impressions',
        label: 'No impressions today',
        description: 'The account has had no impressions today by this hour (account time).',
        enabledByDefault: false,
        params: [
          { key: 'afterHour', label: 'Check after', type: 'number', unit: 'h', default: 12, min: 1, max: 23 },
        ],
      },
      {
        key: 'spend_anomaly',
        label: 'Spend spike or drop',
        description: "Today's spend differs from the same weekday's usual spend by more than this.",
        enabledByDefault: false,
        params: [SPEND_CHANGE_PARAM],
      },
    ],
  },
  {
    service: 'facebook_ads',
    name: 'Meta ads',
    description: 'A Facebook/Instagram ad account and the ad sets you choose.',
    available: false,
    unavailableReason: LATER_RELEASE,
    targetLabel: 'Ad account (connect with Meta)',
    conditions: [
      {
        key: 'account_status',
        label: 'Account not active',
        description: 'The ad account is disabled, unsettled, in risk review, in a grace period or closed.',
        enabledByDefault: true,
        params: [],
      },
      {
        key: 'adset_disapproved',
        label: 'Ad set or ad rejected',
        description: 'A chosen ad set or ad is DISAPPROVED or WITH_ISSUES.',
        enabledByDefault: true,
        params: [],
      },
      {
        key: 'spend_cap',
        label: 'Spend cap reached',
        description: 'The amount spent reaches this share of the account spend cap.',
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
      {
        key: 'spend_anomaly',
        label: 'Spend spike or drop',
        description: "Today's spend differs from the same weekday's usual spend by more than this.",
        enabledByDefault: false,
        params: [SPEND_CHANGE_PARAM],
      },
    ],
  },
];

export function findService(service: string): ServiceDefinition | undefined {
  return SERVICE_CATALOGUE.find((definition) => definition.service === service);
}

/** The condition's label for people ("Keyword"), or its key when the catalogue no longer has it. */
export function conditionLabel(service: ServiceId | string, conditionKey: string): string {
  const condition = findService(service)?.conditions.find((c) => c.key === conditionKey);
  return condition?.label ?? conditionKey;
}

/** What a monitor watches, in a few words for an alert: the address, or the shop and how many products. */
export function describeTarget(service: string, target: unknown): string {
  const value = (target ?? {}) as { url?: unknown; shop?: unknown; products?: unknown };
  if (service === 'shopify' && typeof value.shop === 'string') {
    const count = Array.isArray(value.products) ? value.products.length : 0;
    return count > 0 ? `${value.shop} (${count} product${count === 1 ? '' : 's'})` : value.shop;
  }
  return typeof value.url === 'string' ? value.url : '';
}
