import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  addDays,
  localMidnight,
  localTime,
  utcOffsetMs,
  type MetaAccount,
  type MetaAd,
  type MetaAdSet,
  type MetaCampaign,
  type MetaUser,
} from './meta-catalogue.ts';
import {
  debugToken,
  errorAnswer,
  GraphError,
  invalidToken,
  oauthAccessToken,
  type GraphAnswer,
} from './meta-oauth.ts';
import type { MetaSandbox } from './meta.ts';

const VERSION = /^v\d+\.\d+$/;
const MAX_BATCH = 50;
const HOURLY = 'hourly_stats_aggregated_by_advertiser_time_zone';

type Params = Record<string, string | undefined>;

/** One Graph call, over HTTP or as a batch item. `path` has no version and no leading slash. */
export interface GraphCall {
  method: string;
  version: string;
  path: string;
  params: Params;
  token: string | undefined;
}

interface Ctx {
  meta: MetaSandbox;
  account: MetaAccount | null;
}

const unsupported = (method: string, id: string) =>
  new GraphError(
    100,
    `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    { type: 'GraphMethodException', subcode: 33 },
  );
const invalidParam = (message: string) => new GraphError(100, `(#100) ${message}`);

// ---- Field selection: `fields=id,name,campaign{id,name}`. ----

type FieldSpec = Map<string, FieldSpec | null>;

function parseFields(text: string): FieldSpec {
  let at = 0;
  const level = (): FieldSpec => {
    const spec: FieldSpec = new Map();
    while (at < text.length) {
      const match = /^[\s,]*([A-Za-z0-9_]+)((?:\.[a-z_]+\([^)]*\))*)/.exec(text.slice(at));
      if (!match) break;
      at += match[0].length;
      let nested: FieldSpec | null = null;
      if (text[at] === '{') {
        at += 1;
        nested = level();
        if (text[at] !== '}') throw invalidParam(`Syntax error in fields at character ${at}: ${text}`);
        at += 1;
      }
      spec.set(match[1]!, nested);
      while (text[at] === ' ' || text[at] === ',') at += 1;
      if (text[at] === '}') break;
    }
    return spec;
  };
  const spec = level();
  if (at < text.length) throw invalidParam(`Syntax error in fields at character ${at}: ${text}`);
  return spec;
}

/** A field whose value is another node, selected with the nested spec. */
class Nested<T> {
  constructor(
    readonly type: NodeType<T>,
    readonly item: T,
  ) {}
}

interface NodeType<T> {
  name: string;
  defaults: string[];
  fields: Record<string, (item: T, ctx: Ctx) => unknown>;
}

function select<T>(type: NodeType<T>, item: T, spec: FieldSpec | null, ctx: Ctx): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, sub] of spec ?? new Map(type.defaults.map((f) => [f, null]))) {
    const get = type.fields[name];
    if (!get) throw invalidParam(`Tried accessing nonexisting field (${name}) on node type (${type.name})`);
    const value = get(item, ctx);
    if (value === undefined) continue;
    out[name] = value instanceof Nested ? select(value.type, value.item, sub, ctx) : value;
  }
  // Graph always answers a node's id, after the fields asked for.
  if (!('id' in out)) out.id = type.fields.id!(item, ctx);
  return out;
}

/** "2025-03-01T04:00:00-0800": Graph's times, in the account's time zone. */
function graphTime(ms: number, timeZone: string): string {
  const offset = Math.round(utcOffsetMs(ms, timeZone) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const hhmm = `${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}${String(Math.abs(offset) % 60).padStart(2, '0')}`;
  return `${new Date(ms + offset * 60_000).toISOString().slice(0, 19)}${sign}${hhmm}`;
}

const accountOf = (ctx: Ctx) => ctx.account!;
const timeOf = (ms: number, ctx: Ctx) => graphTime(ms, accountOf(ctx).timezone);
const issuesOf = (issues: unknown[]) => (issues.length ? issues : undefined);

const USER: NodeType<MetaUser> = {
  name: 'User',
  defaults: ['name'],
  fields: { id: (u) => u.id, name: (u) => u.name },
};

const BUSINESS: NodeType<{ id: string; name: string }> = {
  name: 'Business',
  defaults: ['name'],
  fields: { id: (b) => b.id, name: (b) => b.name },
};

const ACCOUNT: NodeType<MetaAccount> = {
  name: 'AdAccount',
  defaults: ['account_id'],
  fields: {
    id: (a) => `act_${a.accountId}`,
    account_id: (a) => a.accountId,
    name: (a) => a.name,
    currency: (a) => a.currency,
    account_status: (a) => a.status,
    disable_reason: (a) => a.disableReason,
    amount_spent: (a) => String(a.amountSpent),
    spend_cap: (a) => String(a.spendCap),
    balance: () => '0',
    timezone_name: (a) => a.timezone,
    timezone_offset_hours_utc: (a, ctx) => utcOffsetMs(ctx.meta.now(), a.timezone) / 3_600_000,
    business: (a) => (a.business ? new Nested(BUSINESS, a.business) : undefined),
    business_name: (a) => a.business?.name,
    created_time: (a) => graphTime(a.createdAt, a.timezone),
  },
};

const CAMPAIGN: NodeType<MetaCampaign> = {
  name: 'AdCampaignGroup',
  defaults: [],
  fields: {
    id: (c) => c.id,
    name: (c) => c.name,
    status: (c) => c.status,
    configured_status: (c) => c.status,
    effective_status: (c) => c.status,
    objective: (c) => c.objective,
    account_id: (c) => c.accountId,
    created_time: (c, ctx) => timeOf(c.createdAt, ctx),
  },
};

const campaignOf = (id: string, ctx: Ctx) => {
  const campaign = accountOf(ctx).campaignsById.get(id);
  return campaign && new Nested(CAMPAIGN, campaign);
};

const ADSET: NodeType<MetaAdSet> = {
  name: 'AdCampaign',
  defaults: [],
  fields: {
    id: (s) => s.id,
    name: (s) => s.name,
    status: (s) => s.status,
    configured_status: (s) => s.status,
    effective_status: (s) => s.effectiveStatus,
    daily_budget: (s) => String(s.dailyBudget),
    lifetime_budget: (s) => String(s.lifetimeBudget),
    campaign_id: (s) => s.campaignId,
    campaign: (s, ctx) => campaignOf(s.campaignId, ctx),
    account_id: (s) => s.accountId,
    issues_info: (s) => issuesOf(s.issues),
    created_time: (s, ctx) => timeOf(s.createdAt, ctx),
    updated_time: (s, ctx) => timeOf(s.updatedAt, ctx),
    start_time: (s, ctx) => timeOf(s.createdAt, ctx),
  },
};

const AD: NodeType<MetaAd> = {
  name: 'AdGroup',
  defaults: [],
  fields: {
    id: (a) => a.id,
    name: (a) => a.name,
    status: (a) => a.status,
    configured_status: (a) => a.status,
    effective_status: (a) => a.effectiveStatus,
    adset_id: (a) => a.adSetId,
    adset: (a, ctx) => {
      const adSet = accountOf(ctx).adSets.find((s) => s.id === a.adSetId);
      return adSet && new Nested(ADSET, adSet);
    },
    campaign_id: (a) => a.campaignId,
    campaign: (a, ctx) => campaignOf(a.campaignId, ctx),
    account_id: (a) => a.accountId,
    issues_info: (a) => issuesOf(a.issues),
    ad_review_feedback: (a) => a.reviewFeedback ?? undefined,
    created_time: (a, ctx) => timeOf(a.createdAt, ctx),
    updated_time: (a, ctx) => timeOf(a.updatedAt, ctx),
  },
};

// ---- Cursor paging. ----

const cursorOf = (index: number, key: string) => Buffer.from(`${index}:${key}`).toString('base64url');

/** Where a cursor points (the item's index), even if the list changed since it was given. */
function positionOf(cursor: string, keys: (i: number) => string, count: number): number {
  const [index, key] = Buffer.from(cursor, 'base64url').toString('utf8').split(':');
  const i = Number(index);
  if (!Number.isInteger(i) || key === undefined) throw invalidParam('The cursor is not valid.');
  if (i < count && keys(i) === key) return i;
  for (let j = 0; j < count; j += 1) if (keys(j) === key) return j;
  throw invalidParam('The cursor is not valid.');
}

/** `{ data, paging: { cursors: { before, after }, next?, previous? } }`, `next` a full URL like Graph's. */
function paged<T>(
  meta: MetaSandbox,
  call: GraphCall,
  items: T[],
  key: (item: T) => string,
  render: (item: T) => unknown,
): object {
  const limit = Math.min(5000, Math.max(1, Number.parseInt(call.params.limit ?? '25', 10) || 25));
  const keyAt = (i: number) => key(items[i]!);
  let start = 0;
  let end: number;
  if (call.params.after) {
    start = positionOf(call.params.after, keyAt, items.length) + 1;
    end = Math.min(items.length, start + limit);
  } else if (call.params.before) {
    end = positionOf(call.params.before, keyAt, items.length);
    start = Math.max(0, end - limit);
  } else {
    end = Math.min(items.length, limit);
  }
  if (start >= end) return { data: [] };
  const cursors = { before: cursorOf(start, keyAt(start)), after: cursorOf(end - 1, keyAt(end - 1)) };
  const link = (name: 'after' | 'before', cursor: string) => {
    const url = new URL(`${meta.graphUrl}/${call.version}/${call.path}`);
    for (const [param, value] of Object.entries(call.params)) {
      if (value !== undefined && !['after', 'before', 'access_token', 'limit'].includes(param))
        url.searchParams.set(param, value);
    }
    if (call.token) url.searchParams.set('access_token', call.token);
    url.searchParams.set('limit', String(limit));
    url.searchParams.set(name, cursor);
    return url.toString();
  };
  return {
    data: items.slice(start, end).map(render),
    paging: {
      cursors,
      ...(end < items.length ? { next: link('after', cursors.after) } : {}),
      ...(start > 0 ? { previous: link('before', cursors.before) } : {}),
    },
  };
}

// ---- Filtering: `filtering=[{"field":"adset.id","operator":"IN","value":["…"]}]`, `effective_status=[…]`. ----

interface Filter {
  field: string;
  operator: string;
  value: unknown;
}

function jsonParam(params: Params, name: string): unknown {
  const raw = params[name];
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidParam(`param ${name} must be a JSON-encoded value`);
  }
}

function filtersOf(params: Params, fields: readonly string[]): Filter[] {
  const filtering = jsonParam(params, 'filtering') ?? [];
  if (!Array.isArray(filtering)) throw invalidParam('param filtering must be an array.');
  const filters = filtering.map((f: Partial<Filter>) => {
    if (!f || typeof f.field !== 'string' || !fields.includes(f.field))
      throw invalidParam(`Filtering field ${JSON.stringify(f?.field)} is invalid.`);
    const operator = String(f.operator ?? '');
    if (!['EQUAL', 'NOT_EQUAL', 'IN', 'NOT_IN', 'CONTAIN', 'NOT_CONTAIN'].includes(operator))
      throw invalidParam(`Invalid operator ${JSON.stringify(f.operator)} for filtering field ${f.field}.`);
    return { field: f.field, operator, value: f.value };
  });
  const statuses = jsonParam(params, 'effective_status');
  if (statuses !== undefined) {
    if (!Array.isArray(statuses)) throw invalidParam('param effective_status must be an array.');
    filters.push({ field: 'effective_status', operator: 'IN', value: statuses });
  }
  // Like Graph, leave out deleted and archived objects unless their status was asked about.
  if (!filters.some((f) => f.field === 'effective_status'))
    filters.push({ field: 'effective_status', operator: 'NOT_IN', value: ['DELETED', 'ARCHIVED'] });
  return filters;
}

function matches(value: string, filter: Filter): boolean {
  const list = (Array.isArray(filter.value) ? filter.value : [filter.value]).map(String);
  switch (filter.operator) {
    case 'EQUAL':
      return value === String(filter.value);
    case 'NOT_EQUAL':
      return value !== String(filter.value);
    case 'IN':
      return list.includes(value);
    case 'NOT_IN':
      return !list.includes(value);
    case 'CONTAIN':
      return value.toLowerCase().includes(String(filter.value).toLowerCase());
    default:
      return !value.toLowerCase().includes(String(filter.value).toLowerCase());
  }
}

type Getters<T> = Record<string, (item: T) => string>;
const AD_SET_FILTERS: Getters<MetaAdSet> = {
  id: (s) => s.id,
  name: (s) => s.name,
  effective_status: (s) => s.effectiveStatus,
  'adset.id': (s) => s.id,
  'campaign.id': (s) => s.campaignId,
};
const AD_FILTERS: Getters<MetaAd> = {
  id: (a) => a.id,
  name: (a) => a.name,
  effective_status: (a) => a.effectiveStatus,
  'ad.id': (a) => a.id,
  'adset.id': (a) => a.adSetId,
  'campaign.id': (a) => a.campaignId,
};
const CAMPAIGN_FILTERS: Getters<MetaCampaign> = {
  id: (c) => c.id,
  name: (c) => c.name,
  effective_status: (c) => c.status,
  'campaign.id': (c) => c.id,
};

function filtered<T>(items: T[], filters: Filter[], getters: Getters<T>): T[] {
  return items.filter((item) => filters.every((f) => matches(getters[f.field]!(item), f)));
}

/** The ads of an account, straight from the per-ad-set index when the filter names ad sets. */
function adsOf(account: MetaAccount, filters: Filter[]): MetaAd[] {
  const byAdSet = filters.find(
    (f) => f.field === 'adset.id' && (f.operator === 'IN' || f.operator === 'EQUAL'),
  );
  if (!byAdSet) return filtered(account.ads, filters, AD_FILTERS);
  const ids = (Array.isArray(byAdSet.value) ? byAdSet.value : [byAdSet.value]).map(String);
  const candidates = ids.flatMap((id) => account.adsByAdSet.get(id) ?? []);
  return filtered(candidates, filters, AD_FILTERS);
}

// ---- Insights. ----

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

function insights(meta: MetaSandbox, account: MetaAccount, call: GraphCall): object {
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

// ---- One call. ----

const accessSets = new WeakMap<MetaUser, { size: number; ids: Set<string> }>();

/** Whether the person can see the account, without walking their list on every call. */
function canSee(user: MetaUser, accountId: string): boolean {
  let cached = accessSets.get(user);
  if (!cached || cached.size !== user.accountIds.length) {
    cached = { size: user.accountIds.length, ids: new Set(user.accountIds) };
    accessSets.set(user, cached);
  }
  return cached.ids.has(accountId);
}

function authenticate(meta: MetaSandbox, call: GraphCall): { user: MetaUser; scopes: string[] } {
  const token = call.token;
  if (!token || token.includes('|'))
    throw new GraphError(
      2500,
      'An active access token must be used to query information about the current user.',
    );
  const found = meta.logins.find(token);
  if (!found) throw invalidToken();
  const problem = meta.logins.error(found);
  if (problem) throw problem;
  const proof = call.params.appsecret_proof;
  if (proof !== undefined ? proof !== meta.appsecretProofFor(token) : meta.requireAppsecretProof) {
    throw new GraphError(
      100,
      proof === undefined
        ? 'API calls from the server require an appsecret_proof argument'
        : 'Invalid appsecret_proof provided in the API argument',
      { type: 'GraphMethodException' },
    );
  }
  return { user: meta.findUser(found.userId)!, scopes: found.scopes };
}

const fold = (segment: string) => segment.replace(/^act_\d+$/, 'act_{id}').replace(/^\d{5,}$/, '{id}');

/** Answers one call as Graph would, counting it and charging it to the rate limits. */
export function graphCall(meta: MetaSandbox, call: GraphCall): GraphAnswer {
  const segments = call.path.split('/').filter(Boolean);
  let userId: string | null = null;
  let accountId: string | null = null;
  let failed = true;
  try {
    const answer = route();
    failed = false;
    return answer;
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    return errorAnswer(error);
  } finally {
    meta.countCall(`/${segments.map(fold).join('/')}`, userId, accountId, failed);
  }

  function route(): GraphAnswer {
    const [head = '', edge, ...rest] = segments;
    if (call.path === 'oauth/access_token') return oauthAccessToken(meta, call.params);
    if (call.path === 'debug_token') return debugToken(meta, call.params, call.token);
    if (call.method !== 'GET') throw unsupported(call.method, head);
    const { user, scopes } = authenticate(meta, call);
    userId = user.id;
    const fields = call.params.fields ? parseFields(call.params.fields) : null;
    const ok = (headers: Record<string, string>, body: unknown): GraphAnswer => ({
      status: 200,
      headers,
      body,
    });
    if (head === 'me' || head === user.id) {
      const ctx = { meta, account: null };
      if (edge === undefined)
        return ok(
          meta.charge({ userId, account: null, useCase: 'ads_management' }),
          select(USER, user, fields, ctx),
        );
      if (edge === 'permissions' && !rest.length) {
        // Graph lists each permission the token carries as granted.
        const headers = meta.charge({ userId, account: null, useCase: 'ads_management' });
        return ok(headers, { data: scopes.map((permission) => ({ permission, status: 'granted' })) });
      }
      if (edge !== 'adaccounts' || rest.length)
        throw invalidParam(`Tried accessing nonexisting field (${edge}) on node type (User)`);
      needAdsScope(scopes);
      const headers = meta.charge({ userId, account: null, useCase: 'ads_management' });
      const accounts = user.accountIds.map((id) => meta.findAccount(id)!);
      return ok(
        headers,
        paged(
          meta,
          call,
          accounts,
          (a) => a.accountId,
          (a) => select(ACCOUNT, a, fields, { meta, account: a }),
        ),
      );
    }
    const account = head.startsWith('act_') ? meta.findAccount(head.slice(4)) : undefined;
    if (!account || !canSee(user, account.accountId)) throw unsupported('GET', head);
    accountId = account.accountId;
    needAdsScope(scopes);
    if (rest.length) throw new GraphError(2500, `Unknown path components: /${rest.join('/')}`);
    const useCase = edge === 'insights' ? 'ads_insights' : 'ads_management';
    const headers = meta.charge({ userId, account, useCase });
    const ctx = { meta, account };
    if (edge === undefined) return ok(headers, select(ACCOUNT, account, fields, ctx));
    if (edge === 'insights') return ok(headers, insights(meta, account, call));
    if (edge === 'adsets') {
      const list = filtered(
        account.adSets,
        filtersOf(call.params, Object.keys(AD_SET_FILTERS)),
        AD_SET_FILTERS,
      );
      return ok(
        headers,
        paged(
          meta,
          call,
          list,
          (s) => s.id,
          (s) => select(ADSET, s, fields, ctx),
        ),
      );
    }
    if (edge === 'ads') {
      const list = adsOf(account, filtersOf(call.params, Object.keys(AD_FILTERS)));
      return ok(
        headers,
        paged(
          meta,
          call,
          list,
          (a) => a.id,
          (a) => select(AD, a, fields, ctx),
        ),
      );
    }
    if (edge === 'campaigns') {
      const list = filtered(
        account.campaigns,
        filtersOf(call.params, Object.keys(CAMPAIGN_FILTERS)),
        CAMPAIGN_FILTERS,
      );
      return ok(
        headers,
        paged(
          meta,
          call,
          list,
          (c) => c.id,
          (c) => select(CAMPAIGN, c, fields, ctx),
        ),
      );
    }
    throw new GraphError(2500, `Unknown path components: /${edge}`);
  }
}

function needAdsScope(scopes: string[]): void {
  if (!scopes.includes('ads_read') && !scopes.includes('ads_management'))
    throw new GraphError(200, '(#200) Requires ads_management or ads_read permission to manage the object', {
      type: 'OAuthException',
    });
}

// ---- Batch: `POST /` with `batch=[{"method":"GET","relative_url":"v21.0/act_1/adsets?fields=…"}, …]`. ----

interface BatchItem {
  method?: string;
  relative_url?: string;
}

function batch(
  meta: MetaSandbox,
  version: string,
  params: Params,
  raw: unknown,
  token: string | undefined,
): GraphAnswer {
  if (raw === undefined) throw invalidParam('The parameter batch is required');
  let items: unknown = raw;
  if (typeof raw === 'string') {
    try {
      items = JSON.parse(raw);
    } catch {
      throw invalidParam('The parameter batch must be a JSON array');
    }
  }
  if (!Array.isArray(items)) throw invalidParam('The parameter batch must be a JSON array');
  if (items.length > MAX_BATCH)
    throw new GraphError(1, `Too many requests in batch message. Maximum batch size is ${MAX_BATCH}`);
  const withHeaders = params.include_headers !== 'false';
  const answers = items.map((item: BatchItem) => {
    const relative = typeof item?.relative_url === 'string' ? item.relative_url.replace(/^\//, '') : '';
    const cut = relative.indexOf('?');
    const segments = (cut < 0 ? relative : relative.slice(0, cut)).split('/');
    const itemVersion = VERSION.test(segments[0] ?? '') ? segments.shift()! : version;
    const itemParams: Params = Object.fromEntries(
      new URLSearchParams(cut < 0 ? '' : relative.slice(cut + 1)),
    );
    // An item without its own token uses the batch's, and the batch's proof of it.
    if (itemParams.access_token === undefined && params.appsecret_proof !== undefined)
      itemParams.appsecret_proof ??= params.appsecret_proof;
    const answer = relative
      ? graphCall(meta, {
          method: (item.method ?? 'GET').toUpperCase(),
          version: itemVersion,
          path: segments.join('/'),
          params: itemParams,
          token: itemParams.access_token ?? token,
        })
      : errorAnswer(invalidParam('Each batch item needs a relative_url'));
    const headers = {
      'Content-Type': 'text/javascript; charset=UTF-8',
      'Facebook-API-Version': itemVersion,
      ...answer.headers,
    };
    return {
      code: answer.status,
      ...(withHeaders ? { headers: Object.entries(headers).map(([name, value]) => ({ name, value })) } : {}),
      body: JSON.stringify(answer.body),
    };
  });
  return { status: 200, headers: meta.appUsageHeader(), body: answers };
}

// ---- HTTP. ----

function tokenOf(request: FastifyRequest, params: Params): string | undefined {
  if (params.access_token) return params.access_token;
  const match = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/**
 * Graph's HTTP face under `{base}/meta/graph` (Graph's https://graph.facebook.com): `GET /{version}/{path}` for
 * every call, `POST /` or `/{version}/` for batches, `/{version}/oauth/access_token` by GET or POST. A path with
 * no version uses the default version.
 */
export function registerMetaGraph(app: FastifyInstance, meta: MetaSandbox): void {
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    meta.countRequest();
    const segments = ((request.params as { '*'?: string })['*'] ?? '').split('/').filter(Boolean);
    const version = VERSION.test(segments[0] ?? '') ? segments.shift()! : meta.graphVersion;
    const body =
      request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
    const params: Params = {};
    for (const [name, value] of Object.entries({ ...(request.query as Record<string, unknown>), ...body })) {
      if (typeof value === 'string') params[name] = value;
      else if (typeof value === 'number' || typeof value === 'boolean') params[name] = String(value);
    }
    const token = tokenOf(request, params);
    const path = segments.join('/');
    let answer: GraphAnswer;
    if (request.method === 'POST' && path === '') {
      try {
        answer = batch(meta, version, params, body.batch, token);
      } catch (error) {
        if (!(error instanceof GraphError)) throw error;
        answer = errorAnswer(error);
      }
    } else {
      answer = graphCall(meta, { method: request.method, version, path, params, token });
    }
    return reply
      .code(answer.status)
      .headers({ ...answer.headers, 'facebook-api-version': version })
      .send(answer.body);
  };
  app.get('/*', handle);
  app.post('/*', handle);
  app.post('/', handle);
}
