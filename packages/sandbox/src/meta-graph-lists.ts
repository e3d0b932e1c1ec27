import type { MetaAccount, MetaAd, MetaAdSet, MetaCampaign } from './meta-catalogue.ts';
import { GraphError } from './meta-oauth.ts';
import type { MetaSandbox } from './meta.ts';

/*
 * How the Graph stand-in reads a call and lists what it asks for: its parameters, cursor paging as Graph
 * pages, and filtering (`filtering=[…]`, `effective_status=[…]`).
 */

export type Params = Record<string, string | undefined>;

/** One Graph call, over HTTP or as a batch item. `path` has no version and no leading slash. */
export interface GraphCall {
  method: string;
  version: string;
  path: string;
  params: Params;
  token: string | undefined;
}

export const invalidParam = (message: string) => new GraphError(100, `(#100) ${message}`);

export function jsonParam(params: Params, name: string): unknown {
  const raw = params[name];
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidParam(`param ${name} must be a JSON-encoded value`);
  }
}

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
export function paged<T>(
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

export function filtersOf(params: Params, fields: readonly string[]): Filter[] {
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

export type Getters<T> = Record<string, (item: T) => string>;
export const AD_SET_FILTERS: Getters<MetaAdSet> = {
  id: (s) => s.id,
  name: (s) => s.name,
  effective_status: (s) => s.effectiveStatus,
  'adset.id': (s) => s.id,
  'campaign.id': (s) => s.campaignId,
};
export const AD_FILTERS: Getters<MetaAd> = {
  id: (a) => a.id,
  name: (a) => a.name,
  effective_status: (a) => a.effectiveStatus,
  'ad.id': (a) => a.id,
  'adset.id': (a) => a.adSetId,
  'campaign.id': (a) => a.campaignId,
};
export const CAMPAIGN_FILTERS: Getters<MetaCampaign> = {
  id: (c) => c.id,
  name: (c) => c.name,
  effective_status: (c) => c.status,
  'campaign.id': (c) => c.id,
};

export function filtered<T>(items: T[], filters: Filter[], getters: Getters<T>): T[] {
  return items.filter((item) => filters.every((f) => matches(getters[f.field]!(item), f)));
}

/** The items the call's filters (on any field of `getters`) keep. */
export function filteredBy<T>(items: T[], params: Params, getters: Getters<T>): T[] {
  return filtered(items, filtersOf(params, Object.keys(getters)), getters);
}

/** The ads of an account, straight from the per-ad-set index when the filter names ad sets. */
export function adsOf(account: MetaAccount, filters: Filter[]): MetaAd[] {
  const byAdSet = filters.find(
    (f) => f.field === 'adset.id' && (f.operator === 'IN' || f.operator === 'EQUAL'),
  );
  if (!byAdSet) return filtered(account.ads, filters, AD_FILTERS);
  const ids = (Array.isArray(byAdSet.value) ? byAdSet.value : [byAdSet.value]).map(String);
  const candidates = ids.flatMap((id) => account.adsByAdSet.get(id) ?? []);
  return filtered(candidates, filters, AD_FILTERS);
}
