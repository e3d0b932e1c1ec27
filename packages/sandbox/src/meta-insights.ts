import { addDays, localMidnight, localTime, type MetaAccount } from './meta-catalogue.ts';
import {
  AD_FILTERS,
  AD_SET_FILTERS,
  filtered,
  filtersOf,
  invalidParam,
  jsonParam,
  paged,
  type GraphCall,
  type Params,
} from './meta-graph-lists.ts';
import type { MetaSandbox } from './meta.ts';

/*
 * `GET /act_{id}/insights`: the account's delivery summed by level (account, campaign, ad set, ad), by time
 * bucket and optionally by hour, over a preset or given date range, paged like every Graph list.
 */

export const HOURLY = 'hourly_stats_aggregated_by_advertiser_time_zone';

const INSIGHT_FIELDS = new Set([
  'spend',
  'impressions',
  'clicks',
  'cpc',
  'cpm',
  'ctr',
  'reach',
  'frequency',
  'account_id',
  'account_name',
  'account_currency',
  'campaign_id',
  'campaign_name',
  'adset_id',
  'adset_name',
  'ad_id',
  'ad_name',
  'date_start',
  'date_stop',
]);
const LEVELS = ['account', 'campaign', 'adset', 'ad'] as const;
const PRESET_DAYS: Record<string, number> = {
  last_3d: 3,
  last_7d: 7,
  last_14d: 14,
  last_28d: 28,
  last_30d: 30,
  last_90d: 90,
};
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function dateRange(params: Params, today: string): { since: string; until: string } {
  const range =
    jsonParam(params, 'time_range') ??
    (params['time_range[since]'] !== undefined
      ? { since: params['time_range[since]'], until: params['time_range[until]'] }
      : undefined);
  if (range !== undefined) {
    const { since, until } = (range ?? {}) as { since?: unknown; until?: unknown };
    if (typeof since !== 'string' || !DATE.test(since) || typeof until !== 'string' || !DATE.test(until))
      throw invalidParam('param time_range must be {"since":"YYYY-MM-DD","until":"YYYY-MM-DD"}');
    if (since > until) throw invalidParam('time_range: since must be on or before until');
    return { since, until };
  }
  const preset = params.date_preset ?? 'last_30d';
  const days = PRESET_DAYS[preset];
  if (days) return { since: addDays(today, -days), until: addDays(today, -1) };
  if (preset === 'today') return { since: today, until: today };
  if (preset === 'yesterday') return { since: addDays(today, -1), until: addDays(today, -1) };
  if (preset === 'this_month') return { since: `${today.slice(0, 8)}01`, until: today };
  if (preset === 'maximum') return { since: addDays(today, -400), until: today };
  const known = ['today', 'yesterday', 'this_month', 'maximum', ...Object.keys(PRESET_DAYS)].join(', ');
  throw invalidParam(`date_preset must be one of the following values: ${known}`);
}

/** `time_ranges=[{"since","until"},…]`: several ranges in one call (at most 37, as Graph allows). */
function timeRanges(params: Params): { since: string; until: string }[] | undefined {
  if (params.time_ranges === undefined) return undefined;
  const list = jsonParam(params, 'time_ranges');
  const valid = (range: unknown): range is { since: string; until: string } => {
    const { since, until } = (range ?? {}) as { since?: unknown; until?: unknown };
    return (
      typeof since === 'string' &&
      DATE.test(since) &&
      typeof until === 'string' &&
      DATE.test(until) &&
      since <= until
    );
  };
  if (!Array.isArray(list) || list.length === 0 || list.length > 37 || !list.every(valid)) {
    throw invalidParam('param time_ranges must be a list of {"since":"YYYY-MM-DD","until":"YYYY-MM-DD"}');
  }
  return list;
}

/** The time bucket a day falls in: the day (1), N days from `since`, the month, or the whole range. */
function bucketer(increment: string, since: string, until: string): (date: string) => [string, string] {
  if (increment === 'all_days') return () => [since, until];
  if (increment === 'monthly') {
    return (date) => {
      const first = `${date.slice(0, 8)}01`;
      const last = addDays(`${addDays(first, 32).slice(0, 8)}01`, -1);
      return [first < since ? since : first, last > until ? until : last];
    };
  }
  const n = Number(increment);
  if (!Number.isInteger(n) || n < 1 || n > 90)
    throw invalidParam('time_increment must be all_days, monthly or a number of days from 1 to 90');
  const start = Date.parse(since);
  return (date) => {
    const first = addDays(since, Math.floor((Date.parse(date) - start) / 86_400_000 / n) * n);
    const last = addDays(first, n - 1);
    return [first, last > until ? until : last];
  };
}

interface InsightRow {
  start: string;
  stop: string;
  hour: string;
  order: number;
  ids: Record<string, string>;
  spend: number;
  impressions: number;
  clicks: number;
}

const decimal = (x: number) => String(Number(x.toFixed(6)));

export function insights(meta: MetaSandbox, account: MetaAccount, call: GraphCall): object {
  const params = call.params;
  const fields = (params.fields ?? 'spend,impressions')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  for (const field of fields) {
    if (!INSIGHT_FIELDS.has(field)) {
      throw invalidParam(
        `${field} is not valid for fields param. please check https://developers.facebook.com/docs/marketing-api/reference/ads-insights/ for all valid values`,
      );
    }
  }
  const level = (params.level ?? 'account') as (typeof LEVELS)[number];
  if (!LEVELS.includes(level))
    throw invalidParam(`level must be one of the following values: ${LEVELS.join(', ')}`);
  const rawBreakdowns = params.breakdowns?.startsWith('[')
    ? (jsonParam(params, 'breakdowns') as unknown[])
    : (params.breakdowns ?? '').split(',').filter(Boolean);
  for (const [i, breakdown] of rawBreakdowns.entries()) {
    if (breakdown !== HOURLY)
      throw invalidParam(`breakdowns[${i}] must be one of the following values: ${HOURLY}`);
  }
  const hourly = rawBreakdowns.length > 0;
  const today = localTime(meta.now(), account.timezone).date;
  // `time_ranges` asks for several ranges at once: each is answered as its own rows, as Graph does.
  const ranges = timeRanges(params) ?? [dateRange(params, today)];
  const filters = filtersOf(params, ['adset.id', 'campaign.id', 'ad.id', 'effective_status']).filter(
    (f) => f.field !== 'effective_status',
  );
  const adFilters = filters.filter((f) => f.field === 'ad.id');
  const adSets = filtered(
    account.adSets,
    filters.filter((f) => f.field !== 'ad.id'),
    AD_SET_FILTERS,
  );
  const order = new Map(
    [...account.campaigns, ...account.adSets, ...account.ads].map((item, i) => [item.id, i] as const),
  );
  const rows = new Map<string, InsightRow>();
  const add = (key: string, make: () => InsightRow, spend: number, impressions: number, clicks: number) => {
    let row = rows.get(key);
    if (!row) rows.set(key, (row = make()));
    row.spend += spend;
    row.impressions += impressions;
    row.clicks += clicks;
  };
  for (const { since, until } of ranges) {
    const bucket =
      ranges.length > 1
        ? () => [since, until] as [string, string]
        : bucketer(params.time_increment ?? 'all_days', since, until);
    meta.deliver(
      account,
      adSets,
      localMidnight(since, account.timezone),
      localMidnight(addDays(until, 1), account.timezone),
      (local, adSet, d) => {
        const [start, stop] = bucket(local.date);
        const hour = hourly
          ? `${String(local.hour).padStart(2, '0')}:00:00 - ${String(local.hour).padStart(2, '0')}:59:59`
          : '';
        const campaign = account.campaignsById.get(adSet.campaignId);
        const base = { start, stop, hour, spend: 0, impressions: 0, clicks: 0 };
        const setIds = {
          campaign_id: adSet.campaignId,
          campaign_name: campaign?.name ?? '',
          adset_id: adSet.id,
          adset_name: adSet.name,
        };
        if (level === 'ad') {
          const ads = filtered(account.adsByAdSet.get(adSet.id) ?? [], adFilters, AD_FILTERS);
          const share = 1 / (account.adsByAdSet.get(adSet.id)?.length || 1);
          for (const ad of ads) {
            const make = () => ({
              ...base,
              order: order.get(ad.id) ?? 0,
              ids: { ...setIds, ad_id: ad.id, ad_name: ad.name },
            });
            add(`${start}|${hour}|${ad.id}`, make, d.spend * share, d.impressions * share, d.clicks * share);
          }
          return;
        }
        const id = level === 'account' ? '' : level === 'campaign' ? adSet.campaignId : adSet.id;
        const ids: Record<string, string> =
          level === 'account'
            ? {}
            : level === 'campaign'
              ? { campaign_id: setIds.campaign_id, campaign_name: setIds.campaign_name }
              : setIds;
        add(
          `${start}|${hour}|${id}`,
          () => ({ ...base, order: order.get(id) ?? 0, ids }),
          d.spend,
          d.impressions,
          d.clicks,
        );
      },
    );
  }
  const list = [...rows.entries()]
    .filter(([, r]) => Math.round(r.impressions) > 0 || r.spend >= 0.005)
    .sort(
      ([, a], [, b]) => a.start.localeCompare(b.start) || a.hour.localeCompare(b.hour) || a.order - b.order,
    );
  const render = ([, row]: [string, InsightRow]) => {
    const impressions = Math.round(row.impressions);
    const clicks = Math.round(row.clicks);
    const reach = Math.max(1, Math.round(impressions / 1.3));
    const values: Record<string, string | undefined> = {
      spend: row.spend.toFixed(2),
      impressions: String(impressions),
      clicks: String(clicks),
      cpc: clicks ? decimal(row.spend / clicks) : undefined,
      cpm: impressions ? decimal((row.spend / impressions) * 1000) : undefined,
      ctr: impressions ? decimal((clicks / impressions) * 100) : undefined,
      reach: String(reach),
      frequency: decimal(impressions / reach),
      account_id: account.accountId,
      account_name: account.name,
      account_currency: account.currency,
      ...row.ids,
    };
    const out: Record<string, string> = {};
    for (const field of fields) if (values[field] !== undefined) out[field] = values[field];
    out.date_start = row.start;
    out.date_stop = row.stop;
    if (hourly) out[HOURLY] = row.hour;
    return out;
  };
  return paged(meta, call, list, ([key]) => key, render);
}
