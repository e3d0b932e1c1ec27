import type { Language, ServiceDefinition, ServiceId } from '@vigil/contracts';
import { GOOGLE_ADS_SERVICE } from '../../services/google-ads/catalogue.ts';
import { META_ADS_SERVICE } from '../../services/meta-ads/catalogue.ts';
import { SHOPIFY_SERVICE } from '../../services/shopify/catalogue.ts';
import { WEBSITE_SERVICE } from '../../services/website/catalogue.ts';

/**
 * Every service Vigil watches, with its conditions, thresholds and bounds. Each entry lives in its service's
 * folder (`services/<service>/catalogue.ts`) beside its checker and adapter. `GET /monitor-bff/monitor-service`
 * serves it (a service whose provider app is not configured is marked unavailable); the engine reads condition
 * labels from it.
 */

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

export const SERVICE_CATALOGUE: readonly ServiceDefinition[] = [
  WEBSITE_SERVICE,
  SHOPIFY_SERVICE,
  GOOGLE_ADS_SERVICE,
  META_ADS_SERVICE,
];

export function findService(service: string): ServiceDefinition | undefined {
  return SERVICE_CATALOGUE.find((definition) => definition.service === service);
}

/** The condition's label for people ("Keyword"), or its key when the catalogue no longer has it. */
export function conditionLabel(service: ServiceId | string, conditionKey: string): string {
  const condition = findService(service)?.conditions.find((c) => c.key === conditionKey);
  return condition?.label ?? conditionKey;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * What a monitor watches, in a few words for an alert: the address; the shop and how many products; the ad
 * account and how many campaigns, ads or ad sets.
 */
export function describeTarget(service: string, target: unknown): string {
  const value = (target ?? {}) as {
    url?: unknown;
    shop?: unknown;
    products?: unknown;
    customer?: { name?: unknown; customerId?: unknown };
    campaigns?: unknown;
    ads?: unknown;
    account?: { name?: unknown; accountId?: unknown };
    adSets?: unknown;
  };
  const count = (items: unknown) => (Array.isArray(items) ? items.length : 0);
  if (service === 'google_ads' && value.customer) {
    const chosen = [
      count(value.campaigns) ? plural(count(value.campaigns), 'campaign') : '',
      count(value.ads) ? plural(count(value.ads), 'ad') : '',
    ].filter(Boolean);
    const name = `Google Ads ${String(value.customer.name)} (${String(value.customer.customerId)})`;
    return chosen.length ? `${name}: ${chosen.join(' and ')}` : name;
  }
  if (service === 'facebook_ads' && value.account) {
    const name = `Meta ad account ${String(value.account.name)} (act_${String(value.account.accountId)})`;
    return count(value.adSets) ? `${name}: ${plural(count(value.adSets), 'ad set')}` : name;
  }
  if (service === 'shopify' && typeof value.shop === 'string') {
    const count = Array.isArray(value.products) ? value.products.length : 0;
    return count > 0 ? `${value.shop} (${count} product${count === 1 ? '' : 's'})` : value.shop;
  }
  return typeof value.url === 'string' ? value.url : '';
}
