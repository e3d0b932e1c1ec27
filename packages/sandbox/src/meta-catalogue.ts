/**
 * The Meta stand-in's demo data (people, business, ad accounts with campaigns, ad sets and ads) and its
 * delivery model: what an ad set spends, shows and gets clicked each hour, as a deterministic function of the
 * account, the ad set, the local date and the hour — so insights need no storage and every run agrees.
 */

export const DEMO_BUSINESS = { id: '2000000000001', name: 'Vigil Demo Business' };

export const DEMO_MERCHANT_ID = '10000000000001';
export const DEMO_AGENCY_ID = '10000000000002';

export interface UserSeed {
  id: string;
  name: string;
}

export const DEMO_USERS: UserSeed[] = [
  { id: DEMO_MERCHANT_ID, name: 'Demo Merchant' },
  { id: DEMO_AGENCY_ID, name: 'Demo Agency' },
];

export interface AdSetSeed {
  name: string;
  /** In the currency's minor unit (cents), as Graph stores budgets. */
  dailyBudget: number;
  ads: string[];
}

export interface CampaignSeed {
  name: string;
  objective: string;
  adSets: AdSetSeed[];
}

export interface AccountSeed {
  accountId: string;
  name: string;
  currency: string;
  timezone: string;
  /** Minor units; 0 means no cap, as on Graph. */
  spendCap: number;
  amountSpent: number;
  business: boolean;
  campaigns: CampaignSeed[];
}

export const HOODIE_ACCOUNT_ID = '1010101010';
export const CAP_ACCOUNT_ID = '2020202020';

export const DEMO_ACCOUNTS: AccountSeed[] = [
  {
    accountId: HOODIE_ACCOUNT_ID,
    name: 'Hoodie Co Ads',
    currency: 'USD',
    timezone: 'America/Los_Angeles',
    spendCap: 500_000,
    amountSpent: 123_456,
    business: true,
    campaigns: [
      {
        name: 'Hoodies — prospecting',
        objective: 'OUTCOME_SALES',
        adSets: [
          {
            name: 'Hoodies — lookalike US',
            dailyBudget: 6000,
            ads: ['Hoodie carousel', 'Hoodie video 15s', 'Hoodie customer review'],
          },
          { name: 'Hoodies — broad 18-44', dailyBudget: 4000, ads: ['Broad static image', 'Broad video 6s'] },
        ],
      },
      {
        name: 'Hoodies — retargeting',
        objective: 'OUTCOME_SALES',
        adSets: [
          { name: 'Retargeting — 7 days', dailyBudget: 2500, ads: ['Cart reminder', 'Free shipping banner'] },
          {
            name: 'Retargeting — 30 days cart',
            dailyBudget: 1500,
            ads: ['Still thinking it over?', 'Back in stock', 'Bundle offer'],
          },
        ],
      },
    ],
  },
  {
    accountId: CAP_ACCOUNT_ID,
    name: 'Cap Co Ads',
    currency: 'EUR',
    timezone: 'Europe/Berlin',
    spendCap: 0,
    amountSpent: 98_765,
    business: true,
    campaigns: [
      {
        name: 'Caps — prospecting DE',
        objective: 'OUTCOME_SALES',
        adSets: [
          {
            name: 'Caps — interests streetwear DE',
            dailyBudget: 3500,
            ads: ['Cap lookbook', 'Cap video 10s'],
          },
          {
            name: 'Caps — lookalike DE',
            dailyBudget: 3000,
            ads: ['Summer caps', 'Cap close-up', 'New colours'],
          },
        ],
      },
      {
        name: 'Caps — retargeting',
        objective: 'OUTCOME_SALES',
        adSets: [
          { name: 'Retargeting — 7 days', dailyBudget: 1500, ads: ['Cart reminder', 'Free returns'] },
          { name: 'Retargeting — viewers 14 days', dailyBudget: 1000, ads: ['Viewed it? Still here'] },
        ],
      },
    ],
  },
];

/** The merchant's 30 small accounts, "Demo account 3" to "Demo account 32", so the account list pages. */
export const SMALL_ACCOUNT_NUMBERS = Array.from({ length: 30 }, (_, i) => i + 3);

export function smallAccountSeed(n: number): AccountSeed {
  return {
    accountId: String(9_000_000_000 + n),
    name: `Demo account ${n}`,
    currency: 'USD',
    timezone: 'America/New_York',
    spendCap: 0,
    amountSpent: 1000 * n,
    business: true,
    campaigns: [
      {
        name: 'Always on',
        objective: 'OUTCOME_TRAFFIC',
        adSets: [{ name: 'Always on — broad', dailyBudget: 1000, ads: ['Always on — image'] }],
      },
    ],
  };
}

/** A generated account for benchmarks: `adSets` ad sets in one campaign, `ads` ads spread over them. */
export function generatedAccountSeed(
  accountId: string,
  n: number,
  shape: { adSets: number; ads: number; currency: string; timezone: string },
): AccountSeed {
  const adSets: AdSetSeed[] = Array.from({ length: shape.adSets }, (_, i) => ({
    name: `Ad set ${i + 1}`,
    dailyBudget: 2000 + 500 * (i % 5),
    ads: [],
  }));
  for (let i = 0; i < shape.ads; i += 1) adSets[i % adSets.length]?.ads.push(`Ad ${i + 1}`);
  return {
    accountId,
    name: `Generated account ${n}`,
    currency: shape.currency,
    timezone: shape.timezone,
    spendCap: 0,
    amountSpent: 0,
    business: true,
    campaigns: adSets.length ? [{ name: 'Generated campaign', objective: 'OUTCOME_SALES', adSets }] : [],
  };
}

// ---- The model the stand-in keeps, and accounts built from seeds. ----

export const EFFECTIVE_STATUSES = [
  'ACTIVE',
  'PAUSED',
  'DELETED',
  'PENDING_REVIEW',
  'DISAPPROVED',
  'PREAPPROVED',
  'PENDING_BILLING_INFO',
  'CAMPAIGN_PAUSED',
  'ARCHIVED',
  'ADSET_PAUSED',
  'IN_PROCESS',
  'WITH_ISSUES',
] as const;
export type EffectiveStatus = (typeof EFFECTIVE_STATUSES)[number];

export interface IssueInfo {
  level: 'AD_SET' | 'AD';
  error_code: number;
  error_summary: string;
  error_message: string;
  error_type: 'HARD_ERROR' | 'SOFT_ERROR';
}

/** A stretch without delivery: [from, to), `to` null while it lasts. */
export type Stop = [number, number | null];

export interface MetaUser {
  id: string;
  name: string;
  accountIds: string[];
  throttledUntil: number;
}

export interface MetaCampaign {
  id: string;
  accountId: string;
  name: string;
  objective: string;
  status: 'ACTIVE' | 'PAUSED';
  createdAt: number;
}

export interface MetaAdSet {
  id: string;
  accountId: string;
  campaignId: string;
  name: string;
  status: string;
  effectiveStatus: EffectiveStatus;
  /** Minor units; 0 when the ad set has none of that kind. */
  dailyBudget: number;
  lifetimeBudget: number;
  issues: IssueInfo[];
  stops: Stop[];
  createdAt: number;
  updatedAt: number;
}

export interface MetaAd {
  id: string;
  accountId: string;
  adSetId: string;
  campaignId: string;
  name: string;
  status: string;
  effectiveStatus: EffectiveStatus;
  issues: IssueInfo[];
  /** ad_review_feedback: `{ global: { policy: reason } }`. */
  reviewFeedback: Record<string, Record<string, string>> | null;
  createdAt: number;
  updatedAt: number;
}

export interface MetaAccount {
  accountId: string;
  name: string;
  currency: string;
  timezone: string;
  status: number;
  disableReason: number;
  /** Minor units, as Graph counts them. */
  amountSpent: number;
  spendCap: number;
  business: { id: string; name: string } | null;
  createdAt: number;
  /** Delivery starts here: local midnight, 35 days before the account was made. */
  deliversFrom: number;
  campaigns: MetaCampaign[];
  adSets: MetaAdSet[];
  ads: MetaAd[];
  adsByAdSet: Map<string, MetaAd[]>;
  campaignsById: Map<string, MetaCampaign>;
  stops: Stop[];
  today: { date: string; factor: number } | null;
  throttledUntil: number;
}

export const HISTORY_DAYS = 35;
/** Shared by every object without issues: a status change replaces the list, never changes it. */
const NO_ISSUES: IssueInfo[] = [];

/** Graph's ids are 64-bit; these have 18 digits, past a double's precision, so they stay strings. */
export const graphId = (prefix: string, n: number) => `${prefix}${String(n).padStart(12, '0')}`;

/** The account a seed describes, everything ACTIVE, with its delivery starting 35 local days ago. */
export function buildAccount(
  seed: AccountSeed,
  now: number,
  ids: { campaign: number; adSet: number; ad: number },
): MetaAccount {
  const at = now - HISTORY_DAYS * 86_400_000;
  const account: MetaAccount = {
    accountId: seed.accountId,
    name: seed.name,
    currency: seed.currency,
    timezone: seed.timezone,
    status: 1,
    disableReason: 0,
    amountSpent: seed.amountSpent,
    spendCap: seed.spendCap,
    business: seed.business ? { ...DEMO_BUSINESS } : null,
    createdAt: at,
    deliversFrom: localMidnight(addDays(localTime(now, seed.timezone).date, -HISTORY_DAYS), seed.timezone),
    campaigns: [],
    adSets: [],
    ads: [],
    adsByAdSet: new Map(),
    campaignsById: new Map(),
    stops: [],
    today: null,
    throttledUntil: 0,
  };
  const owned = { accountId: seed.accountId, status: 'ACTIVE', createdAt: at } as const;
  for (const c of seed.campaigns) {
    const campaign: MetaCampaign = {
      ...owned,
      id: graphId('120210', ids.campaign++),
      name: c.name,
      objective: c.objective,
    };
    account.campaigns.push(campaign);
    account.campaignsById.set(campaign.id, campaign);
    for (const s of c.adSets) {
      const adSet: MetaAdSet = {
        ...owned,
        id: graphId('120211', ids.adSet++),
        campaignId: campaign.id,
        name: s.name,
        effectiveStatus: 'ACTIVE',
        dailyBudget: s.dailyBudget,
        lifetimeBudget: 0,
        issues: NO_ISSUES,
        stops: [],
        updatedAt: at,
      };
      account.adSets.push(adSet);
      // Written out, not spread: a benchmark makes tens of thousands of these.
      const ads = s.ads.map((name): MetaAd => ({
        id: graphId('120212', ids.ad++),
        accountId: seed.accountId,
        adSetId: adSet.id,
        campaignId: campaign.id,
        name,
        status: 'ACTIVE',
        effectiveStatus: 'ACTIVE',
        issues: NO_ISSUES,
        reviewFeedback: null,
        createdAt: at,
        updatedAt: at,
      }));
      account.adsByAdSet.set(adSet.id, ads);
      account.ads.push(...ads);
    }
  }
  return account;
}

/** How much of [from, to) lies outside every stop (the lists may overlap). */
export function served(from: number, to: number, ...lists: Stop[][]): number {
  if (to <= from) return 0;
  const cuts: [number, number][] = [];
  for (const stops of lists) {
    for (const [a, b] of stops) {
      const start = Math.max(a, from);
      const end = Math.min(b ?? Infinity, to);
      if (end > start) cuts.push([start, end]);
    }
  }
  if (!cuts.length) return to - from;
  cuts.sort((x, y) => x[0] - y[0]);
  let off = 0;
  let reach = from;
  for (const [start, end] of cuts) {
    if (end <= reach) continue;
    off += end - Math.max(start, reach);
    reach = end;
  }
  return to - from - off;
}

// ---- The delivery model. ----

/** How much of a day's spend falls in each hour (local time): little at night, most in the evening. */
const HOUR_WEIGHTS = [
  0.2, 0.12, 0.08, 0.06, 0.06, 0.1, 0.25, 0.5, 0.75, 0.95, 1.05, 1.1, 1.15, 1.1, 1.05, 1.0, 1.0, 1.05, 1.15,
  1.3, 1.35, 1.2, 0.85, 0.45,
];
const HOUR_TOTAL = HOUR_WEIGHTS.reduce((sum, w) => sum + w, 0);
/** Sunday first, as Date.getUTCDay counts. */
const WEEKDAY_WEIGHTS = [1.15, 0.9, 0.95, 1.0, 1.0, 1.05, 1.2];

/** A number in [0, 1) from the parts (FNV-1a, then a final mix): the sandbox's only source of "randomness". */
export function hash01(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const char of parts.join('|')) {
    h ^= char.charCodeAt(0);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return (h >>> 0) / 4_294_967_296;
}

export interface Delivery {
  /** In the currency's major unit, not rounded. */
  spend: number;
  impressions: number;
  clicks: number;
}

/**
 * What an ad set delivers in one full local hour: about 85 % of its daily budget over a day, shaped by the
 * hour and the weekday, ±15 % from hour to hour; a cost per thousand impressions of 6–14 and a click-through
 * rate of 0.8–2 %, fixed per ad set.
 */
export function hourDelivery(
  adSetId: string,
  dailyBudgetMajor: number,
  date: string,
  weekday: number,
  hour: number,
): Delivery {
  const noise = 0.85 + 0.3 * hash01(adSetId, date, hour);
  const spend =
    ((dailyBudgetMajor * 0.85 * (HOUR_WEIGHTS[hour] ?? 1)) / HOUR_TOTAL) *
    (WEEKDAY_WEIGHTS[weekday] ?? 1) *
    noise;
  const cpm = 6 + 8 * hash01(adSetId, 'cpm');
  const ctr = 0.008 + 0.012 * hash01(adSetId, 'ctr');
  const impressions = (spend / cpm) * 1000;
  return { spend, impressions, clicks: impressions * ctr };
}

// ---- Local dates and hours in an account's time zone. ----

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

export interface LocalTime {
  /** YYYY-MM-DD */
  date: string;
  hour: number;
  /** 0 is Sunday. */
  weekday: number;
  /** The local wall-clock time read as if it were UTC, in ms. */
  wall: number;
}

/** Whole hours seen per zone: insights walk the same few hundred hours for every account. */
const hours = new Map<string, Map<number, LocalTime>>();

export function localTime(epochMs: number, timeZone: string): LocalTime {
  if (epochMs % 3_600_000 !== 0) return readLocalTime(epochMs, timeZone);
  let zone = hours.get(timeZone);
  if (!zone || zone.size > 50_000) hours.set(timeZone, (zone = new Map()));
  let local = zone.get(epochMs);
  if (!local) zone.set(epochMs, (local = readLocalTime(epochMs, timeZone)));
  return local;
}

function readLocalTime(epochMs: number, timeZone: string): LocalTime {
  const parts: Record<string, string> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(epochMs))) parts[part.type] = part.value;
  const [year, month, day] = [Number(parts.year), Number(parts.month), Number(parts.day)];
  const hour = Number(parts.hour);
  const wall = Date.UTC(year, month - 1, day, hour, Number(parts.minute), Number(parts.second));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    hour,
    weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay(),
    wall,
  };
}

/** Local time minus UTC, in ms, at that instant. */
export function utcOffsetMs(epochMs: number, timeZone: string): number {
  const at = Math.floor(epochMs / 1000) * 1000;
  return localTime(at, timeZone).wall - at;
}

/** The instant a local date begins (its midnight, or the first hour after a daylight-saving gap). */
export function localMidnight(date: string, timeZone: string): number {
  const guess = Date.parse(`${date}T00:00:00Z`);
  const first = guess - utcOffsetMs(guess, timeZone);
  return guess - utcOffsetMs(first, timeZone);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
