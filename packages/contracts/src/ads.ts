import { z } from 'zod';
import { envelope } from './envelope.ts';
import { GOOGLE_ADS_MAX_ADS, GOOGLE_ADS_MAX_CAMPAIGNS, META_MAX_AD_SETS } from './ads-values.ts';

/**
 * What the two ads services (`google_ads`, `facebook_ads`) share: the on/off switches, the spend baseline,
 * and the link to a shop monitor whose outage makes the ads a waste of money.
 */
export const onOff = z.object({ enabled: z.boolean() });

/** Spend today versus the same weekday's usual spend (the last 4 weeks), in percent either way. */
export const spendAnomalyCondition = onOff.extend({
  changePercent: z.number().int().min(10).max(500),
});

/**
 * A website or Shopify monitor of the same person: while it has an open incident the ads monitor raises one
 * "ads are spending while the shop cannot sell" alert, and holds back the ad account's own alerts.
 */
export const linkedMonitorId = z
  .uuid({ error: 'Choose one of your website or Shopify monitors.' })
  .nullable();

// ---------------------------------------------------------------------------------------------------------
// Google Ads
// ---------------------------------------------------------------------------------------------------------

export const googleAdsConditions = z.object({
  /** `customer.status` is not ENABLED (suspended, cancelled, closed). */
  account_not_enabled: onOff,
  /** A watched ad (or any serving ad of the watched campaigns or account) is DISAPPROVED or APPROVED_LIMITED. */
  ad_disapproved: onOff,
  /** A watched campaign's `primary_status` is NOT_ELIGIBLE or LIMITED. */
  campaign_not_eligible: onOff,
  /** No impressions so far today, by an hour that usually has them on this weekday. */
  zero_impressions: onOff,
  spend_anomaly: spendAnomalyCondition,
  /** Google refused the connection's refresh token (`invalid_grant`): access was revoked. */
  connection_lost: onOff,
  /** The linked shop monitor has an open incident while the ads keep spending. */
  shop_cannot_sell: onOff,
});
export type GoogleAdsConditions = z.infer<typeof googleAdsConditions>;
export type GoogleAdsConditionKey = keyof GoogleAdsConditions;

const customerResourceName = z
  .string({ error: 'Choose a Google Ads account.' })
  .regex(/^customers\/\d{1,20}$/, 'Choose a Google Ads account from the list.');
const adResourceName = z
  .string()
  .regex(/^customers\/\d{1,20}\/adGroupAds\/\d{1,20}~\d{1,20}$/, 'Choose ads from the account’s list.');

/** What the form sends: the connection, the account (customer), and optionally campaigns or ads to watch. */
export const googleAdsTargetInput = z.object({
  connectionId: z.uuid({ error: 'Connect a Google account first.' }),
  customer: customerResourceName,
  /** Chosen campaigns (ids); with no campaigns and no ads, the whole account is watched. */
  campaignIds: z
    .array(z.string().regex(/^\d{1,20}$/, 'Choose campaigns from the account’s list.'))
    .max(GOOGLE_ADS_MAX_CAMPAIGNS, `Choose at most ${GOOGLE_ADS_MAX_CAMPAIGNS} campaigns for one monitor.`)
    .default([]),
  /** Chosen ads, by resource name (`customers/1/adGroupAds/2~3`). */
  adIds: z
    .array(adResourceName)
    .max(GOOGLE_ADS_MAX_ADS, `Choose at most ${GOOGLE_ADS_MAX_ADS} ads for one monitor.`)
    .default([]),
  linkedMonitorId: linkedMonitorId.default(null),
});
export type GoogleAdsTargetInput = z.infer<typeof googleAdsTargetInput>;

export const googleAdsCustomerRef = z.object({
  resourceName: z.string(),
  customerId: z.string(),
  name: z.string(),
  currency: z.string(),
  timeZone: z.string(),
  /** The manager whose access reaches this customer (sent as `login-customer-id`), or null for direct access. */
  loginCustomerId: z.string().nullable(),
});

/** What a Google Ads monitor stores and answers: the account and the campaigns and ads chosen, named. */
export const googleAdsTarget = z.object({
  connectionId: z.string(),
  customer: googleAdsCustomerRef,
  campaigns: z.array(z.object({ campaignId: z.string(), name: z.string() })),
  ads: z.array(
    z.object({
      resourceName: z.string(),
      adId: z.string(),
      name: z.string(),
      adGroupName: z.string(),
      campaignId: z.string(),
      campaignName: z.string(),
    }),
  ),
  linkedMonitorId: z.string().nullable(),
});
export type GoogleAdsTarget = z.infer<typeof googleAdsTarget>;

/** Name the monitor (`monitor_id`, as the spec does) or, for a monitor being created, the connection. */
const monitorOrConnection = {
  monitor_id: z.uuid({ error: 'That monitor does not exist.' }).optional(),
  connectionId: z.uuid({ error: 'That connection does not exist.' }).optional(),
};
const needsMonitorOrConnection = <
  T extends { monitor_id?: string | undefined; connectionId?: string | undefined },
>(
  query: T,
) => query.monitor_id !== undefined || query.connectionId !== undefined;
const NEEDS_MONITOR_OR_CONNECTION = {
  message: 'Name the monitor (monitor_id) or the connection (connectionId).',
  path: ['monitor_id'],
};

// ---- `GET /monitor-bff/monitor/google-customers` ----
export const googleCustomersQuery = z
  .object(monitorOrConnection)
  .refine(needsMonitorOrConnection, NEEDS_MONITOR_OR_CONNECTION);

export const googleCustomer = googleAdsCustomerRef.extend({
  status: z.string(),
  manager: z.boolean(),
  /** A manager's client accounts, reached with its id as `login-customer-id`. */
  clients: z.array(googleAdsCustomerRef.extend({ status: z.string(), manager: z.boolean() })),
});
export type GoogleCustomer = z.infer<typeof googleCustomer>;
export const googleCustomersResponse = envelope(z.object({ list: z.array(googleCustomer) }));

// ---- `GET /monitor-bff/monitor/google-customerads` ----
export const googleCustomerAdsQuery = z
  .object({ ...monitorOrConnection, resource_name: customerResourceName })
  .refine(needsMonitorOrConnection, NEEDS_MONITOR_OR_CONNECTION);

export const googleAd = z.object({
  resourceName: z.string(),
  adId: z.string(),
  name: z.string(),
  status: z.string(),
  /** `policy_summary.approval_status`: APPROVED, APPROVED_LIMITED, DISAPPROVED, … */
  approvalStatus: z.string(),
  /** Policy topics of the ad's policy entries (`DESTINATION_NOT_WORKING`). */
  policyTopics: z.array(z.string()),
});
export const googleCampaign = z.object({
  campaignId: z.string(),
  name: z.string(),
  status: z.string(),
  primaryStatus: z.string(),
  primaryStatusReasons: z.array(z.string()),
  adGroups: z.array(
    z.object({ adGroupId: z.string(), name: z.string(), status: z.string(), ads: z.array(googleAd) }),
  ),
});
export type GoogleCampaign = z.infer<typeof googleCampaign>;
export const googleCustomerAdsResponse = envelope(
  z.object({
    customer: googleAdsCustomerRef.extend({ status: z.string() }),
    campaigns: z.array(googleCampaign),
  }),
);
export type GoogleCustomerAds = z.infer<typeof googleCustomerAdsResponse>['data'];

// ---------------------------------------------------------------------------------------------------------
// Meta (facebook_ads)
// ---------------------------------------------------------------------------------------------------------

export const metaAdsConditions = z.object({
  /** `account_status` is not 1: disabled, unsettled, risk review, grace period, closed. */
  account_status: onOff,
  /** A watched ad set, or one of its ads, is DISAPPROVED or WITH_ISSUES. */
  adset_disapproved: onOff,
  /** `amount_spent` is within this share of `spend_cap`. */
  spend_cap: onOff.extend({ percent: z.number().int().min(50).max(100) }),
  spend_anomaly: spendAnomalyCondition,
  /** Meta refused the token (error 190), or it ends within a week. */
  connection_lost: onOff,
  shop_cannot_sell: onOff,
});
export type MetaAdsConditions = z.infer<typeof metaAdsConditions>;
export type MetaAdsConditionKey = keyof MetaAdsConditions;

const adAccountId = z
  .string({ error: 'Choose an ad account.' })
  .trim()
  .transform((value) => value.replace(/^act_/, ''))
  .pipe(z.string().regex(/^\d{1,20}$/, 'Choose an ad account from the list.'));

export const metaAdsTargetInput = z.object({
  connectionId: z.uuid({ error: 'Connect a Facebook account first.' }),
  accountId: adAccountId,
  /** Chosen ad sets; with none, every active ad set of the account is watched. */
  adSetIds: z
    .array(z.string().regex(/^\d{1,25}$/, 'Choose ad sets from the account’s list.'))
    .max(META_MAX_AD_SETS, `Choose at most ${META_MAX_AD_SETS} ad sets for one monitor.`)
    .default([]),
  linkedMonitorId: linkedMonitorId.default(null),
});
export type MetaAdsTargetInput = z.infer<typeof metaAdsTargetInput>;

export const metaAccountRef = z.object({
  accountId: z.string(),
  name: z.string(),
  currency: z.string(),
  timeZone: z.string(),
});

export const metaAdsTarget = z.object({
  connectionId: z.string(),
  account: metaAccountRef,
  adSets: z.array(z.object({ adSetId: z.string(), name: z.string(), campaignName: z.string() })),
  linkedMonitorId: z.string().nullable(),
});
export type MetaAdsTarget = z.infer<typeof metaAdsTarget>;

const cursorPage = z.object({
  /** Pass as `after` for the next page; null on the last. */
  after: z.string().nullable(),
  before: z.string().nullable(),
});

// ---- `GET /monitor-bff/monitor/facebook/account` ----
export const facebookAccountsQuery = z
  .object({
    ...monitorOrConnection,
    after: z.string().max(500).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(25),
  })
  .refine(needsMonitorOrConnection, NEEDS_MONITOR_OR_CONNECTION);

export const facebookAccount = metaAccountRef.extend({
  accountStatus: z.number().int(),
  /** `account_status` in words ("pending risk review"). */
  statusLabel: z.string(),
  disableReason: z.number().int(),
  disableReasonLabel: z.string().nullable(),
  /** In the currency's major unit, as a decimal string ("1234.56"). */
  amountSpent: z.string(),
  /** Null when the account has no cap. */
  spendCap: z.string().nullable(),
});
export type FacebookAccount = z.infer<typeof facebookAccount>;
export const facebookAccountsResponse = envelope(
  z.object({ list: z.array(facebookAccount), paging: cursorPage }),
);

// ---- `GET /monitor-bff/monitor/facebook/adsets` ----
export const facebookAdSetsQuery = z
  .object({
    ...monitorOrConnection,
    account_id: adAccountId,
    after: z.string().max(500).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  })
  .refine(needsMonitorOrConnection, NEEDS_MONITOR_OR_CONNECTION);

export const facebookAdSet = z.object({
  adSetId: z.string(),
  name: z.string(),
  campaignName: z.string(),
  effectiveStatus: z.string(),
  /** Budgets in the currency's major unit; null when the ad set has none of that kind. */
  dailyBudget: z.string().nullable(),
  lifetimeBudget: z.string().nullable(),
  /** `issues_info`, as Meta words each issue. */
  issues: z.array(z.string()),
});
export type FacebookAdSet = z.infer<typeof facebookAdSet>;
export const facebookAdSetsResponse = envelope(
  z.object({ account: metaAccountRef, list: z.array(facebookAdSet), paging: cursorPage }),
);
