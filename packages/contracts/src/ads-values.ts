/**
 * The ads contract's plain values, apart from its zod schemas (ads.ts): the web app's first pages import
 * these without loading zod.
 */

/** Weeks of the same weekday a spend or impressions baseline is built from. */
export const BASELINE_WEEKS = 4;

/** Fewer weeks with data than this, and the baseline conditions are not judged (the detail says why). */
export const BASELINE_MIN_WEEKS = 2;

/** Ads one Google Ads monitor watches at most, and campaigns. */
export const GOOGLE_ADS_MAX_ADS = 50;

export const GOOGLE_ADS_MAX_CAMPAIGNS = 50;

/** Ad sets one Meta monitor watches at most. */
export const META_MAX_AD_SETS = 50;

export const GOOGLE_CUSTOMER_STATUSES = ['ENABLED', 'SUSPENDED', 'CANCELED', 'CLOSED', 'UNKNOWN'] as const;

/** Meta's `account_status` values, as people read them. 1 is the only one that serves ads. */
export const META_ACCOUNT_STATUS: Readonly<Record<number, string>> = {
  1: 'active',
  2: 'disabled',
  3: 'unsettled (a payment failed)',
  7: 'pending risk review',
  8: 'pending settlement',
  9: 'in a grace period',
  100: 'pending closure',
  101: 'closed',
  201: 'active',
  202: 'closed',
};

/** Meta's `disable_reason` values. */
export const META_DISABLE_REASON: Readonly<Record<number, string>> = {
  0: 'no reason given',
  1: 'ads integrity policy',
  2: 'ads IP review',
  3: 'risk payment',
  4: 'gray account shut down',
  5: 'ads AFC review',
  6: 'business integrity RAR',
  7: 'permanently closed',
  8: 'unused reseller account',
  9: 'unused account',
  10: 'umbrella ad account',
  11: 'business manager integrity policy',
  12: 'misrepresented ad account',
  13: 'AOAB deshare legal entity',
  14: 'CTX thread review',
  15: 'compromised ad account',
};
