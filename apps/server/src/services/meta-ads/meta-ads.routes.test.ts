import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidents, monitors, providerConnections } from '../../db/schema.ts';
import { signUp, websiteMonitor, type TestUser } from '../../modules/monitors/monitor-test-helpers.ts';
import { databases } from '../../test/databases.ts';
import { integrationDeps, testCheckEngine } from '../../test/integration-kit.ts';
import { bindAccount, consentInSandbox } from '../../test/sandbox-consent.ts';
import { call, startTestApp, type TestApp } from '../../test/test-app.ts';
import { createMetaAdsIntegration } from './index.ts';

const MERCHANT = '10000000000001';
const AGENCY = '10000000000002';
const HOODIE = '1010101010';
const CAP = '2020202020';
const DAY_MS = 86_400_000;

const CONDITIONS = {
  account_status: { enabled: true },
  adset_disapproved: { enabled: true },
  spend_cap: { enabled: true, percent: 90 },
  spend_anomaly: { enabled: false, changePercent: 50 },
  connection_lost: { enabled: true },
  shop_cannot_sell: { enabled: false },
};

describe.each(databases)('Meta ads binding, pickers and checks on $name', (testDatabase) => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let ownerConnection: string;
  let strangerConnection: string;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
    owner = await signUp(t);
    stranger = await signUp(t);
    ownerConnection = await connect(owner, MERCHANT);
    strangerConnection = await connect(stranger, AGENCY);
  });
  afterAll(async () => {
    await t?.close();
  });

  const meta = () => t.sandbox.meta;

  /** The browser's part, over HTTP: ouathuri → Facebook's login dialog → its form posted → back to /app/oauth. */
  async function login(user: TestUser, facebookUser: string, decision = 'continue') {
    const { provider, params } = await consentInSandbox(t, user, 'facebook_ads', {
      user: facebookUser,
      decision,
    });
    expect(provider).toBe('meta');
    return params;
  }

  async function connect(user: TestUser, facebookUser: string): Promise<string> {
    return bindAccount(t, user, await login(user, facebookUser));
  }

  const engineFor = () => {
    const deps = integrationDeps(t);
    const integration = createMetaAdsIntegration({ settings: t.deps.config.meta!, ...deps });
    return {
      engine: testCheckEngine(t, deps.store, { meta: integration.checker() }),
      client: integration.client,
    };
  };

  const monitorBody = (user: TestUser, target: Record<string, unknown>, conditions = CONDITIONS) => ({
    ...websiteMonitor(user.email),
    name: 'Hoodie ads',
    service: 'facebook_ads',
    target,
    conditions,
  });

  async function createAdsMonitor(user: TestUser, target: Record<string, unknown>) {
    const created = await call(t.app, 'POST', '/monitor-bff/monitor', {
      token: user.token,
      body: monitorBody(user, target),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.data.monitorId as string;
  }

  /** The engine tests watch their own monitors only: the others are paused. */
  const only = (ids: string[]) =>
    t.database.db
      .update(monitors)
      .set({ paused: true })
      .where(
        sql`${monitors.id} not in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      );

  const incidentsOf = (monitorId: string) =>
    t.database.db.select().from(incidents).where(eq(incidents.monitorId, monitorId));
  const info = async (user: TestUser, monitorId: string) =>
    (await call(t.app, 'GET', `/monitor-bff/monitor-info?monitorId=${monitorId}`, { token: user.token })).body
      .data;

  it('binds a Facebook account through the login dialog, with its long-lived token’s end', async () => {
    const { body } = await call(t.app, 'GET', '/monitor-bff/connections?provider=meta', {
      token: owner.token,
    });
    expect(body.data.list).toMatchObject([
      {
        connectionId: ownerConnection,
        provider: 'meta',
        account: MERCHANT,
        name: 'Demo Merchant',
        status: 'active',
      },
    ]);
    const expiresAt = Date.parse(body.data.list[0].expiresAt);
    expect(Math.abs(expiresAt - (t.clock.now().getTime() + 60 * DAY_MS))).toBeLessThan(60_000);
    const [row] = await t.database.db
      .select()
      .from(providerConnections)
      .where(eq(providerConnections.id, ownerConnection));
    expect(row!.tokenCiphertext).toMatch(/^v1\./);
    expect(row!.tokenCiphertext).not.toContain('EAA');
    // The sandbox holds a long-lived token for the person, made from the short one.
    expect(
      meta()
        .tokens(MERCHANT)
        .map((token) => token.kind),
    ).toContain('long');

    const cancelled = await login(owner, MERCHANT, 'cancel');
    const refused = await call(t.app, 'POST', '/monitor-bff/monitor/bind', {
      token: owner.token,
      body: { params: cancelled },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Connecting Meta ads was cancelled, or access was not granted.');
  });

  it('lists the ad accounts by cursor, amounts in major units, and an account’s ad sets by cursor', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const { status, body } = await call(
        t.app,
        'GET',
        `/monitor-bff/monitor/facebook/account?connectionId=${ownerConnection}&limit=10${after ? `&after=${encodeURIComponent(after)}` : ''}`,
        { token: owner.token },
      );
      expect(status, JSON.stringify(body)).toBe(200);
      seen.push(...body.data.list.map((a: { accountId: string }) => a.accountId));
      after = body.data.paging.after;
      if (!after) break;
      expect(body.data.list).toHaveLength(10);
    }
    expect(seen).toHaveLength(32);
    expect(new Set(seen).size).toBe(32);

    const first = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/facebook/account?connectionId=${ownerConnection}&limit=2`,
      { token: owner.token },
    );
    expect(first.body.data.list).toEqual([
      expect.objectContaining({
        accountId: HOODIE,
        name: 'Hoodie Co Ads',
        currency: 'USD',
        accountStatus: 1,
        statusLabel: 'active',
        amountSpent: '1234.56',
        spendCap: '5000.00',
      }),
      expect.objectContaining({ accountId: CAP, name: 'Cap Co Ads', currency: 'EUR', spendCap: null }),
    ]);

    const adSets = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/facebook/adsets?connectionId=${ownerConnection}&account_id=act_${HOODIE}&limit=3`,
      { token: owner.token },
    );
    expect(adSets.status, JSON.stringify(adSets.body)).toBe(200);
    expect(adSets.body.data.account).toMatchObject({ accountId: HOODIE, timeZone: 'America/Los_Angeles' });
    expect(adSets.body.data.list).toHaveLength(3);
    expect(adSets.body.data.list[0]).toMatchObject({
      name: 'Hoodies — lookalike US',
      campaignName: 'Hoodies — prospecting',
      effectiveStatus: 'ACTIVE',
      dailyBudget: '60.00',
      lifetimeBudget: null,
      issues: [],
    });
    const rest = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/facebook/adsets?connectionId=${ownerConnection}&account_id=${HOODIE}&limit=3&after=${encodeURIComponent(adSets.body.data.paging.after)}`,
      { token: owner.token },
    );
    expect(rest.body.data.list.map((s: { name: string }) => s.name)).toEqual(['Retargeting — 30 days cart']);
    expect(rest.body.data.paging.after).toBeNull();
  });

  it('never reads through another person’s connection or monitor, and refuses an account out of reach', async () => {
    const monitorId = await createAdsMonitor(owner, { connectionId: ownerConnection, accountId: HOODIE });
    const before = meta().calls().byUser[MERCHANT] ?? 0;
    const paths = [
      `/monitor-bff/monitor/facebook/account?connectionId=${ownerConnection}`,
      `/monitor-bff/monitor/facebook/account?monitor_id=${monitorId}`,
      `/monitor-bff/monitor/facebook/adsets?connectionId=${ownerConnection}&account_id=${HOODIE}`,
      `/monitor-bff/monitor/facebook/adsets?monitor_id=${monitorId}&account_id=${HOODIE}`,
    ];
    for (const path of paths) {
      const answer = await call(t.app, 'GET', path, { token: stranger.token });
      expect(answer.status, path).toBe(404);
    }
    const notMonitor = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/facebook/account?monitor_id=${monitorId}`,
      { token: stranger.token },
    );
    expect(notMonitor.body.message).toBe('That monitor does not exist.');
    expect(meta().calls().byUser[MERCHANT] ?? 0).toBe(before);

    // The agency sees Cap Co Ads only: Hoodie Co Ads is out of its reach.
    const outOfReach = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/facebook/adsets?connectionId=${strangerConnection}&account_id=${HOODIE}`,
      { token: stranger.token },
    );
    expect(outOfReach.status).toBe(400);
    expect(outOfReach.body.message).toMatch(/cannot be reached through this Facebook account/);
    const ownCap = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/facebook/account?connectionId=${strangerConnection}`,
      { token: stranger.token },
    );
    expect(ownCap.body.data.list.map((a: { accountId: string }) => a.accountId)).toEqual([CAP]);
    const stolen = await call(t.app, 'POST', '/monitor-bff/monitor', {
      token: stranger.token,
      body: monitorBody(stranger, { connectionId: ownerConnection, accountId: HOODIE }),
    });
    expect(stolen.status).toBe(400);
    expect(meta().calls().byUser[MERCHANT] ?? 0).toBe(before);
  });

  it('creates and updates a monitor of chosen ad sets, stored with their names', async () => {
    const account = meta().account(HOODIE)!;
    const [first, second] = account.adSets;
    const created = await call(t.app, 'POST', '/monitor-bff/monitor', {
      token: owner.token,
      body: monitorBody(owner, {
        connectionId: ownerConnection,
        accountId: `act_${HOODIE}`,
        adSetIds: [first!.id],
      }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data.target).toEqual({
      connectionId: ownerConnection,
      account: { accountId: HOODIE, name: 'Hoodie Co Ads', currency: 'USD', timeZone: 'America/Los_Angeles' },
      adSets: [{ adSetId: first!.id, name: first!.name, campaignName: 'Hoodies — prospecting' }],
      linkedMonitorId: null,
    });
    const monitorId = created.body.data.monitorId as string;
    const updated = await call(t.app, 'PUT', '/monitor-bff/monitor', {
      token: owner.token,
      body: {
        ...monitorBody(owner, {
          connectionId: ownerConnection,
          accountId: HOODIE,
          adSetIds: [first!.id, second!.id],
        }),
        monitorId,
      },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data.target.adSets.map((s: { name: string }) => s.name)).toEqual([
      first!.name,
      second!.name,
    ]);

    const foreignAdSet = meta().account(CAP)!.adSets[0]!.id;
    const wrong = await call(t.app, 'POST', '/monitor-bff/monitor', {
      token: owner.token,
      body: monitorBody(owner, {
        connectionId: ownerConnection,
        accountId: HOODIE,
        adSetIds: [foreignAdSet],
      }),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/One chosen ad set is not in Hoodie Co Ads/);
  });

  it('alerts on a suspended account and a rejected ad set, one batch request per account and interval', async () => {
    const user = await signUp(t);
    const connectionId = await connect(user, MERCHANT);
    const { engine } = engineFor();
    const adSet = meta().account(HOODIE)!.adSets[1]!;
    const ids = [
      await createAdsMonitor(user, { connectionId, accountId: HOODIE, adSetIds: [adSet.id] }),
      await createAdsMonitor(user, { connectionId, accountId: HOODIE }),
      await createAdsMonitor(user, { connectionId, accountId: HOODIE, adSetIds: [adSet.id] }),
    ];
    await only(ids);
    meta().resetCalls();
    expect(await engine.runDue()).toBe(3);
    expect(meta().calls()).toMatchObject({ httpRequests: 1, calls: 3 });
    for (const id of ids) expect((await info(user, id)).status).toBe('up');

    meta().setAccountStatus(HOODIE, 7, 1);
    meta().setAdSetStatus(adSet.id, 'DISAPPROVED', 'Your ad set’s ads make misleading claims.');
    t.clock.advance(300_000);
    meta().resetCalls();
    expect(await engine.runDue()).toBe(3);
    expect(meta().calls().httpRequests).toBe(1);
    const opened = await incidentsOf(ids[0]!);
    expect(opened.map((i) => i.conditionKey).sort()).toEqual(['account_status', 'adset_disapproved']);
    expect(opened.find((i) => i.conditionKey === 'account_status')!.summary).toBe(
      'Hoodie Co Ads is pending risk review (account_status 7): ads integrity policy',
    );
    expect(opened.find((i) => i.conditionKey === 'adset_disapproved')!.summary).toMatch(
      new RegExp(`^Hoodie Co Ads: Ad set ${adSet.name} is DISAPPROVED: .*misleading claims`),
    );
    meta().setAccountStatus(HOODIE, 1, 0);
    meta().setAdSetStatus(adSet.id, 'ACTIVE');
  });

  it('a throttled account is "Not checked" with the next try, calls nothing during the back-off, opens nothing', async () => {
    const user = await signUp(t);
    const connectionId = await connect(user, MERCHANT);
    const { engine } = engineFor();
    const monitorId = await createAdsMonitor(user, { connectionId, accountId: HOODIE });
    await only([monitorId]);
    meta().throttle({ kind: 'account', id: HOODIE }, 600);
    meta().resetCalls();
    await engine.runDue();
    const shown = await info(user, monitorId);
    expect(shown.lastError).toMatch(
      /^Not checked: Meta rate limit reached for this ad account: next try at \d\d:\d\d UTC$/,
    );
    expect(await incidentsOf(monitorId)).toEqual([]);
    expect(meta().calls().httpRequests).toBe(1);
    t.clock.advance(300_000);
    await engine.runDue();
    expect(meta().calls().httpRequests).toBe(1);
    expect(await incidentsOf(monitorId)).toEqual([]);
    meta().throttle({ kind: 'account', id: HOODIE }, 0);
    t.clock.advance(600_000);
    await engine.runDue();
    expect(meta().calls().httpRequests).toBe(2);
    expect((await info(user, monitorId)).lastError).toBeNull();
  });

  it('warns a week before the token ends, and a revoked token marks the connection lost with an incident', async () => {
    const user = await signUp(t);
    const connectionId = await connect(user, AGENCY);
    const { engine } = engineFor();
    const monitorId = await createAdsMonitor(user, { connectionId, accountId: CAP });
    await only([monitorId]);
    await engine.runDue();
    expect((await info(user, monitorId)).status).toBe('up');

    await t.database.db
      .update(providerConnections)
      .set({ tokenExpiresAt: new Date(t.clock.now().getTime() + 3 * DAY_MS) })
      .where(eq(providerConnections.id, connectionId));
    t.clock.advance(300_000);
    await engine.runDue();
    const [warning] = await incidentsOf(monitorId);
    expect(warning).toMatchObject({ conditionKey: 'connection_lost', state: 'open' });
    expect(warning!.summary).toMatch(
      /^Meta access for Demo Agency ends on \d{4}-\d\d-\d\d: reconnect in Vigil before then$/,
    );
    await t.database.db
      .update(providerConnections)
      .set({ tokenExpiresAt: new Date(t.clock.now().getTime() + 50 * DAY_MS) })
      .where(eq(providerConnections.id, connectionId));
    t.clock.advance(300_000);
    await engine.runDue();
    expect((await incidentsOf(monitorId)).map((i) => i.state)).toEqual(['resolved']);

    meta().revokeTokens(AGENCY, 'app_removed');
    t.clock.advance(300_000);
    await engine.runDue();
    const lost = (await incidentsOf(monitorId)).find((i) => i.state === 'open');
    expect(lost).toMatchObject({ conditionKey: 'connection_lost' });
    expect(lost!.summary).toMatch(
      /^Vigil lost access to Cap Co Ads on Meta: .*has not authorized application/,
    );
    const shown = await info(user, monitorId);
    expect(shown.connection).toMatchObject({ status: 'lost' });
    const [monitorRow] = await t.database.db.select().from(monitors).where(eq(monitors.id, monitorId));
    expect(monitorRow!.connectionId).toBe(connectionId);
    const picker = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/facebook/account?connectionId=${connectionId}`,
      {
        token: user.token,
      },
    );
    expect(picker.status).toBe(409);
    expect(picker.body.message).toMatch(/Reconnect the Facebook account/);
    const callsBefore = meta().calls().calls;
    t.clock.advance(300_000);
    await engine.runDue();
    expect(meta().calls().calls).toBe(callsBefore);
  });
});
