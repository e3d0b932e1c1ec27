import type { Language, ServiceDefinition, ServiceId } from '@vigil/contracts';
import { SHOPIFY_SERVICE } from '../../services/shopify/catalogue.ts';
import { WEBSITE_SERVICE } from '../../services/website/catalogue.ts';

/**
 * Every service Vigil watches, with its conditions, thresholds and bounds. A built service's entry lives in its
 * own folder (`services/<service>/catalogue.ts`) beside its checker and adapter; the ones still to be built are
 * written here. `GET /monitor-bff/monitor-service` serves it; the engine reads condition labels from it.
 */

/** Why a service still to be built cannot be chosen; the web app leaves such services off its pages. */
const NOT_BUILT = 'Vigil does not watch this service yet; it watches websites and Shopify shops.';

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
  WEBSITE_SERVICE,
  SHOPIFY_SERVICE,
  {
    service: 'google_ads',
    name: 'Google Ads',
    description: 'A Google Ads account and its ads and campaigns.',
    available: false,
    unavailableReason: NOT_BUILT,
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
    unavailableReason: NOT_BUILT,
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
