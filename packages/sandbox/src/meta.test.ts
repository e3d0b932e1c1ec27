import { createHmac } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type MetaOptions, type MetaSandbox } from './index.ts';

const APP_ID = '1234567890123456';
const APP_SECRET = 'meta-app-secret';
const ORIGIN = 'http://sandbox.test';
const REDIRECT = `${ORIGIN}/app/oauth`;
const MERCHANT = '10000000000001';
const AGENCY = '10000000000002';
const HOODIE = 'act_1010101010';
const CAP = 'act_2020202020';
/** A Wednesday; 13:30 in Los Angeles (PDT), 21:30 in Berlin. */
const START = Date.parse('2025-03-12T20:30:00Z');
let clock = START;

interface Harness {
  app: FastifyInstance;
  meta: MetaSandbox;
}

async function harness(options: Partial<MetaOptions> = {}): Promise<Harness> {
  const sandbox = createSandbox({
    publicUrl: ORIGIN,
    smtpPort: 0,
    oidcClientId: 'client-a',
    oidcClientSecret: 'secret-a',
    meta: { appId: APP_ID, appSecret: APP_SECRET, now: () => clock, ...options },
  });
  const app = Fastify();
  await app.register(sandbox.plugin, { prefix: '/sandbox' });
  await app.ready();
  return { app, meta: sandbox.meta };
}

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h.app.close();
});
beforeEach(() => {
  clock = START;
  h.meta.reset();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function graph(
  path: string,
  query: Record<string, string> = {},
  headers: Record<string, string> = {},
  app = h.app,
) {
  const url = path.startsWith('http') ? path.slice(ORIGIN.length) : `/sandbox/meta/graph/${path}`;
  const search = new URLSearchParams(query).toString();
  const response = await app.inject({
    method: 'GET',
    url: search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url,
    headers,
  });
  return { status: response.statusCode, headers: response.headers, body: response.json() as Json };
}

function dialogQuery(overrides: Record<string, string> = {}) {
  return new URLSearchParams({
    client_id: APP_ID,
    redirect_uri: REDIRECT,
    state: 'state-1',
    scope: 'ads_read',
    response_type: 'code',
    ...overrides,
  });
}

async function login(user = MERCHANT, decision = 'continue') {
  const response = await h.app.inject({
    method: 'POST',
    url: '/sandbox/meta/www/v21.0/dialog/oauth',
    payload: `${dialogQuery()}&user=${user}&decision=${decision}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(response.statusCode).toBe(302);
  return response.headers.location as string;
}

async function shortToken(user = MERCHANT): Promise<string> {
  const code = new URL(await login(user)).searchParams.get('code')!;
  const { body } = await graph('v21.0/oauth/access_token', {
    client_id: APP_ID,
    client_secret: APP_SECRET,
    redirect_uri: REDIRECT,
    code,
  });
  return body.access_token;
}

const tokenFor = (user = MERCHANT) => h.meta.issueToken(user).token;

describe('the Facebook Login dialog', () => {
  it('shows the demo people, the first chosen, and the permissions asked', async () => {
    const response = await h.app.inject(`/sandbox/meta/www/v21.0/dialog/oauth?${dialogQuery()}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`value="${MERCHANT}" checked`);
    expect(response.body).toContain('Demo Agency');
    expect(response.body).toContain('<code>ads_read</code>');
    expect(response.body).toMatch(/Continue as/);
    expect(response.body).toContain('value="cancel">Cancel');
  });

  it('refuses an unknown app and a redirect URI the app does not list, without redirecting', async () => {
    const unknown = await h.app.inject(
      `/sandbox/meta/www/v21.0/dialog/oauth?${dialogQuery({ client_id: '999' })}`,
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('Invalid App ID');
    const blocked = await h.app.inject(
      `/sandbox/meta/www/v21.0/dialog/oauth?${dialogQuery({ redirect_uri: 'https://evil.example/cb' })}`,
    );
    expect(blocked.statusCode).toBe(400);
    expect(blocked.body).toContain('URL blocked');
    expect(blocked.headers.location).toBeUndefined();
  });

  it('sends a code and the state back, or access_denied on cancel', async () => {
    const granted = new URL(await login());
    expect(granted.origin + granted.pathname).toBe(REDIRECT);
    expect(granted.searchParams.get('state')).toBe('state-1');
    expect(granted.searchParams.get('code')).toMatch(/^AQ/);
    expect(granted.hash).toBe('#_=_');
    expect(await login(MERCHANT, 'cancel')).toBe(
      `${REDIRECT}?error=access_denied&error_code=200&error_description=Permissions+error&error_reason=user_denied&state=state-1#_=_`,
    );
  });
});

describe('tokens', () => {
  it('exchanges a code for a short-lived token, then for a 60-day one', async () => {
    const code = new URL(await login()).searchParams.get('code')!;
    const params = { client_id: APP_ID, client_secret: APP_SECRET, redirect_uri: REDIRECT, code };
    const short = await graph('v21.0/oauth/access_token', params);
    expect(short.status).toBe(200);
    expect(short.body).toEqual({
      access_token: expect.stringMatching(/^EAA/),
      token_type: 'bearer',
      expires_in: 7200,
    });
    const long = await graph('v21.0/oauth/access_token', {
      grant_type: 'fb_exchange_token',
      client_id: APP_ID,
      client_secret: APP_SECRET,
      fb_exchange_token: short.body.access_token,
    });
    expect(long.body).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 5_184_000,
    });
    expect(long.body.access_token).not.toBe(short.body.access_token);

    const reused = await graph('v21.0/oauth/access_token', params);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toMatchObject({
      message: 'This authorization code has been used.',
      type: 'OAuthException',
      code: 100,
      error_subcode: 36009,
      fbtrace_id: expect.any(String),
    });
  });

  it('refuses a code for another redirect URI, a wrong secret and an unknown code', async () => {
    const code = new URL(await login()).searchParams.get('code')!;
    const base = { client_id: APP_ID, client_secret: APP_SECRET, redirect_uri: REDIRECT, code };
    const secret = await graph('v21.0/oauth/access_token', { ...base, client_secret: 'wrong' });
    expect(secret.body.error).toMatchObject({ code: 1, message: 'Error validating client secret.' });
    const redirect = await graph('v21.0/oauth/access_token', { ...base, redirect_uri: `${ORIGIN}/other` });
    expect(redirect.body.error).toMatchObject({ code: 100, error_subcode: 36008 });
    const unknown = await graph('v21.0/oauth/access_token', { ...base, code: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe(100);
  });

  it('lists the permissions a token carries', async () => {
    const response = await graph('v21.0/me/permissions', { access_token: tokenFor() });
    expect(response.body.data).toEqual(
      expect.arrayContaining([{ permission: 'ads_read', status: 'granted' }]),
    );
  });

  it('reads /me and inspects the token with debug_token', async () => {
    const token = await shortToken();
    const me = await graph('v21.0/me', { fields: 'id,name', access_token: token });
    expect(me.body).toEqual({ id: MERCHANT, name: 'Demo Merchant' });
    const debug = await graph('v21.0/debug_token', {
      input_token: token,
      access_token: `${APP_ID}|${APP_SECRET}`,
    });
    expect(debug.body.data).toMatchObject({
      app_id: APP_ID,
      type: 'USER',
      is_valid: true,
      expires_at: Math.floor(START / 1000) + 7200,
      scopes: ['ads_read', 'public_profile'],
      user_id: MERCHANT,
    });
  });

  it('accepts the token in an Authorization header, and checks appsecret_proof when sent', async () => {
    const token = tokenFor();
    expect((await graph('v21.0/me', {}, { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await graph('v21.0/me', {}, { authorization: `OAuth ${token}` })).status).toBe(200);
    const proof = createHmac('sha256', APP_SECRET).update(token).digest('hex');
    expect((await graph('v21.0/me', { access_token: token, appsecret_proof: proof })).status).toBe(200);
    const wrong = await graph('v21.0/me', { access_token: token, appsecret_proof: 'abc' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({
      message: 'Invalid appsecret_proof provided in the API argument',
      type: 'GraphMethodException',
      code: 100,
    });
  });

  it('answers 190 with the subcode of each way a token stops working', async () => {
    const garbage = await graph('v21.0/me', { access_token: 'EAAnonsense' });
    expect(garbage.status).toBe(400);
    expect(garbage.body.error).toMatchObject({ code: 190, type: 'OAuthException' });
    expect(garbage.body.error.error_subcode).toBeUndefined();
    expect(garbage.headers['www-authenticate']).toContain('invalid_token');

    const revoked = tokenFor();
    h.meta.revokeTokens(MERCHANT, 'password');
    expect((await graph('v21.0/me', { access_token: revoked })).body.error).toMatchObject({
      code: 190,
      error_subcode: 460,
    });

    const removed = tokenFor(AGENCY);
    h.meta.revokeTokens(AGENCY, 'app_removed');
    expect((await graph('v21.0/me', { access_token: removed })).body.error).toMatchObject({
      error_subcode: 458,
    });

    h.meta.reset();
    const expiring = tokenFor();
    h.meta.expireTokens(MERCHANT, 5);
    const debug = await graph('v21.0/debug_token', {
      input_token: expiring,
      access_token: `${APP_ID}|${APP_SECRET}`,
    });
    expect(debug.body.data.expires_at).toBe(Math.floor(START / 1000) + 5 * 86_400);
    h.meta.expireTokens(MERCHANT, 0);
    const expired = await graph('v21.0/me', { access_token: expiring });
    expect(expired.body.error).toMatchObject({ code: 190, error_subcode: 463 });
    expect(expired.body.error.message).toMatch(
      /^Error validating access token: Session has expired on Wednesday, 12-Mar-25 13:30:00 PDT/,
    );
  });

  it('answers 2500 without a token', async () => {
    const response = await graph('v21.0/me');
    expect(response.body.error).toMatchObject({ code: 2500, type: 'OAuthException' });
  });
});

describe('ad accounts', () => {
  it('pages the merchant’s 32 accounts with cursors and a full next URL', async () => {
    const token = tokenFor();
    const first = await graph('v21.0/me/adaccounts', { fields: 'name,currency', access_token: token });
    expect(first.body.data).toHaveLength(25);
    expect(first.body.data[0]).toEqual({ name: 'Hoodie Co Ads', currency: 'USD', id: HOODIE });
    expect(first.body.paging.cursors).toEqual({ before: expect.any(String), after: expect.any(String) });
    expect(first.body.paging.previous).toBeUndefined();
    const next = new URL(first.body.paging.next);
    expect(next.origin + next.pathname).toBe(`${ORIGIN}/sandbox/meta/graph/v21.0/me/adaccounts`);
    expect(next.searchParams.get('fields')).toBe('name,currency');
    expect(next.searchParams.get('after')).toBe(first.body.paging.cursors.after);

    const second = await graph(first.body.paging.next);
    expect(second.body.data).toHaveLength(7);
    expect(second.body.data.at(-1).name).toBe('Demo account 32');
    expect(second.body.paging.next).toBeUndefined();
    const back = await graph(second.body.paging.previous);
    expect(back.body.data).toHaveLength(25);
    expect(back.body.data[24].id).toBe(first.body.data[24].id);

    const viaCursor = await graph('v21.0/me/adaccounts', {
      after: first.body.paging.cursors.after,
      limit: '3',
      access_token: token,
    });
    expect(viaCursor.body.data.map((a: Json) => a.account_id)).toEqual([
      '9000000026',
      '9000000027',
      '9000000028',
    ]);
  });

  it('answers only the fields asked for, nested ones included', async () => {
    const response = await graph(`v21.0/${HOODIE}`, {
      fields:
        'name,currency,account_status,disable_reason,amount_spent,spend_cap,timezone_name,business{name}',
      access_token: tokenFor(),
    });
    expect(response.body).toEqual({
      name: 'Hoodie Co Ads',
      currency: 'USD',
      account_status: 1,
      disable_reason: 0,
      amount_spent: '123456',
      spend_cap: '500000',
      timezone_name: 'America/Los_Angeles',
      business: { name: 'Vigil Demo Business', id: '2000000000001' },
      id: HOODIE,
    });
    const cap = await graph(`v21.0/${CAP}`, {
      fields: 'currency,spend_cap,timezone_name',
      access_token: tokenFor(),
    });
    expect(cap.body).toEqual({ currency: 'EUR', spend_cap: '0', timezone_name: 'Europe/Berlin', id: CAP });
  });

  it('refuses an unknown field and an account the person cannot see', async () => {
    const field = await graph(`v21.0/${HOODIE}`, { fields: 'name,foo', access_token: tokenFor() });
    expect(field.status).toBe(400);
    expect(field.body.error).toMatchObject({
      message: '(#100) Tried accessing nonexisting field (foo) on node type (AdAccount)',
      code: 100,
    });
    const hidden = await graph(`v21.0/${HOODIE}`, { access_token: tokenFor(AGENCY) });
    expect(hidden.body.error).toMatchObject({ code: 100, error_subcode: 33, type: 'GraphMethodException' });
    expect(hidden.body.error.message).toContain(`Unsupported get request. Object with ID '${HOODIE}'`);
    expect((await graph(`v21.0/${CAP}`, { access_token: tokenFor(AGENCY) })).status).toBe(200);
  });

  it('lists ad sets and ads with their campaign, filtered by ad set and status', async () => {
    const token = tokenFor();
    const adSets = await graph(`v21.0/${HOODIE}/adsets`, {
      fields: 'name,effective_status,daily_budget,campaign{name}',
      access_token: token,
    });
    expect(adSets.body.data).toHaveLength(4);
    expect(adSets.body.data[0]).toEqual({
      name: 'Hoodies — lookalike US',
      effective_status: 'ACTIVE',
      daily_budget: '6000',
      campaign: { name: 'Hoodies — prospecting', id: expect.any(String) },
      id: expect.stringMatching(/^\d{18}$/),
    });
    const lookalike = adSets.body.data[0].id;
    const ads = await graph(`v21.0/${HOODIE}/ads`, {
      fields: 'name,adset_id,effective_status',
      filtering: JSON.stringify([{ field: 'adset.id', operator: 'IN', value: [lookalike] }]),
      access_token: token,
    });
    expect(ads.body.data.map((a: Json) => a.name)).toEqual([
      'Hoodie carousel',
      'Hoodie video 15s',
      'Hoodie customer review',
    ]);

    h.meta.setAdSetStatus(lookalike, 'WITH_ISSUES', 'Your payment method was declined.');
    h.meta.setAdStatus(ads.body.data[1].id, 'DISAPPROVED', 'Misleading claims');
    const flagged = await graph(`v21.0/${HOODIE}/adsets`, {
      fields: 'effective_status,issues_info',
      effective_status: '["WITH_ISSUES"]',
      access_token: token,
    });
    expect(flagged.body.data).toEqual([
      {
        effective_status: 'WITH_ISSUES',
        issues_info: [
          {
            level: 'AD_SET',
            error_code: expect.any(Number),
            error_summary: 'Your payment method was declined.',
            error_message: 'Your payment method was declined.',
            error_type: 'SOFT_ERROR',
          },
        ],
        id: lookalike,
      },
    ]);
    const rejected = await graph(`v21.0/${HOODIE}/ads`, {
      fields: 'effective_status,ad_review_feedback,issues_info',
      filtering: JSON.stringify([{ field: 'effective_status', operator: 'IN', value: ['DISAPPROVED'] }]),
      access_token: token,
    });
    expect(rejected.body.data).toHaveLength(1);
    expect(rejected.body.data[0].ad_review_feedback).toEqual({
      global: { 'Advertising Policies': 'Misleading claims' },
    });
    expect(rejected.body.data[0].issues_info[0]).toMatchObject({ level: 'AD', error_type: 'HARD_ERROR' });
  });
});

describe('insights', () => {
  const today = '2025-03-12';

  it('answers today by hour of the account’s day, the current hour in part', async () => {
    const response = await graph(`v21.0/${HOODIE}/insights`, {
      fields: 'spend,impressions,clicks',
      time_range: JSON.stringify({ since: today, until: today }),
      time_increment: '1',
      breakdowns: 'hourly_stats_aggregated_by_advertiser_time_zone',
      level: 'account',
      access_token: tokenFor(),
    });
    expect(response.status).toBe(200);
    const rows = response.body.data as Json[];
    expect(rows).toHaveLength(14);
    expect(rows[0]).toEqual({
      spend: expect.stringMatching(/^\d+\.\d{2}$/),
      impressions: expect.stringMatching(/^\d+$/),
      clicks: expect.stringMatching(/^\d+$/),
      date_start: today,
      date_stop: today,
      hourly_stats_aggregated_by_advertiser_time_zone: '00:00:00 - 00:59:59',
    });
    expect(rows.at(-1).hourly_stats_aggregated_by_advertiser_time_zone).toBe('13:00:00 - 13:59:59');
    const spend = (row: Json) => Number(row.spend);
    expect(spend(rows[3])).toBeLessThan(spend(rows[12]) / 4);
    // Half of 13:00 has passed: about half of 12:00's spend (the curves differ by under 20 %).
    expect(spend(rows[13]) / spend(rows[12])).toBeGreaterThan(0.35);
    expect(spend(rows[13]) / spend(rows[12])).toBeLessThan(0.65);
    const again = await graph(`v21.0/${HOODIE}/insights`, {
      fields: 'spend,impressions,clicks',
      time_range: JSON.stringify({ since: today, until: today }),
      time_increment: '1',
      breakdowns: 'hourly_stats_aggregated_by_advertiser_time_zone',
      access_token: tokenFor(),
    });
    expect(again.body.data).toEqual(rows);
  });

  it('answers days without the breakdown, and ad sets with filtering', async () => {
    const token = tokenFor();
    const days = await graph(`v21.0/${HOODIE}/insights`, {
      fields: 'spend',
      date_preset: 'last_7d',
      time_increment: '1',
      access_token: token,
    });
    expect(days.body.data.map((r: Json) => r.date_start)).toEqual([
      '2025-03-05',
      '2025-03-06',
      '2025-03-07',
      '2025-03-08',
      '2025-03-09',
      '2025-03-10',
      '2025-03-11',
    ]);
    // About 85 % of $140 a day.
    for (const row of days.body.data) expect(Number(row.spend)).toBeGreaterThan(90);
    const adSetId = h.meta.account(HOODIE)!.adSets[2]!.id;
    const adSets = await graph(`v21.0/${HOODIE}/insights`, {
      fields: 'adset_id,adset_name,spend',
      level: 'adset',
      date_preset: 'yesterday',
      filtering: JSON.stringify([{ field: 'adset.id', operator: 'IN', value: [adSetId] }]),
      access_token: token,
    });
    expect(adSets.body.data).toEqual([
      {
        adset_id: adSetId,
        adset_name: 'Retargeting — 7 days',
        spend: expect.any(String),
        date_start: '2025-03-11',
        date_stop: '2025-03-11',
      },
    ]);
    const bad = await graph(`v21.0/${HOODIE}/insights`, { fields: 'spend,foo', access_token: token });
    expect(bad.body.error.message).toMatch(/^\(#100\) foo is not valid for fields param/);
  });

  it('answers several time_ranges at once, each as its own rows', async () => {
    const ranges = [today, '2025-03-05', '2025-02-26'].map((day) => ({ since: day, until: day }));
    const response = await graph(`v21.0/${HOODIE}/insights`, {
      fields: 'spend',
      time_ranges: JSON.stringify(ranges),
      breakdowns: 'hourly_stats_aggregated_by_advertiser_time_zone',
      limit: '500',
      access_token: tokenFor(),
    });
    expect(response.status).toBe(200);
    const rows = response.body.data as Json[];
    const days = [...new Set(rows.map((row) => `${row.date_start}/${row.date_stop}`))].sort();
    expect(days).toEqual(['2025-02-26/2025-02-26', '2025-03-05/2025-03-05', '2025-03-12/2025-03-12']);
    // A past day has all 24 hours; today the 14 up to now.
    expect(rows.filter((row) => row.date_start === '2025-03-05')).toHaveLength(24);
    expect(rows.filter((row) => row.date_start === today)).toHaveLength(14);
    const bad = await graph(`v21.0/${HOODIE}/insights`, {
      fields: 'spend',
      time_ranges: JSON.stringify([{ since: 'yesterday' }]),
      access_token: tokenFor(),
    });
    expect(bad.body.error.message).toMatch(/time_ranges must be a list/);
  });

  it('follows the controls: today’s factor, a paused ad set, a disabled account', async () => {
    const token = tokenFor();
    const todaySpend = async () => {
      const { body } = await graph(`v21.0/${HOODIE}/insights`, {
        fields: 'spend',
        date_preset: 'today',
        access_token: token,
      });
      return Number(body.data[0]?.spend ?? 0);
    };
    const normal = await todaySpend();
    expect(normal).toBeGreaterThan(0);
    h.meta.scaleTodaySpend(HOODIE, 2);
    expect(await todaySpend()).toBeCloseTo(normal * 2, 1);
    h.meta.scaleTodaySpend(HOODIE, 0);
    expect(await todaySpend()).toBe(0);
    const yesterday = await graph(`v21.0/${HOODIE}/insights`, {
      fields: 'spend',
      date_preset: 'yesterday',
      access_token: token,
    });
    expect(Number(yesterday.body.data[0].spend)).toBeGreaterThan(0);

    h.meta.scaleTodaySpend(HOODIE, 1);
    h.meta.setAccountStatus(HOODIE, 2, 1);
    clock += 3_600_000;
    const stopped = await todaySpend();
    expect(stopped).toBeCloseTo(normal, 1);
    const account = await graph(`v21.0/${HOODIE}`, {
      fields: 'account_status,disable_reason',
      access_token: token,
    });
    expect(account.body).toMatchObject({ account_status: 2, disable_reason: 1 });
  });
});

describe('batch requests', () => {
  it('answers each item in order, a bad one failing alone', async () => {
    const token = tokenFor();
    h.meta.resetCalls();
    const response = await h.app.inject({
      method: 'POST',
      url: '/sandbox/meta/graph/v21.0/',
      payload: new URLSearchParams({
        access_token: token,
        batch: JSON.stringify([
          { method: 'GET', relative_url: `v21.0/${HOODIE}/adsets?fields=name` },
          { method: 'GET', relative_url: `${HOODIE}?fields=nope` },
          { method: 'GET', relative_url: 'v21.0/act_999/ads' },
          { method: 'GET', relative_url: 'me?fields=name' },
        ]),
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode).toBe(200);
    const items = response.json() as Json[];
    expect(items.map((i) => i.code)).toEqual([200, 400, 400, 200]);
    expect(JSON.parse(items[0].body).data).toHaveLength(4);
    expect(JSON.parse(items[1].body).error.code).toBe(100);
    expect(JSON.parse(items[2].body).error.error_subcode).toBe(33);
    expect(JSON.parse(items[3].body)).toEqual({ name: 'Demo Merchant', id: MERCHANT });
    expect(items[0].headers).toContainEqual({ name: 'X-Business-Use-Case-Usage', value: expect.any(String) });
    const calls = h.meta.calls();
    expect(calls).toMatchObject({ httpRequests: 1, calls: 4, errors: 2 });
    expect(calls.byAccount[HOODIE]).toBe(2);
    expect(calls.byPath['/act_{id}/adsets']).toBe(1);
    expect(calls.byUser[MERCHANT]).toBe(4);
  });

  it('refuses more than 50 items', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/sandbox/meta/graph',
      payload: {
        access_token: tokenFor(),
        batch: Array.from({ length: 51 }, () => ({ method: 'GET', relative_url: 'me' })),
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('Maximum batch size is 50');
  });
});

describe('rate limits', () => {
  let small: Harness;
  beforeAll(async () => {
    small = await harness({ accountPointsPerWindow: 3, rateWindowSeconds: 600 });
  });
  afterAll(async () => {
    await small.app.close();
  });

  it('shows usage growing, then answers 80004 until the window frees', async () => {
    small.meta.reset();
    const token = small.meta.issueToken(MERCHANT).token;
    const call = () => graph(`v21.0/${HOODIE}/adsets`, { access_token: token }, {}, small.app);
    const percents: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await call();
      expect(response.status).toBe(200);
      const usage = JSON.parse(response.headers['x-business-use-case-usage'] as string);
      percents.push(usage['2000000000001'][0].call_count);
      expect(JSON.parse(response.headers['x-ad-account-usage'] as string)).toMatchObject({
        ads_api_access_tier: 'development_access',
      });
      expect(JSON.parse(response.headers['x-app-usage'] as string)).toHaveProperty('call_count');
      clock += 1000;
    }
    expect(percents).toEqual([33, 67, 100]);
    const refused = await call();
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 80004, error_subcode: 2446079, type: 'OAuthException' });
    const usage = JSON.parse(refused.headers['x-business-use-case-usage'] as string)['2000000000001'][0];
    expect(usage).toMatchObject({ type: 'ads_management', estimated_time_to_regain_access: 10 });
    clock += 600_000;
    expect((await call()).status).toBe(200);
  });

  it('throttles the app (4), a person (17) and an account (80004) on demand', async () => {
    const token = tokenFor();
    h.meta.throttle({ kind: 'account', id: HOODIE }, 120);
    const account = await graph(`v21.0/${HOODIE}/ads`, { access_token: token });
    expect(account.body.error.code).toBe(80004);
    const usage = JSON.parse(account.headers['x-business-use-case-usage'] as string)['2000000000001'][0];
    expect(usage.estimated_time_to_regain_access).toBe(2);
    const insights = await graph(`v21.0/${HOODIE}/insights`, { access_token: token });
    expect(insights.body.error.code).toBe(80000);
    expect((await graph(`v21.0/${CAP}/ads`, { access_token: token })).status).toBe(200);
    h.meta.throttle({ kind: 'user', id: MERCHANT }, 60);
    expect((await graph('v21.0/me', { access_token: token })).body.error).toMatchObject({
      code: 17,
      is_transient: true,
    });
    h.meta.throttle({ kind: 'app' }, 60);
    expect((await graph('v21.0/me', { access_token: tokenFor(AGENCY) })).body.error.code).toBe(4);
    clock += 61_000;
    expect((await graph('v21.0/me', { access_token: token })).status).toBe(200);
  });
});

describe('the control API and page', () => {
  it('changes accounts and answers {code, message} for what it cannot find', async () => {
    const spend = await h.app.inject({
      method: 'POST',
      url: `/sandbox/api/meta/accounts/${HOODIE}/spend`,
      payload: { amountSpent: 480_000, spendCap: 500_000 },
    });
    expect(spend.json().data).toMatchObject({ amountSpent: '480000', spendCap: '500000' });
    const read = await graph(`v21.0/${HOODIE}`, { fields: 'amount_spent', access_token: tokenFor() });
    expect(read.body.amount_spent).toBe('480000');
    const missing = await h.app.inject({
      method: 'POST',
      url: '/sandbox/api/meta/adsets/1/status',
      payload: { effectiveStatus: 'PAUSED' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'NOT_FOUND', message: 'There is no ad set 1.' });
    const token = await h.app.inject({
      method: 'POST',
      url: `/sandbox/api/meta/users/${AGENCY}/tokens`,
      payload: {},
    });
    expect(token.json().data).toMatchObject({ userId: AGENCY, kind: 'long', valid: true });
    const overview = await h.app.inject('/sandbox/api/meta');
    expect(overview.json().data).toMatchObject({ appId: APP_ID, graphUrl: `${ORIGIN}/sandbox/meta/graph` });
  });

  it('renders the page and runs its forms', async () => {
    const html = await h.app.inject('/sandbox/meta');
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('Hoodie Co Ads');
    expect(html.body).toContain('Hoodies — lookalike US');
    const posted = await h.app.inject({
      method: 'POST',
      url: '/sandbox/meta/account-status',
      payload: 'account=1010101010&accountStatus=3&disableReason=3',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.statusCode).toBe(303);
    expect(h.meta.account(HOODIE)!.accountStatus).toBe(3);
    const home = await h.app.inject('/sandbox');
    expect(home.body).toContain('Open the Meta sandbox');
  });

  it('creates 1,000 accounts of 50 ads quickly and reads one without scanning the rest', async () => {
    const started = performance.now();
    const ids = h.meta.addAccounts(1000, { adSetsPerAccount: 5, adsPerAccount: 50 });
    expect(performance.now() - started).toBeLessThan(3000);
    const token = tokenFor();
    const last = ids.at(-1)!;
    const reading = performance.now();
    const ads = await graph(`v21.0/${last}/ads`, { fields: 'name', limit: '100', access_token: token });
    expect(ads.body.data).toHaveLength(50);
    const insights = await graph(`v21.0/${last}/insights`, { date_preset: 'today', access_token: token });
    expect(insights.status).toBe(200);
    expect(performance.now() - reading).toBeLessThan(500);
    const page = await graph('v21.0/me/adaccounts', { limit: '500', access_token: token });
    expect(page.body.data).toHaveLength(500);
  });
});
