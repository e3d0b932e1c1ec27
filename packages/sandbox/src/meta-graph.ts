import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
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
import {
  AD_FILTERS,
  AD_SET_FILTERS,
  adsOf,
  CAMPAIGN_FILTERS,
  filteredBy,
  filtersOf,
  invalidParam,
  paged,
  type GraphCall,
  type Params,
} from './meta-graph-lists.ts';
import { insights } from './meta-insights.ts';
import type { MetaSandbox } from './meta.ts';

export type { GraphCall } from './meta-graph-lists.ts';

const VERSION = /^v\d+\.\d+$/;
const MAX_BATCH = 50;

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
    /** An edge listing the account's campaigns, ad sets or ads, a page at a time. */
    const page = <T extends { id: string }>(list: T[], type: NodeType<T>) =>
      ok(
        headers,
        paged(
          meta,
          call,
          list,
          (item) => item.id,
          (item) => select(type, item, fields, ctx),
        ),
      );
    if (edge === 'adsets') return page(filteredBy(account.adSets, call.params, AD_SET_FILTERS), ADSET);
    if (edge === 'ads') return page(adsOf(account, filtersOf(call.params, Object.keys(AD_FILTERS))), AD);
    if (edge === 'campaigns')
      return page(filteredBy(account.campaigns, call.params, CAMPAIGN_FILTERS), CAMPAIGN);
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
