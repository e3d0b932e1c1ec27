import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type GoogleSandbox, type Sandbox } from './index.ts';

const CLIENT_ID = 'vigil-test.apps.googleusercontent.com';
const CLIENT_SECRET = 'GOCSPX-test-secret';
const DEVELOPER_TOKEN = 'test-developer-token';
const ORIGIN = 'http://vigil.test';
const REDIRECT = `${ORIGIN}/app/oauth`;
const MERCHANT = 'merchant@vigil.test';
const AGENCY = 'agency@vigil.test';
const MANAGER = '1112223333';
const HOODIE = '2223334444';
const CAP = '3334445555';
const SOLO = '4445556666';
const SCOPE = 'openid email https://www.googleapis.com/auth/adwords';
/** 22:30 on Tuesday 24 November in New York, already 04:30 on the 25th in Paris. */
const START = Date.parse('2026-11-25T03:30:00Z');

let app: FastifyInstance;
let sandbox: Sandbox;
let google: GoogleSandbox;
let clock = START;

beforeAll(async () => {
  sandbox = createSandbox({
    publicUrl: ORIGIN,
    smtpPort: 0,
    oidcClientId: 'client-a',
    oidcClientSecret: 'secret-a',
    google: {
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      developerToken: DEVELOPER_TOKEN,
      pageSize: 5,
      now: () => clock,
    },
  });
  google = sandbox.google;
  app = Fastify();
  await app.register(sandbox.plugin, { prefix: '/sandbox' });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await sandbox.stop();
});

beforeEach(() => {
  clock = START;
  google.reset();
});

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeParams(challenge: string, overrides: Record<string, string> = {}) {
  return {
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: SCOPE,
    access_type: 'offline',
    prompt: 'consent',
    state: 'bind-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
}

/** The user picks an account on the consent screen and answers; resolves the redirect's URL. */
async function consent(
  challenge: string,
  form: Record<string, string> = {},
  overrides: Record<string, string> = {},
) {
  const response = await app.inject({
    method: 'POST',
    url: '/sandbox/google/o/oauth2/v2/auth',
    payload: new URLSearchParams({
      ...authorizeParams(challenge, overrides),
      user: MERCHANT,
      grant_ads: 'yes',
      decision: 'allow',
      ...form,
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(response.statusCode).toBe(302);
  return new URL(response.headers.location as string);
}

function tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/sandbox/google/token',
    payload: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

function exchange(code: string, verifier: string, extra: Record<string, string> = {}) {
  return tokenRequest({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
    ...extra,
  });
}

/** The whole flow for a user: consent, code, tokens. */
async function connect(user = MERCHANT, form: Record<string, string> = {}) {
  const { verifier, challenge } = pkce();
  const redirect = await consent(challenge, { user, ...form });
  const response = await exchange(redirect.searchParams.get('code')!, verifier);
  expect(response.statusCode).toBe(200);
  return response.json() as {
    access_token: string;
    refresh_token?: string;
    id_token: string;
    scope: string;
    expires_in: number;
  };
}

interface AdsOptions {
  token?: string;
  developerToken?: string | null;
  loginCustomerId?: string;
  version?: string;
}

function adsHeaders(options: AdsOptions) {
  return {
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(options.developerToken === null
      ? {}
      : { 'developer-token': options.developerToken ?? DEVELOPER_TOKEN }),
    ...(options.loginCustomerId ? { 'login-customer-id': options.loginCustomerId } : {}),
  };
}

function listAccessible(options: AdsOptions) {
  return app.inject({
    method: 'GET',
    url: `/sandbox/google/ads/${options.version ?? 'v21'}/customers:listAccessibleCustomers`,
    headers: adsHeaders(options),
  });
}

function search(customerId: string, body: Record<string, unknown>, options: AdsOptions) {
  return app.inject({
    method: 'POST',
    url: `/sandbox/google/ads/${options.version ?? 'v21'}/customers/${customerId}/googleAds:search`,
    headers: adsHeaders(options),
    payload: body,
  });
}

type Row = Record<string, Record<string, unknown>>;

/** Every row of a query, following nextPageToken. */
async function searchAll(customerId: string, query: string, options: AdsOptions): Promise<Row[]> {
  const rows: Row[] = [];
  let pageToken: string | undefined;
  do {
    const response = await search(customerId, { query, ...(pageToken ? { pageToken } : {}) }, options);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { results?: Row[]; nextPageToken?: string };
    rows.push(...(body.results ?? []));
    pageToken = body.nextPageToken;
  } while (pageToken);
  return rows;
}

/** The single GoogleAdsError of an error body, after checking the envelope. */
function adsError(response: { statusCode: number; json: () => unknown }, status: number, version = 'v21') {
  expect(response.statusCode).toBe(status);
  const body = response.json() as {
    error: {
      code: number;
      status: string;
      details: { '@type': string; errors: Record<string, unknown>[] }[];
    };
  };
  expect(body.error.code).toBe(status);
  const failure = body.error.details[0]!;
  expect(failure['@type']).toBe(
    `type.googleapis.com/google.ads.googleads.${version}.errors.GoogleAdsFailure`,
  );
  return { status: body.error.status, ...failure.errors[0]! } as {
    status: string;
    errorCode: Record<string, string>;
    message: string;
    details?: { quotaErrorDetails: { rateScope: string; rateName: string; retryDelay: string } };
  };
}

describe('Google OAuth', () => {
  it('shows the consent screen with the demo users, the first chosen', async () => {
    const response = await app.inject({
      url: `/sandbox/google/o/oauth2/v2/auth?${new URLSearchParams(authorizeParams(pkce().challenge))}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('value="merchant@vigil.test" checked');
    expect(response.body).toContain('agency@vigil.test');
    expect(response.body).toMatch(/<button[^>]*value="allow">Allow<\/button>/);
    expect(response.body).toMatch(/<button[^>]*value="cancel">Cancel<\/button>/);
  });

  it('answers error pages for an unknown client, a redirect URI not allowed and a missing PKCE challenge', async () => {
    const open = (overrides: Record<string, string>) =>
      app.inject({
        url: `/sandbox/google/o/oauth2/v2/auth?${new URLSearchParams(authorizeParams('x', overrides))}`,
      });
    const unknown = await open({ client_id: 'nobody' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toContain('Error 401: invalid_client');
    const mismatch = await open({ redirect_uri: 'https://evil.example/cb' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.body).toContain('Error 400: redirect_uri_mismatch');
    const noChallenge = await open({ code_challenge: '' });
    expect(noChallenge.statusCode).toBe(400);
    expect(noChallenge.body).toContain('Error 400: invalid_request');
  });

  it('sends a cancelled consent back with access_denied and the state', async () => {
    const redirect = await consent(pkce().challenge, { decision: 'cancel' });
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT);
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('state')).toBe('bind-123');
    expect(redirect.searchParams.get('code')).toBeNull();
  });

  it('exchanges a code with the right verifier for tokens and a signed id_token', async () => {
    const { verifier, challenge } = pkce();
    const redirect = await consent(challenge);
    expect(redirect.searchParams.get('state')).toBe('bind-123');
    expect(redirect.searchParams.get('scope')).toContain('https://www.googleapis.com/auth/adwords');
    const response = await exchange(redirect.searchParams.get('code')!, verifier);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ expires_in: 3599, token_type: 'Bearer' });
    expect(body.access_token).toMatch(/^ya29\./);
    expect(body.refresh_token).toMatch(/^1\/\//);
    expect(body.scope.split(' ').sort()).toEqual(
      [
        'https://www.googleapis.com/auth/adwords',
        'https://www.googleapis.com/auth/userinfo.email',
        'openid',
      ].sort(),
    );
    const jwks = createLocalJWKSet((await app.inject({ url: '/sandbox/google/oauth2/v3/certs' })).json());
    const { payload } = await jwtVerify(body.id_token, jwks, {
      issuer: 'https://accounts.google.com',
      audience: CLIENT_ID,
      currentDate: new Date(clock),
    });
    expect(payload).toMatchObject({ email: MERCHANT, email_verified: true, sub: '108204268033311234567' });
    expect(payload.exp! - payload.iat!).toBeGreaterThanOrEqual(3599);
  });

  it('refuses a wrong verifier, a reused or malformed code, a late code and a wrong secret as Google does', async () => {
    const first = pkce();
    const code = (await consent(first.challenge)).searchParams.get('code')!;
    const bad = await exchange(code, pkce().verifier);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid code verifier.' });
    const reused = await exchange(code, first.verifier);
    expect(reused.json()).toEqual({ error: 'invalid_grant', error_description: 'Bad Request' });
    const malformed = await exchange('not-a-code', first.verifier);
    expect(malformed.json()).toEqual({ error: 'invalid_grant', error_description: 'Malformed auth code.' });

    const late = pkce();
    const lateCode = (await consent(late.challenge)).searchParams.get('code')!;
    clock += 10 * 60_000 + 1;
    expect((await exchange(lateCode, late.verifier)).json().error).toBe('invalid_grant');

    const secret = pkce();
    const secretCode = (await consent(secret.challenge)).searchParams.get('code')!;
    const wrong = await exchange(secretCode, secret.verifier, { client_secret: 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'invalid_client', error_description: 'Unauthorized' });
    const grant = await tokenRequest({
      grant_type: 'password',
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
    });
    expect(grant.statusCode).toBe(400);
    expect(grant.json().error).toBe('unsupported_grant_type');
  });

  it('takes the client credentials from HTTP Basic too', async () => {
    const { verifier, challenge } = pkce();
    const code = (await consent(challenge)).searchParams.get('code')!;
    const basic = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64');
    const response = await tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier },
      { authorization: `Basic ${basic}` },
    );
    expect(response.statusCode).toBe(200);
  });

  it('refreshes, then answers invalid_grant once the refresh token is revoked', async () => {
    const tokens = await connect();
    const refresh = () =>
      tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
      });
    const refreshed = await refresh();
    expect(refreshed.statusCode).toBe(200);
    expect(Object.keys(refreshed.json()).sort()).toEqual([
      'access_token',
      'expires_in',
      'scope',
      'token_type',
    ]);
    const revoked = await app.inject({
      method: 'POST',
      url: '/sandbox/google/revoke',
      payload: `token=${encodeURIComponent(tokens.refresh_token!)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({});
    const after = await refresh();
    expect(after.statusCode).toBe(400);
    expect(after.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Token has been expired or revoked.',
    });
    const call = await listAccessible({ token: refreshed.json().access_token });
    expect(adsError(call, 401).errorCode).toEqual({ authenticationError: 'OAUTH_TOKEN_REVOKED' });
  });

  it('gives no new refresh token to a second consent without prompt=consent', async () => {
    await connect();
    const { verifier, challenge } = pkce();
    const redirect = await consent(challenge, {}, { prompt: 'select_account' });
    const body = (await exchange(redirect.searchParams.get('code')!, verifier)).json();
    expect(body.access_token).toBeDefined();
    expect(body.refresh_token).toBeUndefined();
  });

  it('lists the access tokens issued, with their user and expiry', async () => {
    const tokens = await connect(AGENCY);
    expect(google.accessTokens()).toEqual([
      expect.objectContaining({ token: tokens.access_token, email: AGENCY, expired: false, revoked: false }),
    ]);
  });
});

describe('Google Ads API', () => {
  it('lists the customers the user reaches directly', async () => {
    const merchant = await connect();
    const response = await listAccessible({ token: merchant.access_token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ resourceNames: [`customers/${MANAGER}`, `customers/${SOLO}`] });
    const agency = await connect(AGENCY);
    expect((await listAccessible({ token: agency.access_token })).json().resourceNames).toEqual([
      `customers/${MANAGER}`,
    ]);
  });

  it('answers Google error bodies for missing credentials, in the version of the path', async () => {
    const { access_token: token } = await connect();
    const noToken = adsError(await listAccessible({}), 401);
    expect(noToken.status).toBe('UNAUTHENTICATED');
    expect(adsError(await listAccessible({ token: 'ya29.forged' }), 401).errorCode).toEqual({
      authenticationError: 'OAUTH_TOKEN_INVALID',
    });
    const missing = adsError(await listAccessible({ token, developerToken: null }), 400);
    expect(missing).toMatchObject({
      status: 'INVALID_ARGUMENT',
      errorCode: { requestError: 'DEVELOPER_TOKEN_PARAMETER_MISSING' },
    });
    const wrong = adsError(
      await listAccessible({ token, developerToken: 'nope', version: 'v19' }),
      401,
      'v19',
    );
    expect(wrong.errorCode).toEqual({ authenticationError: 'DEVELOPER_TOKEN_INVALID' });
    clock += 3600 * 1000;
    expect(adsError(await listAccessible({ token }), 401).errorCode).toEqual({
      authenticationError: 'OAUTH_TOKEN_EXPIRED',
    });
    const unknownVersion = await listAccessible({ token, version: 'latest' });
    expect(unknownVersion.statusCode).toBe(404);
  });

  it('refuses a token without the Google Ads scope and a user without Google Ads accounts', async () => {
    const { access_token: narrow } = await connect(MERCHANT, { grant_ads: '' });
    const scopeless = await listAccessible({ token: narrow });
    expect(scopeless.statusCode).toBe(403);
    expect(scopeless.json().error.details[0].reason).toBe('ACCESS_TOKEN_SCOPE_INSUFFICIENT');
    google.addUser({ email: 'nobody@vigil.test', name: 'Nobody' });
    const { access_token: token } = await connect('nobody@vigil.test');
    expect(adsError(await listAccessible({ token }), 401).errorCode).toEqual({
      authenticationError: 'NOT_ADS_USER',
    });
  });

  it('reaches a manager’s client only with the manager as login-customer-id', async () => {
    const { access_token: token } = await connect();
    const query = 'SELECT customer.id, customer.descriptive_name FROM customer';
    const direct = adsError(await search(HOODIE, { query }, { token }), 403);
    expect(direct).toMatchObject({
      status: 'PERMISSION_DENIED',
      errorCode: { authorizationError: 'USER_PERMISSION_DENIED' },
    });
    const through = await search(HOODIE, { query }, { token, loginCustomerId: MANAGER });
    expect(through.statusCode).toBe(200);
    expect(through.json().results).toEqual([
      { customer: { resourceName: `customers/${HOODIE}`, id: HOODIE, descriptiveName: 'Hoodie Co' } },
    ]);
    expect(through.json().fieldMask).toBe('customer.id,customer.descriptiveName');
    const dashed = adsError(await search(HOODIE, { query }, { token, loginCustomerId: '111-222-3333' }), 401);
    expect(dashed.errorCode).toEqual({ authenticationError: 'CLIENT_CUSTOMER_ID_INVALID' });
    expect((await search(SOLO, { query }, { token })).statusCode).toBe(200);
    expect((await search(SOLO, { query }, { token, loginCustomerId: MANAGER })).statusCode).toBe(403);
    const agency = await connect(AGENCY);
    expect((await search(SOLO, { query }, { token: agency.access_token })).statusCode).toBe(403);
    expect((await search('9998887777', { query }, { token })).statusCode).toBe(403);
  });

  it('lists a manager’s clients with customer_client', async () => {
    const { access_token: token } = await connect();
    const rows = await searchAll(
      MANAGER,
      'SELECT customer_client.client_customer, customer_client.level, customer_client.manager, customer_client.descriptive_name, customer_client.currency_code, customer_client.time_zone, customer_client.status FROM customer_client ORDER BY customer_client.level',
      { token },
    );
    expect(rows.map((r) => r.customerClient)).toEqual([
      expect.objectContaining({ clientCustomer: `customers/${MANAGER}`, level: '0', manager: true }),
      expect.objectContaining({
        resourceName: `customers/${MANAGER}/customerClients/${HOODIE}`,
        clientCustomer: `customers/${HOODIE}`,
        level: '1',
        manager: false,
        descriptiveName: 'Hoodie Co',
        currencyCode: 'USD',
        timeZone: 'America/New_York',
        status: 'ENABLED',
      }),
      expect.objectContaining({
        clientCustomer: `customers/${CAP}`,
        currencyCode: 'EUR',
        timeZone: 'Europe/Paris',
      }),
    ]);
  });

  it('pages at pageSize rows with a token good only for the same query, each page one operation', async () => {
    const { access_token: token } = await connect();
    const query = 'SELECT ad_group_ad.ad.id, ad_group_ad.ad.name, campaign.name FROM ad_group_ad';
    const first = await search(HOODIE, { query }, { token, loginCustomerId: MANAGER });
    const page1 = first.json();
    expect(page1.results).toHaveLength(5);
    expect(page1.nextPageToken).toEqual(expect.any(String));
    expect(page1.results[0]).toEqual({
      adGroupAd: {
        resourceName: expect.stringMatching(new RegExp(`^customers/${HOODIE}/adGroupAds/\\d+~\\d+$`)),
        ad: {
          resourceName: expect.stringMatching(/ads\/\d+$/),
          id: expect.any(String),
          name: 'Everyday hoodie — search',
        },
      },
      campaign: { resourceName: expect.stringMatching(/campaigns\/\d+$/), name: 'Everyday hoodie — search' },
    });
    const second = await search(
      HOODIE,
      { query, pageToken: page1.nextPageToken },
      { token, loginCustomerId: MANAGER },
    );
    expect(second.json().results).toHaveLength(2);
    expect(second.json().nextPageToken).toBeUndefined();
    const other = await search(
      HOODIE,
      { query: 'SELECT ad_group_ad.ad.id FROM ad_group_ad', pageToken: page1.nextPageToken },
      { token, loginCustomerId: MANAGER },
    );
    expect(adsError(other, 400).errorCode).toEqual({ requestError: 'INVALID_PAGE_TOKEN' });
    expect(google.quota().remainingOperations).toBe(15_000 - 2);
    const pageSize = await search(HOODIE, { query, pageSize: 100 }, { token, loginCustomerId: MANAGER });
    expect(pageSize.statusCode).toBe(400);
    expect(pageSize.json().error.details[0]['@type']).toBe('type.googleapis.com/google.rpc.BadRequest');
  });

  it('filters, orders and limits with GAQL', async () => {
    const { access_token: token } = await connect();
    const response = await search(
      HOODIE,
      {
        query: `SELECT campaign.id, campaign.name, campaign.status, campaign.primary_status, campaign.advertising_channel_type
                FROM campaign WHERE campaign.status = ENABLED AND campaign.name LIKE '%—%' ORDER BY campaign.name DESC LIMIT 1`,
      },
      { token, loginCustomerId: MANAGER },
    );
    expect(response.json().results).toEqual([
      {
        campaign: {
          resourceName: expect.stringMatching(/^customers\/2223334444\/campaigns\/\d+$/),
          id: expect.any(String),
          name: 'Winter sale — display',
          status: 'ENABLED',
          primaryStatus: 'ELIGIBLE',
          advertisingChannelType: 'DISPLAY',
        },
      },
    ]);
  });

  it('reports hourly metrics by the customer’s local date and hour, leaving out empty hours', async () => {
    const { access_token: token } = await connect();
    const rows = await searchAll(
      HOODIE,
      `SELECT campaign.name, segments.date, segments.hour, metrics.impressions, metrics.clicks, metrics.cost_micros
       FROM campaign WHERE segments.date DURING TODAY AND campaign.name = 'Everyday hoodie — search'
       ORDER BY segments.hour`,
      { token, loginCustomerId: MANAGER },
    );
    // 22:30 in New York: hours 0 to 22 of the 24th, none from 1:00 to 5:59.
    const hours = rows.map((r) => r.segments!.hour);
    expect(rows.every((r) => r.segments!.date === '2026-11-24')).toBe(true);
    expect(hours).toEqual([0, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]);
    for (const row of rows) {
      expect(row.metrics!.impressions).toMatch(/^[1-9]\d*$/);
      expect(row.metrics!.costMicros).toMatch(/^\d+0000$/);
    }
    // The current hour has served about half an hour's worth.
    const last = Number(rows.at(-1)!.metrics!.impressions);
    const before = Number(rows.at(-2)!.metrics!.impressions);
    expect(last).toBeLessThan(before);

    const paris = await searchAll(
      CAP,
      'SELECT segments.date, segments.hour, metrics.impressions FROM customer WHERE segments.date DURING TODAY',
      { token, loginCustomerId: MANAGER },
    );
    expect(paris.map((r) => [r.segments!.date, r.segments!.hour])).toEqual([['2026-11-25', 0]]);
  });

  it('is deterministic and adds up: ads sum to their campaign, days have weekday variation', async () => {
    const { access_token: token } = await connect();
    const byAd = await searchAll(
      HOODIE,
      "SELECT campaign.id, metrics.impressions, metrics.cost_micros FROM ad_group_ad WHERE segments.date BETWEEN '2026-11-01' AND '2026-11-20'",
      { token, loginCustomerId: MANAGER },
    );
    const byCampaign = await searchAll(
      HOODIE,
      "SELECT campaign.id, metrics.impressions, metrics.cost_micros FROM campaign WHERE segments.date BETWEEN '2026-11-01' AND '2026-11-20'",
      { token, loginCustomerId: MANAGER },
    );
    for (const campaign of byCampaign) {
      const ads = byAd.filter((r) => r.campaign!.id === campaign.campaign!.id);
      const sum = ads.reduce((total, r) => total + Number(r.metrics!.impressions), 0);
      expect(sum).toBe(Number(campaign.metrics!.impressions));
    }
    // The paused campaign has served nothing, but still has its row: no segment was selected.
    expect(byCampaign.map((r) => r.metrics!.impressions)).toContain('0');
    const again = await searchAll(
      HOODIE,
      "SELECT campaign.id, metrics.impressions, metrics.cost_micros FROM campaign WHERE segments.date BETWEEN '2026-11-01' AND '2026-11-20'",
      { token, loginCustomerId: MANAGER },
    );
    expect(again).toEqual(byCampaign);
    const days = await searchAll(
      HOODIE,
      'SELECT segments.date, segments.day_of_week, metrics.impressions FROM customer WHERE segments.date DURING LAST_14_DAYS',
      { token, loginCustomerId: MANAGER },
    );
    expect(days).toHaveLength(14);
    expect(days[0]!.segments).toEqual({ date: '2026-11-10', dayOfWeek: 'TUESDAY' });
    expect(new Set(days.map((d) => d.metrics!.impressions)).size).toBeGreaterThan(7);
  });

  it('answers query errors with Google’s QueryError names', async () => {
    const { access_token: token } = await connect();
    const code = async (query: string, customerId = HOODIE) =>
      adsError(await search(customerId, { query }, { token, loginCustomerId: MANAGER }), 400).errorCode
        .queryError;
    expect(await code('SELECT campaign.nope FROM campaign')).toBe('UNRECOGNIZED_FIELD');
    expect(await code('SELECT campaign.id FROM keyword_view')).toBe('BAD_RESOURCE_TYPE_IN_FROM_CLAUSE');
    expect(await code('SELECT ad_group.name FROM campaign')).toBe(
      'PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE',
    );
    expect(await code('SELECT campaign.id FROM campaign WHERE')).toBe('UNEXPECTED_END_OF_QUERY');
    expect(await code('SELECT campaign.id campaign')).toBe('EXPECTED_FROM');
    expect(await code('SELECT segments.date, metrics.clicks FROM campaign')).toBe(
      'EXPECTED_FILTERS_ON_DATE_RANGE',
    );
    expect(await code('SELECT metrics.clicks FROM customer', MANAGER)).toBe('REQUESTED_METRICS_FOR_MANAGER');
    expect(await code('SELECT metrics.clicks FROM customer_client', MANAGER)).toBe(
      'PROHIBITED_METRIC_IN_SELECT_OR_WHERE_CLAUSE',
    );
    expect(await code('SELECT campaign.id FROM campaign WHERE campaign.status = LIVE')).toBe(
      'BAD_ENUM_CONSTANT',
    );
  });

  it('spends the daily operations and then answers RESOURCE_EXHAUSTED until midnight Pacific', async () => {
    const tokens = await connect();
    const token = tokens.access_token;
    google.setRemainingOperations(1);
    expect((await listAccessible({ token })).statusCode).toBe(200);
    const error = adsError(await listAccessible({ token }), 429);
    expect(error.status).toBe('RESOURCE_EXHAUSTED');
    expect(error.errorCode).toEqual({ quotaError: 'RESOURCE_EXHAUSTED' });
    // 03:30 UTC is 19:30 the day before in Los Angeles: 4½ hours to go.
    expect(error.details!.quotaErrorDetails).toEqual({
      rateScope: 'DEVELOPER',
      rateName: 'Number of operations for basic access',
      retryDelay: `${4.5 * 3600}s`,
    });
    clock += 4.5 * 3600 * 1000;
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
    });
    expect((await listAccessible({ token: refreshed.json().access_token })).statusCode).toBe(200);
    expect(google.quota().remainingOperations).toBe(14_999);
  });

  it('answers RESOURCE_TEMPORARILY_EXHAUSTED with the seconds left while the quota is exhausted', async () => {
    const { access_token: token } = await connect();
    google.exhaustQuota(30);
    clock += 10_000;
    const error = adsError(await listAccessible({ token }), 429);
    expect(error.errorCode).toEqual({ quotaError: 'RESOURCE_TEMPORARILY_EXHAUSTED' });
    expect(error.details!.quotaErrorDetails.retryDelay).toBe('20s');
    clock += 20_000;
    expect((await listAccessible({ token })).statusCode).toBe(200);
  });

  it('counts requests, operations and errors by customer, user and endpoint', async () => {
    const { access_token: token } = await connect();
    await listAccessible({ token });
    await search(SOLO, { query: 'SELECT customer.id FROM customer' }, { token });
    await search(HOODIE, { query: 'SELECT customer.id FROM customer' }, { token });
    const usage = google.usage();
    expect(usage.total).toEqual({ requests: 3, operations: 2, errors: 1 });
    expect(usage.byCustomer[HOODIE]).toEqual({ requests: 1, operations: 0, errors: 1 });
    expect(usage.byUser[MERCHANT]).toEqual({ requests: 3, operations: 2, errors: 1 });
    expect(usage.byEndpoint.listAccessibleCustomers).toEqual({ requests: 1, operations: 1, errors: 0 });
    google.resetUsage();
    expect(google.usage().total.requests).toBe(0);
  });
});

describe('Google control actions', () => {
  const query = (token: string, customerId: string, gaql: string) =>
    searchAll(customerId, gaql, { token, loginCustomerId: MANAGER });

  it('changes a customer’s status; a cancelled one answers CUSTOMER_NOT_ENABLED', async () => {
    const { access_token: token } = await connect();
    google.setCustomerStatus(HOODIE, 'SUSPENDED');
    expect((await query(token, HOODIE, 'SELECT customer.status FROM customer'))[0]!.customer!.status).toBe(
      'SUSPENDED',
    );
    google.setCustomerStatus(HOODIE, 'CANCELED');
    const cancelled = await search(
      HOODIE,
      { query: 'SELECT customer.status FROM customer' },
      { token, loginCustomerId: MANAGER },
    );
    expect(adsError(cancelled, 403).errorCode).toEqual({ authorizationError: 'CUSTOMER_NOT_ENABLED' });
    const clients = await query(
      token,
      MANAGER,
      'SELECT customer_client.id, customer_client.status FROM customer_client',
    );
    expect(clients.find((r) => r.customerClient!.id === HOODIE)!.customerClient!.status).toBe('CANCELED');
  });

  it('disapproves an ad with a policy topic, and approves it again', async () => {
    const { access_token: token } = await connect();
    const ad = google.customer(HOODIE)!.ads[0]!;
    google.setAdApproval(HOODIE, ad.id, 'DISAPPROVED', { topic: 'DESTINATION_NOT_WORKING' });
    const gaql = `SELECT ad_group_ad.policy_summary.approval_status, ad_group_ad.policy_summary.review_status,
      ad_group_ad.policy_summary.policy_topic_entries, campaign.primary_status FROM ad_group_ad
      WHERE ad_group_ad.policy_summary.approval_status IN ('DISAPPROVED', 'APPROVED_LIMITED')`;
    const [row] = await query(token, HOODIE, gaql);
    expect(row!.adGroupAd).toEqual({
      resourceName: ad.resourceName,
      policySummary: {
        approvalStatus: 'DISAPPROVED',
        reviewStatus: 'REVIEWED',
        policyTopicEntries: [{ topic: 'DESTINATION_NOT_WORKING', type: 'PROHIBITED' }],
      },
    });
    expect(row!.campaign!.primaryStatus).toBe('ELIGIBLE');
    google.setAdApproval(HOODIE, ad.resourceName, 'APPROVED');
    expect(await query(token, HOODIE, gaql)).toEqual([]);
  });

  it('sets a campaign’s primary status and reasons', async () => {
    const { access_token: token } = await connect();
    const campaign = google.customer(CAP)!.campaigns[0]!;
    google.setCampaignPrimaryStatus(CAP, campaign.id, 'LIMITED', ['BUDGET_CONSTRAINED']);
    const rows = await query(
      token,
      CAP,
      `SELECT campaign.primary_status, campaign.primary_status_reasons FROM campaign WHERE campaign.id = ${campaign.id}`,
    );
    expect(rows[0]!.campaign).toMatchObject({
      primaryStatus: 'LIMITED',
      primaryStatusReasons: ['BUDGET_CONSTRAINED'],
    });
    expect(() => google.setCampaignPrimaryStatus(CAP, campaign.id, 'BROKEN' as never)).toThrow(
      /primaryStatus/,
    );
  });

  it('scales today’s traffic without touching yesterday', async () => {
    const { access_token: token } = await connect();
    const gaql = (range: string) =>
      `SELECT segments.date, metrics.impressions, metrics.cost_micros FROM customer WHERE segments.date DURING ${range}`;
    const yesterday = await query(token, HOODIE, gaql('YESTERDAY'));
    expect(await query(token, HOODIE, gaql('TODAY'))).toHaveLength(1);
    google.scaleToday(HOODIE, 0);
    expect(await query(token, HOODIE, gaql('TODAY'))).toEqual([]);
    expect(await query(token, HOODIE, gaql('YESTERDAY'))).toEqual(yesterday);
  });

  it('revokes a user’s refresh tokens', async () => {
    const tokens = await connect();
    expect(google.revokeUser(MERCHANT)).toEqual({ revokedRefreshTokens: 1 });
    const refresh = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
    });
    expect(refresh.json().error).toBe('invalid_grant');
  });

  it('creates 1,000 customers with 50 ads each quickly, and searches one of them quickly', async () => {
    const started = performance.now();
    const created = google.addCustomers(1000, { adsPerCustomer: 50 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(created).toHaveLength(1000);
    expect(created[999]!.adCount).toBe(50);
    const { access_token: token } = await connect();
    const listed = (await listAccessible({ token })).json().resourceNames;
    expect(listed).toHaveLength(1002);
    const searchStarted = performance.now();
    const rows = await searchAll(
      created[500]!.id,
      'SELECT ad_group_ad.ad.id, ad_group_ad.policy_summary.approval_status, metrics.impressions FROM ad_group_ad WHERE segments.date DURING LAST_7_DAYS',
      { token },
    );
    expect(rows).toHaveLength(50);
    expect(performance.now() - searchStarted).toBeLessThan(1000);
  });
});

describe('Google control API and page', () => {
  it('answers { data } and { code, message } under /api/google', async () => {
    const root = await app.inject({ url: '/sandbox/api/google' });
    expect(root.json().data).toMatchObject({
      clientId: CLIENT_ID,
      developerToken: DEVELOPER_TOKEN,
      redirectUris: [REDIRECT],
      endpoints: {
        authorize: `${ORIGIN}/sandbox/google/o/oauth2/v2/auth`,
        ads: `${ORIGIN}/sandbox/google/ads/v21`,
      },
    });
    const status = await app.inject({
      method: 'POST',
      url: `/sandbox/api/google/customers/${SOLO}/status`,
      payload: { status: 'SUSPENDED' },
    });
    expect(status.json().data.status).toBe('SUSPENDED');
    const missing = await app.inject({ url: '/sandbox/api/google/customers/123' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'NOT_FOUND', message: 'There is no customer 123.' });
    const invalid = await app.inject({
      method: 'POST',
      url: '/sandbox/api/google/quota',
      payload: { exhaustForSeconds: -1 },
    });
    expect(invalid.statusCode).toBe(400);
    const quota = await app.inject({
      method: 'POST',
      url: '/sandbox/api/google/quota',
      payload: { exhaustForSeconds: 60 },
    });
    expect(quota.json().data.exhaustedUntil).toBe(new Date(clock + 60_000).toISOString());
    const bulk = await app.inject({
      method: 'POST',
      url: '/sandbox/api/google/customers',
      payload: { count: 2, managerId: MANAGER, adsPerCustomer: 3 },
    });
    expect(bulk.json().data.list.map((c: { managerId: string }) => c.managerId)).toEqual([MANAGER, MANAGER]);
  });

  it('shows the control page and applies its forms', async () => {
    const shown = await app.inject({ url: `/sandbox/google?customer=${HOODIE}` });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('Hoodie Co');
    expect(shown.body).toContain('Everyday hoodie — search');
    const posted = await app.inject({
      method: 'POST',
      url: '/sandbox/google/control/status',
      payload: `customer=${HOODIE}&status=CLOSED`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toContain(`customer=${HOODIE}`);
    expect(google.customer(HOODIE)!.status).toBe('CLOSED');
    const home = await app.inject({ url: '/sandbox' });
    expect(home.body).toContain('Open the Google Ads sandbox');
  });
});
