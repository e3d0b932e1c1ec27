import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GoogleAdsConditions } from '@vigil/contracts';
import { incidents, monitors, providerConnections } from '../../db/schema.ts';
import {
  signUp,
  websiteMonitor,
  createMonitor,
  type TestUser,
} from '../../modules/monitors/monitor-test-helpers.ts';
import { databases } from '../../test/databases.ts';
import { integrationDeps, testCheckEngine } from '../../test/integration-kit.ts';
import { bindAccount, consentInSandbox } from '../../test/sandbox-consent.ts';
import { call, startTestApp, type TestApp } from '../../test/test-app.ts';
import { createGoogleAdsIntegration } from './index.ts';

const MERCHANT = 'merchant@vigil.test';
const AGENCY = 'agency@vigil.test';
const MANAGER = '1112223333';
const HOODIE_CO = '2223334444';
const DIRECT = '4445556666';

/** Only the account's own facts: the figures of the seeded sandbox depend on the hour the test runs. */
const CONDITIONS: GoogleAdsConditions = {
  account_not_enabled: { enabled: true },
  ad_disapproved: { enabled: true },
  campaign_not_eligible: { enabled: true },
  zero_impressions: { enabled: false },
  spend_anomaly: { enabled: false, changePercent: 50 },
  connection_lost: { enabled: true },
  shop_cannot_sell: { enabled: false },
};

let userCounter = 0;

describe.each(databases)('Google Ads binding, pickers, monitors and checks on $name', (testDatabase) => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let ownerConnection: string;
  let strangerConnection: string;

  const google = () => t.sandbox.google;
  const usageOf = (email: string) => google().usage().byUser[email]?.requests ?? 0;

  /** The browser's part, over HTTP: ouathuri, Google's consent page, its form posted, back at /app/oauth. */
  async function authorize(user: TestUser, email: string, decision: 'allow' | 'cancel' = 'allow') {
    const { authorizeUrl, params } = await consentInSandbox(t, user, 'google_ads', {
      user: email,
      grant_ads: 'yes',
      decision,
    });
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    return params;
  }

  async function connect(user: TestUser, email: string): Promise<string> {
    return bindAccount(t, user, await authorize(user, email));
  }

  function engineFor() {
    const deps = integrationDeps(t);
    const checker = createGoogleAdsIntegration({ settings: t.deps.config.googleAds!, ...deps }).checker();
    return { engine: testCheckEngine(t, deps.store, { googleAds: checker }, 20), checker };
  }

  function adsMonitor(user: TestUser, target: object, name = 'Google Ads') {
    return {
      ...websiteMonitor(user.email),
      name,
      service: 'google_ads',
      target,
      conditions: CONDITIONS,
      intervalSeconds: 300,
      confirmations: 2,
    };
  }

  beforeAll(async () => {
    t = await startTestApp(testDatabase);
    owner = await signUp(t, { name: 'Business', days: 30 });
    stranger = await signUp(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('binds a Google account with PKCE: the id_token names it, the refresh token is kept sealed', async () => {
    const params = await authorize(owner, MERCHANT);
    const { status, body } = await call(t.app, 'POST', '/monitor-bff/monitor/bind', {
      token: owner.token,
      body: { params },
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const merchant = google()
      .users()
      .find((u) => u.email === MERCHANT)!;
    expect(body.data.connection).toMatchObject({
      provider: 'google',
      account: merchant.sub,
      name: MERCHANT,
      status: 'active',
    });
    expect(body.data.connection.scopes).toContain('https://www.googleapis.com/auth/adwords');
    ownerConnection = body.data.connection.connectionId;
    const [row] = await t.database.db
      .select()
      .from(providerConnections)
      .where(eq(providerConnections.id, ownerConnection));
    expect(row!.tokenCiphertext).toMatch(/^v1\./);
    expect(row!.tokenCiphertext).not.toContain('1//');
    expect(row!.details).toEqual({ email: MERCHANT });

    const again = await call(t.app, 'POST', '/monitor-bff/monitor/bind', {
      token: owner.token,
      body: { params },
    });
    expect(again.status).toBe(400);

    const cancelled = await authorize(owner, MERCHANT, 'cancel');
    expect(cancelled.error).toBe('access_denied');
    const refused = await call(t.app, 'POST', '/monitor-bff/monitor/bind', {
      token: owner.token,
      body: { params: cancelled },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Connecting Google Ads was cancelled, or access was not granted.');

    strangerConnection = await connect(stranger, AGENCY);
  });

  it('lists the accounts it reaches, a manager’s clients under it, and an account’s campaigns and ads', async () => {
    const { status, body } = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/google-customers?connectionId=${ownerConnection}`,
      { token: owner.token },
    );
    expect(status, JSON.stringify(body)).toBe(200);
    const manager = body.data.list.find((c: { customerId: string }) => c.customerId === MANAGER);
    expect(manager).toMatchObject({ manager: true, loginCustomerId: null, status: 'ENABLED' });
    expect(manager.clients).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ customerId: HOODIE_CO, name: 'Hoodie Co', loginCustomerId: MANAGER }),
        expect.objectContaining({ customerId: '3334445555', name: 'Cap Co', loginCustomerId: MANAGER }),
      ]),
    );
    expect(body.data.list.find((c: { customerId: string }) => c.customerId === DIRECT)).toMatchObject({
      manager: false,
      loginCustomerId: null,
    });

    const ads = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/google-customerads?connectionId=${ownerConnection}&resource_name=customers/${HOODIE_CO}`,
      { token: owner.token },
    );
    expect(ads.status, JSON.stringify(ads.body)).toBe(200);
    expect(ads.body.data.customer).toMatchObject({ customerId: HOODIE_CO, loginCustomerId: MANAGER });
    const campaign = ads.body.data.campaigns[0];
    expect(campaign).toMatchObject({ status: expect.any(String), primaryStatus: expect.any(String) });
    expect(campaign.adGroups[0].ads[0]).toMatchObject({
      resourceName: expect.stringMatching(new RegExp(`^customers/${HOODIE_CO}/adGroupAds/\\d+~\\d+$`)),
      approvalStatus: 'APPROVED',
    });
  });

  it('answers only the caller’s own monitors and connections, and never calls Google with another’s token', async () => {
    const merchantCalls = usageOf(MERCHANT);
    const foreign = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/google-customerads?connectionId=${ownerConnection}&resource_name=customers/${DIRECT}`,
      { token: stranger.token },
    );
    expect(foreign.status).toBe(404);
    const foreignList = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/google-customers?connectionId=${ownerConnection}`,
      { token: stranger.token },
    );
    expect(foreignList.status).toBe(404);
    const website = await createMonitor(t, stranger);
    const notGoogle = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/google-customers?monitor_id=${website}`,
      {
        token: stranger.token,
      },
    );
    expect(notGoogle.status).toBe(404);
    expect(notGoogle.body.message).toBe('That monitor does not exist.');
    // The agency reaches the manager's clients, not the merchant's own account.
    const unreachable = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/google-customerads?connectionId=${strangerConnection}&resource_name=customers/${DIRECT}`,
      { token: stranger.token },
    );
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.details).toEqual([
      { path: 'resource_name', message: 'Choose an account from the list.' },
    ]);
    const stolen = await call(t.app, 'POST', '/monitor-bff/monitor', {
      token: stranger.token,
      body: adsMonitor(stranger, { connectionId: ownerConnection, customer: `customers/${DIRECT}` }),
    });
    expect(stolen.status).toBe(400);
    expect(usageOf(MERCHANT)).toBe(merchantCalls);
    expect(usageOf(AGENCY)).toBeGreaterThan(0);
  });

  it('watches an account and chosen ads under a manager; a disapproved ad and a suspended account alert', async () => {
    const whole = await call(t.app, 'POST', '/monitor-bff/monitor', {
      token: owner.token,
      body: adsMonitor(
        owner,
        { connectionId: ownerConnection, customer: `customers/${DIRECT}` },
        'Direct account',
      ),
    });
    expect(whole.status, JSON.stringify(whole.body)).toBe(200);
    expect(whole.body.data.target).toMatchObject({
      customer: { customerId: DIRECT, loginCustomerId: null },
      campaigns: [],
      ads: [],
    });
    const detail = google().customer(HOODIE_CO)!;
    const watchedAd = detail.ads[0]!;
    const adResource = `customers/${HOODIE_CO}/adGroupAds/${watchedAd.adGroupId}~${watchedAd.id}`;
    const chosen = await call(t.app, 'POST', '/monitor-bff/monitor', {
      token: owner.token,
      body: adsMonitor(
        owner,
        { connectionId: ownerConnection, customer: `customers/${HOODIE_CO}`, adIds: [adResource] },
        'Hoodie ads',
      ),
    });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body.data.target.customer).toMatchObject({
      customerId: HOODIE_CO,
      loginCustomerId: MANAGER,
    });
    expect(chosen.body.data.target.ads).toEqual([
      expect.objectContaining({ resourceName: adResource, adId: watchedAd.id, name: watchedAd.name }),
    ]);
    const missing = await call(t.app, 'POST', '/monitor-bff/monitor', {
      token: owner.token,
      body: adsMonitor(owner, {
        connectionId: ownerConnection,
        customer: `customers/${HOODIE_CO}`,
        adIds: [`customers/${HOODIE_CO}/adGroupAds/1~2`],
      }),
    });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ path: 'target.adIds', message: 'Choose the ads again.' }]);
    const notReached = await call(t.app, 'POST', '/monitor-bff/monitor', {
      token: stranger.token,
      body: adsMonitor(stranger, { connectionId: strangerConnection, customer: `customers/${DIRECT}` }),
    });
    expect(notReached.status).toBe(400);
    expect(notReached.body.details).toEqual([
      { path: 'target.customer', message: 'Choose a Google Ads account from the list.' },
    ]);

    const chosenId = chosen.body.data.monitorId as string;
    const update = await call(t.app, 'PUT', '/monitor-bff/monitor', {
      token: owner.token,
      body: {
        ...adsMonitor(
          owner,
          { connectionId: ownerConnection, customer: `customers/${HOODIE_CO}`, adIds: [adResource] },
          'Hoodie ads (renamed)',
        ),
        monitorId: chosenId,
      },
    });
    expect(update.status, JSON.stringify(update.body)).toBe(200);
    expect(update.body.data.name).toBe('Hoodie ads (renamed)');

    // Three more monitors of Hoodie Co: one state search serves the four of them.
    for (let i = 0; i < 3; i++) {
      const more = await call(t.app, 'POST', '/monitor-bff/monitor', {
        token: owner.token,
        body: adsMonitor(
          owner,
          { connectionId: ownerConnection, customer: `customers/${HOODIE_CO}` },
          `Hoodie Co ${i}`,
        ),
      });
      expect(more.status).toBe(200);
    }
    const { engine, checker } = engineFor();
    google().resetUsage();
    await engine.runDue();
    expect(checker.operations().stateReads).toBe(2);
    expect(google().usage().byCustomer[HOODIE_CO]!.requests).toBe(1);
    const info = await call(t.app, 'GET', `/monitor-bff/monitor-info?monitorId=${chosenId}`, {
      token: owner.token,
    });
    expect(info.body.data, JSON.stringify(info.body.data)).toMatchObject({ status: 'up', lastError: null });

    google().setAdApproval(HOODIE_CO, watchedAd.id, 'DISAPPROVED', { topic: 'DESTINATION_NOT_WORKING' });
    google().setCustomerStatus(DIRECT, 'SUSPENDED');
    t.clock.advance(300_000);
    google().resetUsage();
    await engine.runDue();
    expect(google().usage().byCustomer[HOODIE_CO]!.requests).toBe(1);
    const [adIncident] = await t.database.db
      .select()
      .from(incidents)
      .where(and(eq(incidents.monitorId, chosenId), eq(incidents.conditionKey, 'ad_disapproved')));
    expect(adIncident!.summary).toContain(`“${watchedAd.name}”`);
    expect(adIncident!.summary).toContain('is disapproved for DESTINATION_NOT_WORKING');
    const [suspended] = await t.database.db
      .select()
      .from(incidents)
      .where(eq(incidents.monitorId, whole.body.data.monitorId));
    expect(suspended).toMatchObject({ conditionKey: 'account_not_enabled', state: 'open' });
    expect(suspended!.summary).toMatch(/is suspended \(status SUSPENDED\)/);

    google().setAdApproval(HOODIE_CO, watchedAd.id, 'APPROVED');
    google().setCustomerStatus(DIRECT, 'ENABLED');
    await t.database.db.update(monitors).set({ paused: true }).where(eq(monitors.userId, owner.userId));
  });

  it('Google running out of quota is "not checked" with the next try, never an incident', async () => {
    const user = await signUp(t);
    userCounter += 1;
    const email = `quota-${userCounter}-${Date.now()}@vigil.test`;
    google().addUser({ email, customerIds: [DIRECT] });
    const connectionId = await connect(user, email);
    const created = await call(t.app, 'POST', '/monitor-bff/monitor', {
      token: user.token,
      body: adsMonitor(user, { connectionId, customer: `customers/${DIRECT}` }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const monitorId = created.body.data.monitorId as string;
    const { engine } = engineFor();
    google().exhaustQuota(600);
    await engine.runDue();
    const info = await call(t.app, 'GET', `/monitor-bff/monitor-info?monitorId=${monitorId}`, {
      token: user.token,
    });
    expect(info.body.data.lastError).toMatch(
      /^Not checked: Google Ads API quota exhausted: next try at \d\d:\d\d UTC$/,
    );
    expect(
      await t.database.db.select().from(incidents).where(eq(incidents.monitorId, monitorId)),
    ).toHaveLength(0);
    const list = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/google-customerads?monitor_id=${monitorId}&resource_name=customers/${DIRECT}`,
      { token: user.token },
    );
    google().exhaustQuota(0);
    expect(list.status).toBe(503);
    expect(list.body.message).toMatch(
      /^Google Ads API quota exhausted: next try at \d\d:\d\d UTC\. Try again in \d+ seconds\.$/,
    );
    expect(list.response.headers['retry-after']).toBeDefined();
    // Vigil waits out Google's retry delay even though the sandbox lifted the limit: no call meanwhile.
    const before = google().usage().total.requests;
    const held = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/google-customerads?monitor_id=${monitorId}&resource_name=customers/${DIRECT}`,
      { token: user.token },
    );
    expect(held.status).toBe(503);
    expect(google().usage().total.requests).toBe(before);
    t.clock.advance(601_000);
    const after = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/google-customerads?monitor_id=${monitorId}&resource_name=customers/${DIRECT}`,
      { token: user.token },
    );
    expect(after.status).toBe(200);
    await t.database.db.update(monitors).set({ paused: true }).where(eq(monitors.id, monitorId));
  });

  it('access revoked at Google: the connection is lost and the monitor alerts at once', async () => {
    const user = await signUp(t);
    userCounter += 1;
    const email = `revoke-${userCounter}-${Date.now()}@vigil.test`;
    google().addUser({ email, customerIds: [DIRECT] });
    const connectionId = await connect(user, email);
    const created = await call(t.app, 'POST', '/monitor-bff/monitor', {
      token: user.token,
      body: adsMonitor(user, { connectionId, customer: `customers/${DIRECT}` }),
    });
    const monitorId = created.body.data.monitorId as string;
    const { engine } = engineFor();
    await engine.runDue();
    google().revokeUser(email);
    t.clock.advance(300_000);
    await engine.runDue();
    const [lost] = await t.database.db.select().from(incidents).where(eq(incidents.monitorId, monitorId));
    expect(lost).toMatchObject({ conditionKey: 'connection_lost', state: 'open' });
    expect(lost!.summary).toMatch(/^Vigil lost access to Google Ads account .* through revoke-/);
    const info = await call(t.app, 'GET', `/monitor-bff/monitor-info?monitorId=${monitorId}`, {
      token: user.token,
    });
    expect(info.body.data.connection).toMatchObject({ status: 'lost' });
    const picker = await call(t.app, 'GET', `/monitor-bff/monitor/google-customers?monitor_id=${monitorId}`, {
      token: user.token,
    });
    expect(picker.status).toBe(409);
    expect(picker.body.message).toMatch(/Reconnect the Google account\.$/);
  });
});
