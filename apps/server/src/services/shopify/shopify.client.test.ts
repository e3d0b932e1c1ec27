import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createShopifyClient, myshopifyDomainOf, queryHmac, waitFor, webhookHmac } from './shopify.client.ts';

const settings = {
  clientId: 'client',
  clientSecret: 'hush',
  scopes: ['read_products', 'read_inventory'],
  shopUrl: 'https://{shop}',
  apiVersion: '2025-01',
};

describe('Shopify proofs', () => {
  it('signs a query as Shopify does: hex HMAC-SHA256 of the other parameters sorted by name', () => {
    const params = {
      shop: 'a.myshopify.com',
      code: 'c0de',
      timestamp: '1700000000',
      state: 'xyz',
      host: 'aG9zdA',
    };
    const expected = createHmac('sha256', 'hush')
      .update('code=c0de&host=aG9zdA&shop=a.myshopify.com&state=xyz&timestamp=1700000000')
      .digest('hex');
    expect(queryHmac({ ...params, hmac: 'ignored' }, 'hush')).toBe(expected);
    const client = createShopifyClient(settings);
    expect(client.verifyQuery({ ...params, hmac: expected })).toBe(true);
    expect(client.verifyQuery({ ...params, hmac: expected.toUpperCase() })).toBe(true);
    expect(client.verifyQuery({ ...params, shop: 'b.myshopify.com', hmac: expected })).toBe(false);
    expect(client.verifyQuery({ ...params, hmac: queryHmac(params, 'other-secret') })).toBe(false);
    expect(client.verifyQuery(params)).toBe(false);
  });

  it('checks a webhook body against its base64 HMAC and refuses any change to it', () => {
    const body = Buffer.from('{"id":1}');
    const client = createShopifyClient(settings);
    const proof = webhookHmac(body, 'hush');
    expect(proof).toBe(createHmac('sha256', 'hush').update(body).digest('base64'));
    expect(client.verifyWebhook(body, proof)).toBe(true);
    expect(client.verifyWebhook(Buffer.from('{"id":2}'), proof)).toBe(false);
    expect(client.verifyWebhook(body, undefined)).toBe(false);
  });

  it('reads a shop as people type it, and nothing else as a myshopify domain', () => {
    expect(myshopifyDomainOf('hoodies')).toBe('hoodies.myshopify.com');
    expect(myshopifyDomainOf(' Hoodies.myshopify.com ')).toBe('hoodies.myshopify.com');
    expect(myshopifyDomainOf('https://hoodies.myshopify.com/admin')).toBe('hoodies.myshopify.com');
    expect(myshopifyDomainOf('shop.example.com')).toBeNull();
    expect(myshopifyDomainOf('evil.com/.myshopify.com')).toBeNull();
  });

  it('waits for as long as the bucket needs to refill for the refused query', () => {
    const throttleStatus = { maximumAvailable: 2000, currentlyAvailable: 100, restoreRate: 100 };
    expect(waitFor({ requestedQueryCost: 600, actualQueryCost: null, throttleStatus })).toBe(5050);
    expect(waitFor(null)).toBe(2000);
  });

  it('builds the authorize URL on the shop with the app, scopes, redirect and state', () => {
    const url = new URL(
      createShopifyClient(settings).authorizeUrl('a.myshopify.com', 's1', 'https://v.example/app/oauth'),
    );
    expect(url.origin + url.pathname).toBe('https://a.myshopify.com/admin/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'client',
      scope: 'read_products,read_inventory',
      redirect_uri: 'https://v.example/app/oauth',
      state: 's1',
    });
  });
});
