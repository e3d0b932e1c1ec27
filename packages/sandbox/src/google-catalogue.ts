/**
 * The Google Ads stand-in's records (customers, campaigns, ad groups, ads, users), the demo accounts the
 * embedded sandbox starts with, and the seeded hourly metrics: a pure function of customer, campaign, date and
 * hour, so every run and every page of a report sees the same numbers.
 */

export const CUSTOMER_STATUSES = ['ENABLED', 'SUSPENDED', 'CANCELED', 'CLOSED'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];
export const ENTITY_STATUSES = ['ENABLED', 'PAUSED', 'REMOVED'] as const;
export type EntityStatus = (typeof ENTITY_STATUSES)[number];
export const CAMPAIGN_PRIMARY_STATUSES = [
  'ELIGIBLE',
  'PAUSED',
  'REMOVED',
  'ENDED',
  'PENDING',
  'MISCONFIGURED',
  'LIMITED',
  'LEARNING',
  'NOT_ELIGIBLE',
] as const;
export type CampaignPrimaryStatus = (typeof CAMPAIGN_PRIMARY_STATUSES)[number];
/** Google's CampaignPrimaryStatusReason values (v21), the ones a monitor is likely to meet. */
export const CAMPAIGN_PRIMARY_STATUS_REASONS = [
  'CAMPAIGN_REMOVED',
  'CAMPAIGN_PAUSED',
  'CAMPAIGN_PENDING',
  'CAMPAIGN_ENDED',
  'CAMPAIGN_DRAFT',
  'BIDDING_STRATEGY_MISCONFIGURED',
  'BIDDING_STRATEGY_LIMITED',
  'BIDDING_STRATEGY_LEARNING',
  'BIDDING_STRATEGY_CONSTRAINED',
  'BUDGET_CONSTRAINED',
  'BUDGET_MISCONFIGURED',
  'SEARCH_VOLUME_LIMITED',
  'AD_GROUPS_PAUSED',
  'NO_AD_GROUPS',
  'KEYWORDS_PAUSED',
  'NO_KEYWORDS',
  'AD_GROUP_ADS_PAUSED',
  'NO_AD_GROUP_ADS',
  'HAS_ADS_LIMITED_BY_POLICY',
  'HAS_ADS_DISAPPROVED',
  'MOST_ADS_UNDER_REVIEW',
  'MISSING_LOCATION_TARGETING',
] as const;
export type CampaignPrimaryStatusReason = (typeof CAMPAIGN_PRIMARY_STATUS_REASONS)[number];
export const APPROVAL_STATUSES = [
  'APPROVED',
  'APPROVED_LIMITED',
  'DISAPPROVED',
  'AREA_OF_INTEREST_ONLY',
] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export const REVIEW_STATUSES = [
  'REVIEW_IN_PROGRESS',
  'REVIEWED',
  'UNDER_APPEAL',
  'ELIGIBLE_MAY_SERVE',
] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const POLICY_TOPIC_TYPES = [
  'PROHIBITED',
  'LIMITED',
  'FULLY_LIMITED',
  'DESCRIPTIVE',
  'BROADENING',
  'AREA_OF_INTEREST_ONLY',
] as const;
export type PolicyTopicType = (typeof POLICY_TOPIC_TYPES)[number];
export const CHANNEL_TYPES = ['SEARCH', 'DISPLAY', 'SHOPPING', 'VIDEO', 'PERFORMANCE_MAX'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export const AD_TYPES = ['RESPONSIVE_SEARCH_AD', 'RESPONSIVE_DISPLAY_AD', 'SHOPPING_PRODUCT_AD'] as const;
export type AdType = (typeof AD_TYPES)[number];
export const DAYS_OF_WEEK = [
  'SUNDAY',
  'MONDAY',
  'TUESDAY',
  'WEDNESDAY',
  'THURSDAY',
  'FRIDAY',
  'SATURDAY',
] as const;

export interface PolicyTopic {
  topic: string;
  type: PolicyTopicType;
}

export interface AdsAd {
  id: string;
  adGroup: AdsAdGroup;
  name: string;
  type: AdType;
  finalUrls: string[];
  status: EntityStatus;
  approvalStatus: ApprovalStatus;
  reviewStatus: ReviewStatus;
  policyTopics: PolicyTopic[];
  /** The ad's share of its campaign's traffic, out of the campaign's `adWeight`. */
  weight: number;
}

export interface AdsAdGroup {
  id: string;
  campaign: AdsCampaign;
  name: string;
  status: EntityStatus;
  ads: AdsAd[];
}

export interface AdsCampaign {
  id: string;
  customer: AdsCustomer;
  name: string;
  status: EntityStatus;
  primaryStatus: CampaignPrimaryStatus;
  primaryStatusReasons: CampaignPrimaryStatusReason[];
  channelType: ChannelType;
  /** Impressions on an average weekday; 0 for a campaign that never served (paused from the start). */
  dailyImpressions: number;
  ctr: number;
  cpcMicros: number;
  adGroups: AdsAdGroup[];
  ads: AdsAd[];
  adWeight: number;
  seed: number;
}

export interface AdsCustomer {
  id: string;
  descriptiveName: string;
  currencyCode: string;
  timeZone: string;
  status: CustomerStatus;
  manager: boolean;
  testAccount: boolean;
  managerId: string | null;
  /** Direct clients of a manager, in the order they were linked. */
  clientIds: string[];
  campaigns: AdsCampaign[];
  campaignsById: Map<string, AdsCampaign>;
  adGroups: AdsAdGroup[];
  ads: AdsAd[];
  adsById: Map<string, AdsAd>;
  /** Today's traffic is multiplied by this (0: nothing served today); history is untouched. */
  todayFactor: number;
}

export interface AdsUser {
  email: string;
  name: string;
  /** Google's stable account id, the id_token's `sub`. */
  sub: string;
  /** Customers the user was invited to directly; their clients are reached through login-customer-id. */
  customerIds: string[];
}

export interface AdSpec {
  name: string;
  type?: AdType;
  finalUrl: string;
}

export interface CampaignSpec {
  name: string;
  channelType: ChannelType;
  paused?: boolean;
  dailyImpressions: number;
  ctr: number;
  cpcMicros: number;
  adGroups: { name: string; ads: AdSpec[] }[];
}

export interface CustomerSpec {
  id: string;
  name: string;
  currencyCode: string;
  timeZone: string;
  manager?: boolean;
  clients?: CustomerSpec[];
  campaigns?: CampaignSpec[];
}

const hoodie = (path: string) => `https://hoodie-co.example/${path}`;
const caps = (path: string) => `https://cap-co.example/${path}`;
const solo = (path: string) => `https://solo-shop.example/${path}`;

export const DEMO_MANAGER_ID = '1112223333';

export const DEMO_CUSTOMERS: CustomerSpec[] = [
  {
    id: DEMO_MANAGER_ID,
    name: 'Vigil Demo Agency (MCC)',
    currencyCode: 'USD',
    timeZone: 'America/New_York',
    manager: true,
    clients: [
      {
        id: '2223334444',
        name: 'Hoodie Co',
        currencyCode: 'USD',
        timeZone: 'America/New_York',
        campaigns: [
          {
            name: 'Everyday hoodie — search',
            channelType: 'SEARCH',
            dailyImpressions: 4200,
            ctr: 0.045,
            cpcMicros: 850_000,
            adGroups: [
              {
                name: 'Hoodies — brand',
                ads: [
                  { name: 'Everyday hoodie — search', finalUrl: hoodie('products/everyday-hoodie') },
                  { name: 'Zip hoodie — search', finalUrl: hoodie('products/zip-hoodie') },
                ],
              },
              {
                name: 'Hoodies — generic',
                ads: [{ name: 'Warm hoodie — search', finalUrl: hoodie('collections/hoodies') }],
              },
            ],
          },
          {
            name: 'Winter sale — display',
            channelType: 'DISPLAY',
            dailyImpressions: 18_000,
            ctr: 0.006,
            cpcMicros: 420_000,
            adGroups: [
              {
                name: 'Winter sale — remarketing',
                ads: [
                  {
                    name: 'Winter sale — display',
                    type: 'RESPONSIVE_DISPLAY_AD',
                    finalUrl: hoodie('collections/sale'),
                  },
                  {
                    name: 'Winter sale — square banner',
                    type: 'RESPONSIVE_DISPLAY_AD',
                    finalUrl: hoodie('collections/sale'),
                  },
                ],
              },
            ],
          },
          {
            name: 'Summer tees — search',
            channelType: 'SEARCH',
            paused: true,
            dailyImpressions: 0,
            ctr: 0.04,
            cpcMicros: 700_000,
            adGroups: [
              {
                name: 'Tees',
                ads: [
                  { name: 'Summer tee — search', finalUrl: hoodie('products/summer-tee') },
                  { name: 'Linen tee — search', finalUrl: hoodie('products/linen-tee') },
                ],
              },
            ],
          },
        ],
      },
      {
        id: '3334445555',
        name: 'Cap Co',
        currencyCode: 'EUR',
        timeZone: 'Europe/Paris',
        campaigns: [
          {
            name: 'Caps — search',
            channelType: 'SEARCH',
            dailyImpressions: 2600,
            ctr: 0.05,
            cpcMicros: 610_000,
            adGroups: [
              {
                name: 'Baseball caps',
                ads: [
                  { name: 'Classic cap — search', finalUrl: caps('products/classic-cap') },
                  { name: 'Trucker cap — search', finalUrl: caps('products/trucker-cap') },
                ],
              },
              { name: 'Beanies', ads: [{ name: 'Wool beanie — search', finalUrl: caps('products/beanie') }] },
            ],
          },
          {
            name: 'Caps — shopping',
            channelType: 'SHOPPING',
            dailyImpressions: 7400,
            ctr: 0.012,
            cpcMicros: 380_000,
            adGroups: [
              {
                name: 'All caps',
                ads: [
                  {
                    name: 'All caps — shopping',
                    type: 'SHOPPING_PRODUCT_AD',
                    finalUrl: caps('collections/all'),
                  },
                  {
                    name: 'New caps — shopping',
                    type: 'SHOPPING_PRODUCT_AD',
                    finalUrl: caps('collections/new'),
                  },
                ],
              },
            ],
          },
          {
            name: 'Spring launch — display',
            channelType: 'DISPLAY',
            paused: true,
            dailyImpressions: 0,
            ctr: 0.005,
            cpcMicros: 300_000,
            adGroups: [
              {
                name: 'Spring launch',
                ads: [
                  {
                    name: 'Spring launch — display',
                    type: 'RESPONSIVE_DISPLAY_AD',
                    finalUrl: caps('spring'),
                  },
                  { name: 'Spring launch — banner', type: 'RESPONSIVE_DISPLAY_AD', finalUrl: caps('spring') },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
  {
    id: '4445556666',
    name: 'Solo Shop Ads',
    currencyCode: 'GBP',
    timeZone: 'Europe/London',
    campaigns: [
      {
        name: 'Solo shop — search',
        channelType: 'SEARCH',
        dailyImpressions: 1500,
        ctr: 0.055,
        cpcMicros: 520_000,
        adGroups: [
          {
            name: 'Candles',
            ads: [
              { name: 'Soy candles — search', finalUrl: solo('products/soy-candle') },
              { name: 'Gift sets — search', finalUrl: solo('collections/gifts') },
            ],
          },
        ],
      },
      {
        name: 'Autumn promo — display',
        channelType: 'DISPLAY',
        paused: true,
        dailyImpressions: 0,
        ctr: 0.006,
        cpcMicros: 250_000,
        adGroups: [
          {
            name: 'Autumn promo',
            ads: [
              { name: 'Autumn promo — display', type: 'RESPONSIVE_DISPLAY_AD', finalUrl: solo('autumn') },
              { name: 'Autumn promo — banner', type: 'RESPONSIVE_DISPLAY_AD', finalUrl: solo('autumn') },
            ],
          },
        ],
      },
    ],
  },
];

export const DEMO_USERS: AdsUser[] = [
  {
    email: 'merchant@vigil.test',
    name: 'Demo Merchant',
    sub: '108204268033311234567',
    customerIds: [DEMO_MANAGER_ID, '4445556666'],
  },
  {
    email: 'agency@vigil.test',
    name: 'Demo Agency',
    sub: '108204268033319876543',
    customerIds: [DEMO_MANAGER_ID],
  },
];

/** Campaigns, ad groups and ads for a generated benchmark customer: `adCount` ads over a few campaigns. */
export function generatedCampaigns(label: string, adCount: number, campaignCount: number): CampaignSpec[] {
  const campaigns: CampaignSpec[] = [];
  for (let c = 0; c < campaignCount; c += 1) {
    const ads: AdSpec[] = [];
    for (let a = c; a < adCount; a += campaignCount) {
      ads.push({ name: `${label} ad ${a + 1}`, finalUrl: `https://shop-${slug(label)}.example/p/${a + 1}` });
    }
    campaigns.push({
      name: `${label} campaign ${c + 1}`,
      channelType: c % 2 === 0 ? 'SEARCH' : 'DISPLAY',
      dailyImpressions: 800 + ((c * 937) % 4000),
      ctr: 0.03,
      cpcMicros: 500_000,
      adGroups: [{ name: `${label} ad group ${c + 1}`, ads }],
    });
  }
  return campaigns;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'shop'
  );
}

// ---- Time in a customer's time zone: reports are by the account's local date and hour. ----

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

export interface LocalClock {
  /** Days since 1970-01-01 of the local date. */
  today: number;
  hour: number;
  /** How much of the current hour has passed, 0 to 1. */
  hourFraction: number;
}

export function localClock(now: number, timeZone: string): LocalClock {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(now).map((p) => [p.type, p.value]));
  const today = Math.floor(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)) / DAY_MS);
  const seconds = Number(parts.minute) * 60 + Number(parts.second) + (now % 1000) / 1000;
  return { today, hour: Number(parts.hour), hourFraction: seconds / 3600 };
}

export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

export function dayToDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** 'YYYY-MM-DD' → days since epoch, or null when it is not a real date. */
export function dateToDay(date: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(ms) || dayToDate(ms / DAY_MS) !== date ? null : ms / DAY_MS;
}

/** 0 = Sunday. */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

// ---- Seeded traffic. ----

/** Days of history each serving campaign has, today included. */
export const HISTORY_DAYS = 35;

export interface Metrics {
  impressions: number;
  clicks: number;
  costMicros: number;
}

/** Share of a day's impressions by local hour: nothing from 1:00 to 5:59, a midday and an evening peak. */
const HOUR_CURVE = [
  0.3, 0, 0, 0, 0, 0, 0.2, 0.5, 0.8, 1.0, 1.1, 1.2, 1.3, 1.25, 1.15, 1.1, 1.1, 1.15, 1.25, 1.4, 1.45, 1.3,
  0.9, 0.6,
];
const CURVE_TOTAL = HOUR_CURVE.reduce((a, b) => a + b, 0);
/** Sunday first. */
const WEEKDAY_FACTOR = [0.8, 1.05, 1.1, 1.1, 1.05, 0.95, 0.75];

export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function noise(seed: number, day: number, hour: number, salt: number): number {
  let h = Math.imul(seed ^ Math.imul(day, 0x9e3779b1) ^ Math.imul(hour + 1, 0x85ebca6b) ^ salt, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  h = Math.imul(h, 0x297a2d39);
  h ^= h >>> 15;
  return (h >>> 0) / 4_294_967_296;
}

/**
 * What a serving campaign got in one local hour, `scale` of a full hour (today's factor, the part of the
 * current hour that has passed). Clicks and spend follow impressions; spend is in micros of the account's
 * currency, rounded to a cent.
 */
export function campaignHour(campaign: AdsCampaign, day: number, hour: number, scale = 1): Metrics {
  const curve = HOUR_CURVE[hour] ?? 0;
  if (campaign.dailyImpressions === 0 || curve === 0 || scale <= 0)
    return { impressions: 0, clicks: 0, costMicros: 0 };
  const expected =
    ((campaign.dailyImpressions * curve) / CURVE_TOTAL) *
    (WEEKDAY_FACTOR[weekday(day)] ?? 1) *
    (0.85 + 0.3 * noise(campaign.seed, day, hour, 1));
  const impressions = Math.round(expected * scale);
  const clicks = Math.min(
    impressions,
    Math.round(expected * campaign.ctr * (0.7 + 0.6 * noise(campaign.seed, day, hour, 2)) * scale),
  );
  const cpc = campaign.cpcMicros * (0.8 + 0.4 * noise(campaign.seed, day, hour, 3));
  return { impressions, clicks, costMicros: Math.round((clicks * cpc) / 10_000) * 10_000 };
}

/** An ad's part of its campaign's hour: by weight, the rounding left over going to the campaign's first ad. */
export function adShare(campaignMetrics: Metrics, ad: AdsAd, campaign: AdsCampaign): Metrics {
  const part = (value: number) => {
    const share = Math.floor((value * ad.weight) / campaign.adWeight);
    if (campaign.ads[0] !== ad) return share;
    const others = campaign.ads
      .slice(1)
      .reduce((sum, other) => sum + Math.floor((value * other.weight) / campaign.adWeight), 0);
    return value - others;
  };
  const costUnits = part(campaignMetrics.costMicros / 10_000);
  return {
    impressions: part(campaignMetrics.impressions),
    clicks: part(campaignMetrics.clicks),
    costMicros: costUnits * 10_000,
  };
}

/** The first and last day a DURING literal covers, counted from the account's today. */
export function dateRange(range: string, today: number): [number, number] {
  const dow = weekday(today);
  const date = new Date(today * 86_400_000);
  const monthStart = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 86_400_000;
  const lastMonthStart = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1) / 86_400_000;
  const mondayOffset = (dow + 6) % 7;
  switch (range) {
    case 'TODAY':
      return [today, today];
    case 'YESTERDAY':
      return [today - 1, today - 1];
    case 'LAST_7_DAYS':
      return [today - 7, today - 1];
    case 'LAST_14_DAYS':
      return [today - 14, today - 1];
    case 'LAST_30_DAYS':
      return [today - 30, today - 1];
    case 'THIS_MONTH':
      return [monthStart, today];
    case 'LAST_MONTH':
      return [lastMonthStart, monthStart - 1];
    case 'THIS_WEEK_SUN_TODAY':
      return [today - dow, today];
    case 'THIS_WEEK_MON_TODAY':
      return [today - mondayOffset, today];
    case 'LAST_WEEK_SUN_SAT':
      return [today - dow - 7, today - dow - 1];
    case 'LAST_WEEK_MON_SUN':
      return [today - mondayOffset - 7, today - mondayOffset - 1];
    default: // LAST_BUSINESS_WEEK: last week's Monday to Friday.
      return [today - mondayOffset - 7, today - mondayOffset - 3];
  }
}

/** What the campaign (all campaigns; or some of its ads) served in one local hour: nothing after now, today scaled. */
export function servedMetrics(
  customer: AdsCustomer,
  campaign: AdsCampaign | undefined,
  ads: AdsAd[] | null,
  day: number,
  hour: number,
  clock: LocalClock,
): Metrics {
  let scale = 1;
  if (day === clock.today) {
    if (hour > clock.hour) return { impressions: 0, clicks: 0, costMicros: 0 };
    scale = customer.todayFactor * (hour === clock.hour ? clock.hourFraction : 1);
  }
  const total = { impressions: 0, clicks: 0, costMicros: 0 };
  for (const each of campaign ? [campaign] : customer.campaigns) {
    const whole = campaignHour(each, day, hour, scale);
    for (const part of ads ? ads.map((ad) => adShare(whole, ad, each)) : [whole]) {
      total.impressions += part.impressions;
      total.clicks += part.clicks;
      total.costMicros += part.costMicros;
    }
  }
  return total;
}
