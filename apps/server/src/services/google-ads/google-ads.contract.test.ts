import type { AddressInfo } from 'node:net';
import { createSandbox, type Sandbox } from '@vigil/sandbox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_GOOGLE_ADS } from '../../config.ts';
import { randomToken, sha256Base64Url } from '../../lib/secrets.ts';
import { createGoogleAdsApi, metricsQuery, STATE_QUERY } from './google-ads-api.ts';
import {
  createGoogleAdsClient,
  idTokenClaims,
  type GoogleAdsClient,
  type GoogleAuth,
} from './google-ads.client.ts';

const MANAGER = '1112223333';
const HOODIE_CO = '2223334444';
const DIRECT = '4445556666';

/**
 * The adapter against the sandbox Google over HTTP, with a sandbox page size of 2 rows so paging is exercised:
 * what Google's documented wire format promises, the adapter gets right.
 */
describe('Google Ads adapter against the sandbox', () => {
  let server: FastifyInstance;
  let sandbox: Sandbox;
  let url = '';
  let now = Date.parse('2025-03-04T15:30:00Z');
  let client: GoogleAdsClient;
  let auth: GoogleAuth;
  let email = 'merchant@vigil.test';
  let counter = 0;

  /** The OAuth web server flow over HTTP, as a browser would do it; answers a refresh token. */
  async function signIn(as: string, c: GoogleAdsClient): Promise<GoogleAuth> {
    const verifier = randomToken(48);
    const redirectUri = `${url}/app/oauth`;
    const page = await fetch(
      c.authorizeUrl({ state: 'st', codeChallenge: sha256Base64Url(verifier), redirectUri }),
    );
    const html = await page.text();
    const form = new URLSearchParams();
    for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
      form.set(name!, value!.replaceAll('&amp;', '&'));
    }
    form.set('user', as);
    form.set('grant_ads', 'yes');
    form.set('decision', 'allow');
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
    const answer = await fetch(new URL(action, url), { method: 'POST', body: form, redirect: 'manual' });
    const code = new URL(answer.headers.get('location')!).searchParams.get('code')!;
    const grant = await c.exchangeCode(code, verifier, redirectUri);
    expect(grant.refreshToken).toMatch(/^1\/\//);
    expect(idTokenClaims(grant.idToken!, SANDBOX_GOOGLE_ADS.clientId).email).toBe(as);
    counter += 1;
    return { connectionId: `conn-${counter}`, refreshToken: grant.refreshToken! };
  }

  beforeAll(async () => {
    server = Fastify();
    sandbox = createSandbox({
      publicUrl: () => url,
      smtpPort: 0,
      oidcClientId: 'vigil-test',
      oidcClientSecret: 'vigil-test-secret',
      google: { ...SANDBOX_GOOGLE_ADS, pageSize: 2, now: () => now },
    });
    await server.register(sandbox.plugin, { prefix: '/sandbox' });
    await server.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.stop();
  });
  beforeEach(async () => {
    counter += 1;
    email = `contract-${counter}@vigil.test`;
    sandbox.google.addUser({ email, customerIds: [MANAGER, DIRECT] });
    client = createGoogleAdsClient({
      settings: {
        ...SANDBOX_GOOGLE_ADS,
        apiVersion: 'v21',
        apiUrl: `${url}/sandbox/google/ads`,
        authorizeUrl: `${url}/sandbox/google/o/oauth2/v2/auth`,
        tokenUrl: `${url}/sandbox/google/token`,
      },
      now: () => now,
    });
    auth = await signIn(email, client);
  });

  it('pages googleAds:search by nextPageToken, reaching a client through its manager', async () => {
    const ads = sandbox.google.customer(HOODIE_CO)!.ads.length;
    expect(ads).toBeGreaterThan(2);
    const before = client.usage().searchRequests;
    const { rows } = await client.search(auth, HOODIE_CO, STATE_QUERY, { loginCustomerId: MANAGER });
    expect(rows).toHaveLength(ads);
    expect(client.usage().searchRequests - before).toBe(Math.ceil(ads / 2));
    const api = createGoogleAdsApi(client);
    const state = await api.accountState(auth, { customerId: HOODIE_CO, loginCustomerId: MANAGER });
    expect(state).toMatchObject({ name: 'Hoodie Co', status: 'ENABLED', truncated: false });
    expect(state.ads[0]).toMatchObject({ approvalStatus: 'APPROVED', adGroup: { status: 'ENABLED' } });
  });

  it('lists the accessible customers and a manager’s clients', async () => {
    const api = createGoogleAdsApi(client);
    const list = await api.customers(auth);
    expect(list.map((c) => c.customerId).sort()).toEqual([MANAGER, DIRECT]);
    const manager = list.find((c) => c.customerId === MANAGER)!;
    expect(manager.clients.map((c) => c.name).sort()).toEqual(['Cap Co', 'Hoodie Co']);
  });

  it('reads hourly figures for today and the same weekdays', async () => {
    const api = createGoogleAdsApi(client);
    const points = await api.hourlyFigures(auth, { customerId: DIRECT, loginCustomerId: null }, [
      '2025-03-04',
      '2025-02-25',
    ]);
    expect(points.length).toBeGreaterThan(0);
    expect(new Set(points.map((p) => p.date))).toEqual(new Set(['2025-03-04', '2025-02-25']));
    expect(points.every((p) => p.hour >= 0 && p.hour < 24 && p.spend >= 0)).toBe(true);
  });

  it('maps Google’s errors: an account not reached, a bad query, metrics of a manager', async () => {
    await expect(client.search(auth, HOODIE_CO, STATE_QUERY)).rejects.toMatchObject({
      kind: 'refused',
      status: 403,
      codes: ['authorizationError.USER_PERMISSION_DENIED'],
    });
    await expect(client.search(auth, DIRECT, 'SELECT nothing.at_all FROM customer')).rejects.toMatchObject({
      kind: 'refused',
      codes: ['queryError.UNRECOGNIZED_FIELD'],
    });
    await expect(client.search(auth, MANAGER, metricsQuery(['2025-03-04']))).rejects.toMatchObject({
      kind: 'refused',
    });
    sandbox.google.setCustomerStatus(DIRECT, 'CANCELED');
    await expect(client.search(auth, DIRECT, STATE_QUERY)).rejects.toMatchObject({
      kind: 'refused',
      codes: ['authorizationError.CUSTOMER_NOT_ENABLED'],
    });
    sandbox.google.setCustomerStatus(DIRECT, 'ENABLED');
  });

  it('obeys the quota: after a quota error no call until the retry delay, then calls again', async () => {
    sandbox.google.exhaustQuota(30);
    await expect(client.listAccessibleCustomers(auth)).rejects.toMatchObject({
      kind: 'quota',
      retryAfterMs: 30_000,
    });
    const made = sandbox.google.usage().total.requests;
    now += 20_000;
    await expect(client.search(auth, DIRECT, STATE_QUERY)).rejects.toMatchObject({ kind: 'quota' });
    expect(sandbox.google.usage().total.requests).toBe(made);
    now += 10_001;
    await expect(client.listAccessibleCustomers(auth)).resolves.toContain(`customers/${DIRECT}`);

    const remaining = sandbox.google.quota().remainingOperations;
    sandbox.google.setRemainingOperations(0);
    const daily = await client.listAccessibleCustomers(auth).catch((error: unknown) => error);
    expect(daily).toMatchObject({ kind: 'quota', codes: ['quotaError.RESOURCE_EXHAUSTED'] });
    sandbox.google.setRemainingOperations(remaining);
    now += (daily as { retryAfterMs: number }).retryAfterMs + 1;
  });

  it('refreshes before the access token ends, and reads a revoked grant as auth', async () => {
    await client.listAccessibleCustomers(auth);
    await client.listAccessibleCustomers(auth);
    const refreshes = client.usage().tokenRefreshes;
    now += 56 * 60_000;
    await client.listAccessibleCustomers(auth);
    expect(client.usage().tokenRefreshes).toBe(refreshes + 1);
    sandbox.google.revokeUser(email);
    await expect(client.listAccessibleCustomers(auth)).rejects.toMatchObject({
      kind: 'auth',
      codes: ['invalid_grant'],
    });
  });
});
