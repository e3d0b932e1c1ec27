import type { ShopifyTarget } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { judgeCart, judgePrice, judgeStock, judgeStorefront, judgeUnpublished } from './shopify.check.ts';
import type { VariantState } from './shopify-api.ts';

const target: ShopifyTarget = {
  connectionId: 'c',
  shop: 'hoodies.myshopify.com',
  storefrontUrl: 'https://hoodies.myshopify.com',
  currency: 'USD',
  products: [
    {
      productId: 'gid://shopify/Product/1',
      title: 'Blue hoodie',
      handle: 'blue-hoodie',
      imageUrl: null,
      variants: [
        { variantId: 'gid://shopify/ProductVariant/11', title: 'S', price: '49.00', inventoryItemId: 'i11' },
        { variantId: 'gid://shopify/ProductVariant/12', title: 'M', price: '49.00', inventoryItemId: 'i12' },
      ],
    },
    {
      productId: 'gid://shopify/Product/2',
      title: 'Cap',
      handle: 'cap',
      imageUrl: null,
      variants: [
        {
          variantId: 'gid://shopify/ProductVariant/21',
          title: 'Default Title',
          price: '20.00',
          inventoryItemId: 'i21',
        },
      ],
    },
  ],
};

function state(
  variantId: string,
  overrides: Partial<VariantState> = {},
  product: Partial<VariantState['product']> = {},
): VariantState {
  const watched = target.products
    .flatMap((p) => p.variants.map((v) => ({ p, v })))
    .find(({ v }) => v.variantId === variantId)!;
  return {
    variantId,
    title: watched.v.title,
    price: watched.v.price,
    inventoryQuantity: 5,
    inventoryPolicy: 'DENY',
    availableForSale: true,
    tracked: true,
    ...overrides,
    product: {
      productId: watched.p.productId,
      title: watched.p.title,
      status: 'ACTIVE',
      onlineStoreUrl: 'https://x/p',
      ...product,
    },
  };
}

const states = (...list: VariantState[]) => new Map(list.map((s) => [s.variantId, s]));
const all = (overrides: Record<string, Partial<VariantState>> = {}) =>
  states(
    ...[
      'gid://shopify/ProductVariant/11',
      'gid://shopify/ProductVariant/12',
      'gid://shopify/ProductVariant/21',
    ].map((id) => state(id, overrides[id] ?? {})),
  );

describe('Shopify conditions', () => {
  it('names the variant that sold out, as a fact that needs no re-check', () => {
    expect(judgeStock(target, all(), 0)).toMatchObject({ ok: true });
    const result = judgeStock(
      target,
      all({ 'gid://shopify/ProductVariant/12': { inventoryQuantity: 0 } }),
      0,
    );
    expect(result).toEqual({
      key: 'product_out_of_stock',
      ok: false,
      confirmed: true,
      summary: 'Blue hoodie (M) is out of stock on hoodies.myshopify.com',
    });
  });

  it('respects the threshold, untracked stock and "continue selling when out of stock"', () => {
    expect(
      judgeStock(target, all({ 'gid://shopify/ProductVariant/21': { inventoryQuantity: 3 } }), 3).summary,
    ).toBe('Cap is at or under 3 in stock on hoodies.myshopify.com');
    const forgiving = all({
      'gid://shopify/ProductVariant/11': { inventoryQuantity: -2, inventoryPolicy: 'CONTINUE' },
      'gid://shopify/ProductVariant/12': { inventoryQuantity: 0, tracked: false },
    });
    expect(judgeStock(target, forgiving, 0).ok).toBe(true);
  });

  it('reports products archived, drafted, deleted or taken off the online store', () => {
    expect(judgeUnpublished(target, all()).ok).toBe(true);
    const archived = states(
      state('gid://shopify/ProductVariant/11', {}, { status: 'ARCHIVED' }),
      state('gid://shopify/ProductVariant/21', {}, { onlineStoreUrl: null }),
    );
    expect(judgeUnpublished(target, archived)).toMatchObject({
      ok: false,
      confirmed: true,
      summary: 'Blue hoodie is archived; Cap is not on the online store (hoodies.myshopify.com)',
    });
    const capGone: Map<string, VariantState | null> = states(state('gid://shopify/ProductVariant/11'));
    // Not read yet is not deleted; read and missing is.
    expect(judgeUnpublished(target, capGone).ok).toBe(true);
    capGone.set('gid://shopify/ProductVariant/21', null);
    expect(judgeUnpublished(target, capGone).summary).toBe('Cap was deleted (hoodies.myshopify.com)');
  });

  it('compares prices as amounts with the price when chosen', () => {
    expect(judgePrice(target, all({ 'gid://shopify/ProductVariant/11': { price: '49.0' } })).ok).toBe(true);
    expect(judgePrice(target, all({ 'gid://shopify/ProductVariant/12': { price: '54.00' } })).summary).toBe(
      'Blue hoodie (M) costs 54.00 USD, was 49.00 (hoodies.myshopify.com)',
    );
  });

  it('tries the cart with the first watched variant for sale, and cannot judge when none is', async () => {
    const tried: string[] = [];
    const ok = await judgeCart(
      target,
      all({ 'gid://shopify/ProductVariant/11': { availableForSale: false } }),
      async (id) => {
        tried.push(id);
        return { ok: true, status: 200, problem: null };
      },
    );
    expect(tried).toEqual(['gid://shopify/ProductVariant/12']);
    expect(ok.ok).toBe(true);
    const broken = await judgeCart(target, all(), async () => ({
      ok: false,
      status: 500,
      problem: 'HTTP 500',
    }));
    expect(broken).toMatchObject({
      ok: false,
      summary: 'Adding Blue hoodie (S) to the cart failed on hoodies.myshopify.com: HTTP 500',
    });
    expect(broken.confirmed).toBeUndefined();
    const soldOut = all(
      Object.fromEntries(
        ['11', '12', '21'].map((n) => [`gid://shopify/ProductVariant/${n}`, { availableForSale: false }]),
      ),
    );
    expect(
      (await judgeCart(target, soldOut, async () => ({ ok: true, status: 200, problem: null }))).ok,
    ).toBeNull();
  });

  it('counts a password page as a storefront shoppers cannot use', () => {
    const up = { up: true, passwordProtected: false, status: 200, responseMs: 80, problem: null };
    expect(judgeStorefront('s', up).ok).toBe(true);
    expect(judgeStorefront('s', { ...up, passwordProtected: true }).summary).toContain('password page');
    expect(judgeStorefront('s', { ...up, up: false, status: 503, problem: 'HTTP 503' }).summary).toBe(
      'The storefront of s is down: HTTP 503',
    );
  });
});
