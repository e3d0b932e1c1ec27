import type { Sandbox } from '@vigil/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SHOPIFY } from '../../config.ts';
import { startSandboxServer, type SandboxServer } from '../../test/sandbox-server.ts';
import { createShopifyClient, ShopifyError } from './shopify.client.ts';
import { createShopApi, type ShopApi } from './shopify-api.ts';
import { createStorefront } from './storefront.ts';

/** The adapter against the sandbox's Shopify: OAuth, the Admin GraphQL API with its rate limit, the storefront. */
describe('the Shopify adapter', () => {
  let server: SandboxServer;
  let sandbox: Sandbox;
  let api: ShopApi;
  const storefront = createStorefront();
  const settings = () => ({
    ...SANDBOX_SHOPIFY,
    scopes: ['read_products', 'read_inventory'],
    shopUrl: server.shopifyShopUrl,
    apiVersion: '2025-01',
  });

  beforeAll(async () => {
    server = await startSandboxServer('+15005550006');
    sandbox = server.sandbox;
    api = createShopApi(createShopifyClient(settings()));
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A new shop with Vigil installed: its domain and the offline token Vigil got for it. */
  async function installedShop(productCount = 14) {
    const shop = sandbox.shopify.createShop({
      name: `Adapter ${Math.random().toString(36).slice(2)}`,
      productCount,
    });
    const url = new URL(api.client.authorizeUrl(shop.domain, 'state-1', `${server.url}/app/oauth`));
    const back = new URL(
      sandbox.shopify.approve(shop.domain, {
        redirect_uri: url.searchParams.get('redirect_uri')!,
        scope: url.searchParams.get('scope')!,
        state: 'state-1',
      }),
    );
    const params = Object.fromEntries(back.searchParams);
    expect(api.client.verifyQuery(params)).toBe(true);
    const { accessToken, scopes } = await api.client.exchangeCode(shop.domain, params.code!);
    expect(scopes).toEqual(['read_products', 'read_inventory']);
    await expect(api.client.exchangeCode(shop.domain, params.code!)).rejects.toMatchObject({
      kind: 'refused',
    });
    return { shop: shop.domain, token: accessToken };
  }

  it('installs with the code grant, reads the shop and subscribes its webhooks once', async () => {
    const { shop, token } = await installedShop();
    expect(await api.shopInfo(shop, token)).toMatchObject({ myshopifyDomain: shop, currencyCode: 'USD' });
    expect(await api.subscribeWebhooks(shop, token, server.url)).toEqual([]);
    // Subscribing again (a reconnect) finds the same subscriptions taken: not a failure.
    expect(await api.subscribeWebhooks(shop, token, server.url)).toEqual([]);
  });

  it('pages products by cursor both ways, searches titles, and reads chosen products and variants by id', async () => {
    const { shop, token } = await installedShop();
    const first = await api.products(shop, token, { limit: 10, direction: 'next' });
    expect(first.list).toHaveLength(10);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = await api.products(shop, token, {
      limit: 10,
      cursor: first.pageInfo.endCursor!,
      direction: 'next',
    });
    expect(second.list).toHaveLength(4);
    const back = await api.products(shop, token, {
      limit: 10,
      cursor: second.pageInfo.startCursor!,
      direction: 'previous',
    });
    expect(back.list.map((p) => p.productId)).toEqual(first.list.map((p) => p.productId));
    const found = await api.products(shop, token, { limit: 10, direction: 'next', search: 'mug' });
    expect(found.list.length).toBeGreaterThan(0);
    expect(found.list.every((p) => /mug/i.test(p.title))).toBe(true);

    const ids = [first.list[0]!.productId, 'gid://shopify/Product/1'];
    const chosen = await api.chosenProducts(shop, token, ids);
    expect(chosen.missing).toEqual(['gid://shopify/Product/1']);
    expect(chosen.products[0]!.variants[0]).toMatchObject({ price: expect.any(String) });
    const variantId = chosen.products[0]!.variants[0]!.variantId;
    const states = await api.variantStates(shop, token, [variantId, 'gid://shopify/ProductVariant/1']);
    expect([...states.keys()]).toEqual([variantId]);
    expect(states.get(variantId)!.product).toMatchObject({ status: 'ACTIVE' });
  });

  it('waits out THROTTLED answers as the cost extension says, and gives up only when the caller does', async () => {
    const { shop, token } = await installedShop(3);
    const page = await api.products(shop, token, { limit: 3, direction: 'next' });
    const ids = page.list.flatMap((p) => p.variants.map((v) => v.variantId));
    const throttledBefore = api.stats.throttled;
    sandbox.shopify.setThrottle(shop, { currentlyAvailable: 0, restoreRate: 40 });
    const started = performance.now();
    const states = await api.variantStates(shop, token, ids);
    expect(states.size).toBe(ids.length);
    expect(api.stats.throttled).toBeGreaterThan(throttledBefore);
    expect(performance.now() - started).toBeGreaterThan(150);
    expect(sandbox.shopify.calls(shop).throttled).toBeGreaterThan(0);

    sandbox.shopify.setThrottle(shop, { currentlyAvailable: 0, restoreRate: 1 });
    await expect(api.variantStates(shop, token, ids, AbortSignal.timeout(300))).rejects.toMatchObject({
      kind: 'throttled',
    });
    sandbox.shopify.setThrottle(shop, { currentlyAvailable: 2000, restoreRate: 100 });
  });

  it('retries a 429 after its Retry-After, and tells a 5xx and a revoked token apart', async () => {
    const { shop, token } = await installedShop(2);
    sandbox.shopify.addFault(shop, { status: 429, count: 1 });
    expect(await api.shopInfo(shop, token)).toMatchObject({ myshopifyDomain: shop });
    sandbox.shopify.addFault(shop, { status: 503, count: 1 });
    await expect(api.shopInfo(shop, token)).rejects.toMatchObject({ kind: 'unavailable', status: 503 });
    sandbox.shopify.uninstall(shop);
    const refused = await api.shopInfo(shop, token).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ShopifyError);
    expect(refused).toMatchObject({ kind: 'auth', status: 401 });
  });

  it('resolves a shop from its name or its storefront address, and refuses an address that is no shop', async () => {
    const shop = sandbox.shopify.createShop({ name: `Resolve ${Date.now()}` });
    expect(await api.client.resolveShop(shop.domain.replace('.myshopify.com', ''))).toMatchObject({
      shop: shop.domain,
      name: shop.name,
    });
    expect(await api.client.resolveShop(`${shop.url}/`)).toMatchObject({ shop: shop.domain });
    await expect(api.client.resolveShop(`${server.url}/sandbox`)).rejects.toMatchObject({
      kind: 'not_a_shop',
    });
    await expect(api.client.resolveShop('no-such-shop-here')).rejects.toMatchObject({ kind: 'not_a_shop' });
    // A typed address that does not answer at all is a typo, not Shopify being down.
    await expect(api.client.resolveShop('http://127.0.0.1:9/shop')).rejects.toMatchObject({
      kind: 'not_a_shop',
      status: 400,
      message: expect.stringMatching(/^Vigil could not reach http:\/\/127\.0\.0\.1:9\/shop\./),
    });
  });

  it('sees the storefront as a shopper: up, behind its password page, and whether add to cart works', async () => {
    const { shop } = await installedShop(2);
    const base = api.client.shopBase(shop);
    expect(await storefront.home(base)).toMatchObject({ up: true, passwordProtected: false, status: 200 });
    const [product] = sandbox.shopify.products(shop);
    const variant = product!.variants[0]!;
    expect(await storefront.addToCart(base, variant.gid)).toMatchObject({ ok: true });
    sandbox.shopify.setStock(shop, variant.id, 0);
    expect((await storefront.addToCart(base, variant.gid)).problem).toMatch(/sold out/);
    sandbox.shopify.setCartBroken(shop, true);
    sandbox.shopify.setStock(shop, variant.id, 5);
    expect(await storefront.addToCart(base, variant.gid)).toMatchObject({ ok: false, status: 500 });
    sandbox.shopify.setPasswordEnabled(shop, true);
    expect(await storefront.home(base)).toMatchObject({ passwordProtected: true });
  });
});
