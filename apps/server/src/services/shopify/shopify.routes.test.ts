import { shopifyQueryHmac, shopifyWebhookHmac } from '@vigil/sandbox';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SHOPIFY } from '../../config.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { incidents, providerConnections } from '../../db/schema.ts';
import { signUp, websiteMonitor, type TestUser } from '../../modules/monitors/monitor-test-helpers.ts';
import { databases } from '../../test/databases.ts';
import { integrationDeps, testCheckEngine } from '../../test/integration-kit.ts';
import { call, startTestApp, type TestApp } from '../../test/test-app.ts';
import { createShopifyIntegration } from './index.ts';

const DEMO = 'vigil-demo.myshopify.com';

describe.each(databases)('Shopify binding, products, checks and webhooks on $name', (testDatabase) => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
    owner = await signUp(t);
    stranger = await signUp(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const shopify = () => t.sandbox.shopify;
  const countRows = async (table: string) =>
    (await rowsOf<{ n: number }>(t.database.db, sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n;

  /** The browser's part: ouathuri, approve on the sandbox's grant page, back with Shopify's query. */
  async function authorize(user: TestUser, query: string) {
    const { status, body } = await call(t.app, 'GET', `/monitor-bff/monitor/ouathuri?${query}`, {
      token: user.token,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const url = new URL(body.data.url);
    const redirect = shopify().approve(body.data.account, {
      redirect_uri: url.searchParams.get('redirect_uri')!,
      scope: url.searchParams.get('scope')!,
      state: url.searchParams.get('state')!,
    });
    return Object.fromEntries(new URL(redirect).searchParams) as Record<string, string>;
  }

  async function connect(user: TestUser): Promise<string> {
    const params = await authorize(user, 'service=shopify&shop=vigil-demo');
    const { status, body } = await call(t.app, 'POST', '/monitor-bff/monitor/bind', {
      token: user.token,
      body: { params },
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.data.status).toBe('bound');
    return body.data.connection.connectionId as string;
  }

  it('binds a shop: state checked once, code exchanged, token kept encrypted, webhooks subscribed', async () => {
    const params = await authorize(owner, 'service=shopify&shop=vigil-demo');
    expect(params).toMatchObject({ shop: DEMO });
    const { status, body } = await call(t.app, 'POST', '/monitor-bff/monitor/bind', {
      token: owner.token,
      body: { params },
    });
    expect(status).toBe(200);
    expect(body.data.connection).toMatchObject({
      provider: 'shopify',
      account: DEMO,
      status: 'active',
      monitors: 0,
    });
    const [row] = await t.database.db
      .select()
      .from(providerConnections)
      .where(eq(providerConnections.account, DEMO));
    expect(row!.tokenCiphertext).toMatch(/^v1\./);
    expect(row!.tokenCiphertext).not.toContain('shpat_');
    expect(shopify().shop(DEMO)!.installation).not.toBeNull();

    const again = await call(t.app, 'POST', '/monitor-bff/monitor/bind', {
      token: owner.token,
      body: { params },
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/already used or has expired/);
  });

  it('refuses a forged or stale hmac, a foreign state and a shop that is not a shop, storing nothing', async () => {
    const connectionsBefore = await countRows('provider_connections');
    const params = await authorize(owner, 'service=shopify&shop=vigil-demo');
    const forged = { ...params, shop: 'other.myshopify.com' };
    expect(
      (
        await call(t.app, 'POST', '/monitor-bff/monitor/bind', {
          token: owner.token,
          body: { params: forged },
        })
      ).status,
    ).toBe(400);
    const stale: Record<string, string> = { ...params, timestamp: String(Number(params.timestamp) - 600) };
    stale.hmac = shopifyQueryHmac(stale, SANDBOX_SHOPIFY.clientSecret);
    const staleAnswer = await call(t.app, 'POST', '/monitor-bff/monitor/bind', {
      token: owner.token,
      body: { params: stale },
    });
    expect(staleAnswer.status).toBe(400);
    expect(staleAnswer.body.message).toMatch(/expired/);
    const foreign = await call(t.app, 'POST', '/monitor-bff/monitor/bind', {
      token: stranger.token,
      body: { params },
    });
    expect(foreign.status).toBe(400);
    expect(await countRows('provider_connections')).toBe(connectionsBefore);
    // The state survived the stranger's try: its owner still finishes the binding.
    expect(
      (await call(t.app, 'POST', '/monitor-bff/monitor/bind', { token: owner.token, body: { params } }))
        .status,
    ).toBe(200);

    const statesBefore = await countRows('oauth_bind_states');
    const notShop = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/ouathuri?shop=${encodeURIComponent(`${t.url}/healthz`)}`,
      {
        token: owner.token,
      },
    );
    expect(notShop.status).toBe(400);
    expect(notShop.body.message).toMatch(/not a Shopify shop/);
    expect(await countRows('oauth_bind_states')).toBe(statesBefore);
  });

  it('lists the shop’s products 10 a page by cursor, and only to the connection’s owner', async () => {
    const connectionId = await connect(owner);
    const first = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/shopify-products?connectionId=${connectionId}&limit=10`,
      {
        token: owner.token,
      },
    );
    expect(first.status).toBe(200);
    expect(first.body.data.list).toHaveLength(10);
    expect(first.body.data.pageInfo.hasNextPage).toBe(true);
    const cursor = encodeURIComponent(first.body.data.pageInfo.endCursor);
    const second = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/shopify-products?connectionId=${connectionId}&limit=10&cursor=${cursor}`,
      {
        token: owner.token,
      },
    );
    const seen = new Set(first.body.data.list.map((p: { productId: string }) => p.productId));
    expect(second.body.data.list.some((p: { productId: string }) => seen.has(p.productId))).toBe(false);
    const foreign = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/shopify-products?connectionId=${connectionId}`,
      {
        token: stranger.token,
      },
    );
    expect(foreign.status).toBe(404);
    const disconnectForeign = await call(
      t.app,
      'DELETE',
      `/monitor-bff/connections?connectionId=${connectionId}`,
      {
        token: stranger.token,
      },
    );
    expect(disconnectForeign.status).toBe(404);
  });

  it('alerts when a watched variant sells out, re-checked at once by the signed webhook, and on uninstall', async () => {
    const user = await signUp(t);
    const connectionId = await connect(user);
    const deps = integrationDeps(t);
    const integration = createShopifyIntegration({ settings: t.deps.config.shopify!, ...deps });
    const engine = testCheckEngine(t, deps.store, { shopify: integration.checker() });
    const product = shopify()
      .products(DEMO)
      .find(
        (p) =>
          p.variants.length > 1 &&
          p.status === 'ACTIVE' &&
          p.published &&
          p.variants.every((v) => v.inventoryPolicy === 'DENY' && v.tracked && v.inventoryQuantity > 0),
      )!;
    const watch = (productIds: string[]) =>
      call(t.app, 'POST', '/monitor-bff/monitor', {
        token: user.token,
        body: {
          ...websiteMonitor(user.email),
          service: 'shopify',
          target: { connectionId, productIds },
          conditions: {
            storefront_down: { enabled: true },
            checkout_broken: { enabled: true },
            product_out_of_stock: { enabled: true, threshold: 0 },
            product_unpublished: { enabled: true },
            product_price_changed: { enabled: false },
            app_uninstalled: { enabled: true },
          },
        },
      });
    const created = await watch([product.gid]);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const monitorId = created.body.data.monitorId as string;
    expect(created.body.data.target.products[0].variants.length).toBe(product.variants.length);

    const shops = await call(t.app, 'GET', '/monitor-bff/connections?provider=shopify', {
      token: user.token,
    });
    expect(shops.body.data.list).toMatchObject([{ connectionId, monitors: 1, status: 'active' }]);

    await engine.runDue();
    const info = await call(t.app, 'GET', `/monitor-bff/monitor-info?monitorId=${monitorId}`, {
      token: user.token,
    });
    expect(info.body.data, info.body.data.lastError).toMatchObject({
      status: 'up',
      connection: { status: 'active' },
    });

    // A monitor added right after the shop was read is judged on its own products, read for it.
    const other = shopify()
      .products(DEMO)
      .find(
        (p) =>
          p.gid !== product.gid &&
          p.status === 'ACTIVE' &&
          p.published &&
          p.variants.every((v) => v.inventoryQuantity > 0),
      )!;
    const second = await watch([other.gid]);
    await engine.runDue();
    const secondInfo = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor-info?monitorId=${second.body.data.monitorId}`,
      {
        token: user.token,
      },
    );
    expect(secondInfo.body.data, secondInfo.body.data.lastError).toMatchObject({
      status: 'up',
      lastError: null,
    });

    const variant = product.variants[1]!;
    shopify().setStock(DEMO, variant.id, 0);
    await shopify().waitForDelivery((d) => d.topic === 'inventory_levels/update' && d.status === 'delivered');
    expect(await engine.runDue()).toBeGreaterThan(0);
    const [open] = await t.database.db.select().from(incidents).where(eq(incidents.monitorId, monitorId));
    expect(open).toMatchObject({ conditionKey: 'product_out_of_stock', state: 'open' });
    expect(open!.summary).toBe(`${product.title} (${variant.title}) is out of stock on ${DEMO}`);

    shopify().uninstall(DEMO);
    await shopify().waitForDelivery((d) => d.topic === 'app/uninstalled' && d.status === 'delivered');
    await engine.runDue();
    const all = await t.database.db.select().from(incidents).where(eq(incidents.monitorId, monitorId));
    expect(all.map((i) => i.conditionKey).sort()).toEqual(['app_uninstalled', 'product_out_of_stock']);
    const lost = await call(t.app, 'GET', `/monitor-bff/monitor-info?monitorId=${monitorId}`, {
      token: user.token,
    });
    expect(lost.body.data.connection).toMatchObject({ status: 'lost' });
    expect(lost.body.data.connection.statusReason).toMatch(/uninstalled/);
  });

  it('refuses unsigned webhooks and processes a replayed one only once', async () => {
    const body = JSON.stringify({ shop_id: 1, shop_domain: 'nobody.myshopify.com' });
    const headers = {
      'content-type': 'application/json',
      'x-shopify-topic': 'shop/redact',
      'x-shopify-shop-domain': 'nobody.myshopify.com',
      'x-shopify-webhook-id': `wh-${Date.now()}`,
    };
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/webhooks/shopify/compliance',
      payload: body,
      headers,
    });
    expect(unsigned.statusCode).toBe(401);
    const signed = {
      ...headers,
      'x-shopify-hmac-sha256': shopifyWebhookHmac(body, SANDBOX_SHOPIFY.clientSecret),
    };
    const first = await t.app.inject({
      method: 'POST',
      url: '/webhooks/shopify/compliance',
      payload: body,
      headers: signed,
    });
    expect(first.json()).toEqual({ data: { outcome: 'processed' } });
    const replay = await t.app.inject({
      method: 'POST',
      url: '/webhooks/shopify/compliance',
      payload: body,
      headers: signed,
    });
    expect(replay.json()).toEqual({ data: { outcome: 'duplicate' } });
  });

  it('holds an install from Shopify’s side until its person claims it from the same browser, once', async () => {
    const shop = shopify().createShop({ name: `Install First ${Date.now()}`, productCount: 3 });
    const install = new URL(shopify().installUrl(shop.domain));
    const landing = await t.app.inject({ method: 'GET', url: `/shopify/install${install.search}` });
    expect(landing.statusCode).toBe(302);
    const grant = new URL(landing.headers.location!);
    const redirect = shopify().approve(shop.domain, {
      redirect_uri: grant.searchParams.get('redirect_uri')!,
      scope: grant.searchParams.get('scope')!,
      state: grant.searchParams.get('state')!,
    });
    const params = Object.fromEntries(new URL(redirect).searchParams);
    const held = await call(t.app, 'POST', '/monitor-bff/monitor/bind', { body: { params } });
    expect(held.status).toBe(200);
    expect(held.body.data).toMatchObject({ status: 'held', account: shop.domain });
    const cookie = String(held.response.headers['set-cookie']).split(';')[0]!;
    const key = held.body.data.key as string;

    const noCookie = await call(t.app, 'POST', '/monitor-bff/monitor/bind', {
      token: stranger.token,
      body: { key },
    });
    expect(noCookie.status).toBe(400);
    const user = await signUp(t);
    const claimed = await call(t.app, 'POST', '/monitor-bff/monitor/bind', {
      token: user.token,
      body: { key },
      headers: { cookie },
    });
    expect(claimed.status).toBe(200);
    expect(claimed.body.data.connection).toMatchObject({ account: shop.domain, status: 'active' });
    const twice = await call(t.app, 'POST', '/monitor-bff/monitor/bind', {
      token: user.token,
      body: { key },
      headers: { cookie },
    });
    expect(twice.status).toBe(400);
    const list = await call(t.app, 'GET', '/monitor-bff/connections?provider=shopify', {
      token: stranger.token,
    });
    expect(list.body.data.list.some((c: { account: string }) => c.account === shop.domain)).toBe(false);
  });
});
