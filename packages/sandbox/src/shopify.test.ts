import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createSandbox,
  shopifyQueryHmac,
  shopifyWebhookHmac,
  type Sandbox,
  type ShopifySandbox,
} from './index.ts';
import { Waiters } from './waiters.ts';

const CLIENT_ID = 'vigil-client-id';
const CLIENT_SECRET = 'vigil-client-secret';
const DEMO = 'vigil-demo.myshopify.com';
const QUERY = '/admin/api/2025-01/graphql.json';

/** A request the sandbox sent to "Vigil", i.e. to the receiver below. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Stands in for Vigil's webhook endpoints: records every request and answers 200 unless told otherwise. */
function startReceiver() {
  const received: Received[] = [];
  const waiters = new Waiters<Received>('webhook');
  const answers: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      waiters.notify(request);
      res.writeHead(answers.shift() ?? 200).end();
    });
  });
  return {
    received,
    answers,
    server,
    url: '',
    waitFor: (predicate: (request: Received) => boolean) => waiters.waitFor(received, predicate, 5000),
  };
}

/** Shopify's two signatures written out again, independently of the sandbox's, to check what it signs. */
function expectedQueryHmac(params: URLSearchParams): string {
  const message = [...params]
    .filter(([name]) => name !== 'hmac')
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  return createHmac('sha256', CLIENT_SECRET).update(message).digest('hex');
}

function expectedBodyHmac(body: string): string {
  return createHmac('sha256', CLIENT_SECRET).update(Buffer.from(body, 'utf8')).digest('base64');
}

const receiver = startReceiver();
let app: FastifyInstance;
let sandbox: Sandbox;
let shopify: ShopifySandbox;
let origin = '';
let clock = Date.parse('2025-03-01T12:00:00Z');

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
  sandbox = createSandbox({
    publicUrl: () => origin,
    smtpPort: 0,
    oidcClientId: 'client-a',
    oidcClientSecret: 'secret-a',
    shopify: {
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      complianceWebhookUrl: `${receiver.url}/webhooks/shopify/compliance`,
      webhookRetryDelaysMs: [20, 20],
      now: () => clock,
    },
  });
  shopify = sandbox.shopify;
  app = Fastify();
  await app.register(sandbox.plugin, { prefix: '/sandbox' });
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  await sandbox.stop();
  receiver.server.closeAllConnections();
  await new Promise((resolve) => receiver.server.close(resolve));
});

beforeEach(() => {
  shopify.reset();
  receiver.received.length = 0;
  receiver.answers.length = 0;
});

const base = (shop = DEMO) => `${origin}/sandbox/shopify/shops/${shop}`;

function authorizeQuery(overrides: Record<string, string> = {}) {
  return new URLSearchParams({
    client_id: CLIENT_ID,
    scope: 'read_products,read_inventory',
    redirect_uri: `${origin}/app/oauth`,
    state: 'nonce-1',
    'grant_options[]': '',
    ...overrides,
  });
}

/** The merchant approves on the grant screen; answers the redirect's parameters. */
async function approve(shop = DEMO, overrides: Record<string, string> = {}) {
  const response = await fetch(`${base(shop)}/admin/oauth/authorize`, {
    method: 'POST',
    body: new URLSearchParams({ ...Object.fromEntries(authorizeQuery(overrides)), decision: 'approve' }),
    redirect: 'manual',
  });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

async function exchange(shop: string, body: Record<string, string>, form = false) {
  const response = await fetch(`${base(shop)}/admin/oauth/access_token`, {
    method: 'POST',
    headers: form ? {} : { 'Content-Type': 'application/json' },
    body: form ? new URLSearchParams(body) : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** Installs the app on the shop the way Vigil will: grant, then code for token. */
async function install(shop = DEMO): Promise<string> {
  const redirect = await approve(shop);
  const answer = await exchange(shop, {
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
    code: redirect.searchParams.get('code')!,
  });
  return answer.body.access_token!;
}

interface GraphqlBody {
  data?: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  errors?: { message: string; extensions?: Record<string, unknown> }[] | string;
  extensions?: {
    cost: {
      requestedQueryCost: number;
      actualQueryCost: number | null;
      throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
    };
  };
}

async function gql(
  token: string | null,
  query: string,
  variables: Record<string, unknown> = {},
  shop = DEMO,
) {
  const response = await fetch(`${base(shop)}${QUERY}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { 'X-Shopify-Access-Token': token } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphqlBody };
}

const PRODUCTS_PAGE = `query Page($first: Int, $after: String, $last: Int, $before: String, $query: String) {
  products(first: $first, after: $after, last: $last, before: $before, query: $query) {
    edges { cursor node { id title } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

async function subscribe(token: string, topic: string, path = `/webhooks/shopify/${topic.toLowerCase()}`) {
  const { body } = await gql(
    token,
    `mutation Subscribe($topic: WebhookSubscriptionTopic!, $sub: WebhookSubscriptionInput!) {
      webhookSubscriptionCreate(topic: $topic, webhookSubscription: $sub) {
        webhookSubscription { id topic callbackUrl endpoint { __typename ... on WebhookHttpEndpoint { callbackUrl } } }
        userErrors { field message }
      }
    }`,
    { topic, sub: { callbackUrl: `${receiver.url}${path}`, format: 'JSON' } },
  );
  return body.data!.webhookSubscriptionCreate as {
    webhookSubscription: { id: string; topic: string; callbackUrl: string } | null;
    userErrors: { field: string[]; message: string }[];
  };
}

/** The fields of a products/update payload the tests read. */
interface RestProduct {
  id: number;
  admin_graphql_api_id: string;
  handle: string;
  status: string;
  published_at: string | null;
  variants: { id: number; price: string; inventory_quantity: number; inventory_policy: string }[];
}

const demoProduct = (title: string) => shopify.products(DEMO).find((p) => p.title === title)!;

describe('Shopify OAuth', () => {
  it('shows a grant screen naming the shop and the scopes in words', async () => {
    const response = await fetch(`${base()}/admin/oauth/authorize?${authorizeQuery()}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Install Vigil on Vigil Demo Outfitters?');
    expect(html).toContain('View products, variants and collections');
    expect(html).toContain('View inventory levels and locations');
    expect(html).toMatch(
      /<button class="primary" type="submit" name="decision" value="approve">Approve<\/button>/,
    );
    expect(html).toContain('value="cancel">Cancel</button>');
  });

  it('refuses an unknown client or redirect_uri with an error page, and an unknown shop with 404', async () => {
    const wrongUri = await fetch(
      `${base()}/admin/oauth/authorize?${authorizeQuery({ redirect_uri: 'https://evil.example/cb' })}`,
    );
    expect(wrongUri.status).toBe(400);
    expect(await wrongUri.text()).toContain('The redirect_uri is not whitelisted');
    const wrongClient = await fetch(
      `${base()}/admin/oauth/authorize?${authorizeQuery({ client_id: 'other' })}`,
    );
    expect(wrongClient.status).toBe(400);
    const noShop = await fetch(`${base('nope.myshopify.com')}/admin/oauth/authorize?${authorizeQuery()}`);
    expect(noShop.status).toBe(404);
  });

  it('redirects an approval with code, hmac, host, shop, state and timestamp, signed with the secret', async () => {
    const redirect = await approve();
    expect(`${redirect.origin}${redirect.pathname}`).toBe(`${origin}/app/oauth`);
    const params = redirect.searchParams;
    expect([...params.keys()]).toEqual(['code', 'hmac', 'host', 'shop', 'state', 'timestamp']);
    expect(params.get('shop')).toBe(DEMO);
    expect(params.get('state')).toBe('nonce-1');
    expect(params.get('timestamp')).toBe(String(Math.floor(clock / 1000)));
    expect(params.get('host')).toBe(Buffer.from('admin.shopify.com/store/vigil-demo').toString('base64url'));
    expect(params.get('hmac')).toBe(expectedQueryHmac(params));
    expect(shopifyQueryHmac(params, CLIENT_SECRET)).toBe(params.get('hmac'));
  });

  it('trades a code once for an offline token with the granted scopes', async () => {
    const code = (await approve()).searchParams.get('code')!;
    const first = await exchange(DEMO, { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, code });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      access_token: expect.stringMatching(/^shpat_[0-9a-f]{32}$/),
      scope: 'read_products,read_inventory',
    });
    const again = await exchange(DEMO, { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, code }, true);
    expect(again).toEqual({
      status: 400,
      body: {
        error: 'invalid_request',
        error_description: 'The authorization code was not found or was already used',
      },
    });
    expect(shopify.shop(DEMO)!.installation).toMatchObject({
      installed: true,
      scopes: ['read_products', 'read_inventory'],
    });
  });

  it('refuses a wrong client secret and a code older than 10 minutes; a new token replaces the old one', async () => {
    const code = (await approve()).searchParams.get('code')!;
    const wrong = await exchange(DEMO, { client_id: CLIENT_ID, client_secret: 'nope', code }, true);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_client');

    const late = (await approve()).searchParams.get('code')!;
    clock += 10 * 60_000 + 1000;
    expect(
      (await exchange(DEMO, { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, code: late })).status,
    ).toBe(400);

    const oldToken = await install();
    const newToken = await install();
    expect((await gql(oldToken, '{ shop { name } }')).status).toBe(401);
    expect((await gql(newToken, '{ shop { name } }')).status).toBe(200);
  });

  it('sends a cancelled install to a page linking back to Vigil, not to the app', async () => {
    const response = await fetch(`${base()}/admin/oauth/authorize`, {
      method: 'POST',
      body: new URLSearchParams({ ...Object.fromEntries(authorizeQuery()), decision: 'cancel' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Installation cancelled');
    expect(html).toContain(`href="${origin}/app/monitor"`);
  });

  it('opens the app URL signed like Shopify does on install', () => {
    const url = new URL(shopify.installUrl(DEMO));
    expect(`${url.origin}${url.pathname}`).toBe(`${origin}/shopify/install`);
    expect([...url.searchParams.keys()]).toEqual(['hmac', 'host', 'shop', 'timestamp']);
    expect(url.searchParams.get('hmac')).toBe(expectedQueryHmac(url.searchParams));
  });
});

describe('Shopify GraphQL Admin API', () => {
  it('pages products forward and back by cursor', async () => {
    const token = await install();
    const page1 = (await gql(token, PRODUCTS_PAGE, { first: 10 })).body.data!.products;
    expect(page1.edges).toHaveLength(10);
    expect(page1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const page2 = (await gql(token, PRODUCTS_PAGE, { first: 10, after: page1.pageInfo.endCursor })).body.data!
      .products;
    const page3 = (await gql(token, PRODUCTS_PAGE, { first: 10, after: page2.pageInfo.endCursor })).body.data!
      .products;
    expect(page3.edges).toHaveLength(6);
    expect(page3.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const titles = [page1, page2, page3].flatMap((p) =>
      p.edges.map((e: { node: { title: string } }) => e.node.title),
    );
    expect(titles).toEqual(shopify.products(DEMO).map((p) => p.title));

    const back = (await gql(token, PRODUCTS_PAGE, { last: 10, before: page3.pageInfo.startCursor })).body
      .data!.products;
    expect(back.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(
      page2.edges.map((e: { node: { id: string } }) => e.node.id),
    );
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  });

  it('searches by title with a plain word or title:*word*, and by status', async () => {
    const token = await install();
    const titles = async (query: string) =>
      (await gql(token, PRODUCTS_PAGE, { first: 50, query })).body.data!.products.edges.map(
        (e: { node: { title: string } }) => e.node.title,
      );
    expect(await titles('hoodie')).toEqual(['Blue hoodie']);
    expect(await titles('title:*crew*')).toEqual(['Grey crewneck sweatshirt']);
    expect(await titles('status:draft')).toEqual(['Winter parka']);
    expect(await titles('jacket -status:active')).toEqual(['Winter parka', 'Vintage windbreaker']);
  });

  it('answers nodes with null for unknown ids, and the product fields Vigil reads', async () => {
    const token = await install();
    const hoodie = demoProduct('Blue hoodie');
    const poster = demoProduct('Trail map poster');
    const gift = demoProduct('Gift card');
    const { body } = await gql(
      token,
      `query Watch($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on Product {
        id title handle status totalInventory tracksInventory onlineStoreUrl publishedAt
        featuredImage { url altText }
        priceRangeV2 { minVariantPrice { amount currencyCode } maxVariantPrice { amount } }
        variants(first: 10) { nodes { id title price sku inventoryQuantity inventoryPolicy availableForSale
          inventoryItem { id tracked } } }
      } } }`,
      { ids: [hoodie.gid, 'gid://shopify/Product/1', poster.gid, gift.gid] },
    );
    const [first, unknown, unpublished, untracked] = body.data!.nodes;
    expect(unknown).toBeNull();
    expect(first).toMatchObject({
      __typename: 'Product',
      id: hoodie.gid,
      status: 'ACTIVE',
      totalInventory: 19,
      tracksInventory: true,
      onlineStoreUrl: `${base()}/products/blue-hoodie`,
      featuredImage: { url: expect.stringContaining('/cdn/shop/products/'), altText: 'Blue hoodie' },
      priceRangeV2: {
        minVariantPrice: { amount: '49.00', currencyCode: 'USD' },
        maxVariantPrice: { amount: '49.00' },
      },
    });
    expect(first.variants.nodes[1]).toEqual({
      id: hoodie.variants[1]!.gid,
      title: 'M',
      price: '49.00',
      sku: 'BLUE-HOODIE-M',
      inventoryQuantity: 0,
      inventoryPolicy: 'DENY',
      availableForSale: false,
      inventoryItem: {
        id: `gid://shopify/InventoryItem/${hoodie.variants[1]!.inventoryItemId}`,
        tracked: true,
      },
    });
    expect(unpublished.onlineStoreUrl).toBeNull();
    expect(untracked).toMatchObject({ featuredImage: null, tracksInventory: false });
    expect(untracked.variants.nodes[0].inventoryItem.tracked).toBe(false);

    const image = await fetch(first.featuredImage.url);
    expect(image.headers.get('content-type')).toContain('image/svg+xml');
  });

  it('carries the calculated cost on every answer and takes it from the bucket', async () => {
    const token = await install();
    const shop = await gql(
      token,
      '{ shop { name myshopifyDomain currencyCode primaryDomain { url host } } }',
    );
    expect(shop.body.data!.shop).toMatchObject({
      name: 'Vigil Demo Outfitters',
      myshopifyDomain: DEMO,
      currencyCode: 'USD',
    });
    expect(shop.body.extensions!.cost).toEqual({
      requestedQueryCost: 2,
      actualQueryCost: 2,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1998, restoreRate: 100 },
    });
    const page = await gql(token, '{ products(first: 10) { edges { node { id title } } } }');
    expect(page.body.extensions!.cost).toMatchObject({ requestedQueryCost: 12, actualQueryCost: 12 });
    const few = await gql(
      token,
      '{ products(first: 50, query: "hoodie") { nodes { id featuredImage { url } } } }',
    );
    expect(few.body.extensions!.cost).toMatchObject({ requestedQueryCost: 102, actualQueryCost: 4 });
    expect(shopify.calls(DEMO)).toEqual({ requests: 3, cost: 18, throttled: 0 });
    const mutation = await subscribe(token, 'PRODUCTS_UPDATE');
    expect(mutation.userErrors).toEqual([]);
    expect(shopify.calls(DEMO).cost).toBe(28);
  });

  it('answers Throttled and charges nothing when the bucket cannot pay, and recovers as it restores', async () => {
    const token = await install();
    shopify.setThrottle(DEMO, { maximumAvailable: 50, restoreRate: 10, currentlyAvailable: 5 });
    const query = '{ products(first: 10) { nodes { id } } }';
    const throttled = await gql(token, query);
    expect(throttled.status).toBe(200);
    expect(throttled.body).toEqual({
      errors: [
        {
          message: 'Throttled',
          extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
        },
      ],
      extensions: {
        cost: {
          requestedQueryCost: 12,
          actualQueryCost: null,
          throttleStatus: { maximumAvailable: 50, currentlyAvailable: 5, restoreRate: 10 },
        },
      },
    });
    clock += 1000;
    const recovered = await gql(token, query);
    expect(recovered.body.data!.products.nodes).toHaveLength(10);
    expect(recovered.body.extensions!.cost.throttleStatus.currentlyAvailable).toBe(3);
    expect(shopify.calls(DEMO)).toEqual({ requests: 2, cost: 12, throttled: 1 });
  });

  it('refuses a query over the single-query limit and more than 250 ids', async () => {
    const token = await install();
    const big = await gql(
      token,
      '{ products(first: 250) { nodes { id variants(first: 250) { nodes { id } } } } }',
    );
    expect(JSON.stringify(big.body.errors)).toContain('MAX_COST_EXCEEDED');
    const ids = Array.from({ length: 251 }, (_, i) => `gid://shopify/Product/${i + 1}`);
    const many = await gql(token, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids });
    expect(JSON.stringify(many.body.errors)).toContain('MAX_INPUT_SIZE_EXCEEDED');
  });

  it("answers 401 with Shopify's body without a valid token, and after uninstall", async () => {
    const token = await install();
    const missing = await gql(null, '{ shop { name } }');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
    });
    expect((await gql(token, '{ shop { name } }')).status).toBe(200);
    shopify.uninstall(DEMO);
    expect((await gql(token, '{ shop { name } }')).status).toBe(401);
    expect(shopify.shop(DEMO)!.installation).toMatchObject({ installed: false });
  });

  it('answers one injected 429 or 5xx, then as usual', async () => {
    const token = await install();
    shopify.addFault(DEMO, { status: 429 });
    shopify.addFault(DEMO, { status: 503 });
    const limited = await gql(token, '{ shop { name } }');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2.0');
    expect((await gql(token, '{ shop { name } }')).status).toBe(503);
    expect((await gql(token, '{ shop { name } }')).status).toBe(200);
    expect(shopify.calls(DEMO).requests).toBe(3);
  });

  it('creates webhook subscriptions per installation and lists them', async () => {
    const token = await install();
    const created = await subscribe(token, 'PRODUCTS_UPDATE');
    expect(created.webhookSubscription).toMatchObject({
      id: expect.stringMatching(/^gid:\/\/shopify\/WebhookSubscription\/\d+$/),
      topic: 'PRODUCTS_UPDATE',
      callbackUrl: `${receiver.url}/webhooks/shopify/products_update`,
    });
    expect((await subscribe(token, 'PRODUCTS_UPDATE')).userErrors).toEqual([
      {
        field: ['webhookSubscription', 'callbackUrl'],
        message: 'Address for this topic has already been taken',
      },
    ]);
    const listed = await gql(
      token,
      '{ webhookSubscriptions(first: 10) { nodes { topic endpoint { ... on WebhookHttpEndpoint { callbackUrl } } } } }',
    );
    expect(listed.body.data!.webhookSubscriptions.nodes).toEqual([
      {
        topic: 'PRODUCTS_UPDATE',
        endpoint: { callbackUrl: `${receiver.url}/webhooks/shopify/products_update` },
      },
    ]);
  });
});

describe('Shopify storefront', () => {
  it('redirects every page to /password while locked, and lets the password in', async () => {
    shopify.setPasswordEnabled(DEMO, true);
    const home = await fetch(`${base()}/`, { redirect: 'manual' });
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe(`${base()}/password`);
    const cart = await fetch(`${base()}/cart/add.js`, {
      method: 'POST',
      body: new URLSearchParams({ id: '1' }),
      redirect: 'manual',
    });
    expect(cart.status).toBe(302);
    const passwordPage = await (await fetch(`${base()}/password`)).text();
    expect(passwordPage).toContain(`<form method="post" action="/sandbox/shopify/shops/${DEMO}/password"`);
    const wrong = await fetch(`${base()}/password`, {
      method: 'POST',
      body: new URLSearchParams({ password: 'x' }),
      redirect: 'manual',
    });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${base()}/password`, {
      method: 'POST',
      body: new URLSearchParams({ password: 'vigil' }),
      redirect: 'manual',
    });
    expect(right.status).toBe(302);
    const cookie = right.headers.get('set-cookie')!.split(';')[0]!;
    const unlocked = await fetch(`${base()}/`, { headers: { cookie }, redirect: 'manual' });
    expect(unlocked.status).toBe(200);
    expect(await unlocked.text()).toContain('Blue hoodie');
  });

  it('adds to cart from a form or JSON, and refuses a sold-out or unknown variant', async () => {
    const hoodie = demoProduct('Blue hoodie');
    const [small, medium] = hoodie.variants;
    const form = await fetch(`${base()}/cart/add.js`, {
      method: 'POST',
      body: new URLSearchParams({ id: String(small!.id), quantity: '2' }),
    });
    expect(form.status).toBe(200);
    expect(await form.json()).toMatchObject({
      id: small!.id,
      variant_id: small!.id,
      product_id: hoodie.id,
      quantity: 2,
      price: 4900,
      line_price: 9800,
      title: 'Blue hoodie - S',
      handle: 'blue-hoodie',
    });
    const json = await fetch(`${base()}/cart/add.js`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ items: [{ id: small!.id, quantity: 1 }] }),
    });
    expect(((await json.json()) as { items: { quantity: number }[] }).items[0]!.quantity).toBe(1);
    const single = await fetch(`${base()}/cart/add.js`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: demoProduct('Wool beanie').variants[0]!.id, quantity: 1 }),
    });
    expect(single.status).toBe(200);

    const soldOut = await fetch(`${base()}/cart/add.js`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: medium!.id, quantity: 1 }),
    });
    expect(soldOut.status).toBe(422);
    expect(await soldOut.json()).toEqual({
      status: 422,
      message: 'Cart Error',
      description: "The product 'Blue hoodie - M' is already sold out.",
    });
    const wallet = demoProduct('Leather card wallet').variants[0]!;
    const short = await fetch(`${base()}/cart/add.js`, {
      method: 'POST',
      body: new URLSearchParams({ id: String(wallet.id), quantity: '5' }),
    });
    expect(short.status).toBe(422);
    expect(((await short.json()) as { description: string }).description).toBe(
      'Only 2 items were added to your cart.',
    );
    const unknown = await fetch(`${base()}/cart/add.js`, {
      method: 'POST',
      body: new URLSearchParams({ id: '123', quantity: '1' }),
    });
    expect(unknown.status).toBe(404);
  });

  it('answers add to cart with a 500 error page while it is broken', async () => {
    shopify.setCartBroken(DEMO, true);
    const variant = demoProduct('Canvas tote bag').variants[0]!;
    const broken = await fetch(`${base()}/cart/add.js`, {
      method: 'POST',
      body: new URLSearchParams({ id: String(variant.id) }),
    });
    expect(broken.status).toBe(500);
    expect(broken.headers.get('content-type')).toContain('text/html');
    shopify.setCartBroken(DEMO, false);
    const fixed = await fetch(`${base()}/cart/add.js`, {
      method: 'POST',
      body: new URLSearchParams({ id: String(variant.id) }),
    });
    expect(fixed.status).toBe(200);
  });

  it("serves meta.json and products/{handle}.js in Shopify's shapes, and 404 for an unknown shop", async () => {
    const meta = (await (await fetch(`${base()}/meta.json`)).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({
      name: 'Vigil Demo Outfitters',
      city: 'Portland',
      province: 'Oregon',
      country: 'US',
      currency: 'USD',
      myshopify_domain: DEMO,
      url: base(),
      published_products_count: 23,
    });
    const product = (await (await fetch(`${base()}/products/blue-hoodie.js`)).json()) as Record<
      string,
      unknown
    >;
    expect(product).toMatchObject({
      handle: 'blue-hoodie',
      price: 4900,
      available: true,
      url: '/products/blue-hoodie',
    });
    expect((product.variants as { available: boolean }[]).map((v) => v.available)).toEqual([
      true,
      false,
      true,
    ]);
    expect((await fetch(`${base()}/products/winter-parka`)).status).toBe(404);
    expect((await fetch(`${base('nope.myshopify.com')}/meta.json`)).status).toBe(404);
    expect((await fetch(`${base('nope.myshopify.com')}${QUERY}`, { method: 'POST' })).status).toBe(404);
  });
});

describe('Shopify webhooks', () => {
  it('sends each change signed with a base64 HMAC of the raw body and Shopify headers', async () => {
    const token = await install();
    await subscribe(token, 'PRODUCTS_UPDATE');
    await subscribe(token, 'INVENTORY_LEVELS_UPDATE');
    const hoodie = demoProduct('Blue hoodie');
    const medium = hoodie.variants[1]!;

    shopify.setStock(DEMO, medium.id, 5);
    const level = await receiver.waitFor((r) => r.headers['x-shopify-topic'] === 'inventory_levels/update');
    expect(level.path).toBe('/webhooks/shopify/inventory_levels_update');
    expect(level.headers['x-shopify-hmac-sha256']).toBe(expectedBodyHmac(level.body));
    expect(shopifyWebhookHmac(level.body, CLIENT_SECRET)).toBe(level.headers['x-shopify-hmac-sha256']);
    expect(level.headers).toMatchObject({
      'content-type': 'application/json',
      'x-shopify-shop-domain': DEMO,
      'x-shopify-api-version': '2025-01',
      'x-shopify-webhook-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'x-shopify-event-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'x-shopify-triggered-at': new Date(clock).toISOString(),
    });
    expect(JSON.parse(level.body)).toEqual({
      inventory_item_id: medium.inventoryItemId,
      location_id: expect.any(Number),
      available: 5,
      updated_at: new Date(clock).toISOString(),
      admin_graphql_api_id: expect.stringMatching(
        /^gid:\/\/shopify\/InventoryLevel\/\d+\?inventory_item_id=\d+$/,
      ),
    });

    shopify.setPrice(DEMO, medium.id, '54.5');
    shopify.setStatus(DEMO, hoodie.id, 'ARCHIVED');
    shopify.setPublished(DEMO, demoProduct('Sticker pack').gid, false);
    const productUpdates = () =>
      receiver.received.filter((r) => r.headers['x-shopify-topic'] === 'products/update');
    await vi.waitFor(() => expect(productUpdates()).toHaveLength(3));
    const updates = productUpdates();
    const payloads = updates.map((r) => JSON.parse(r.body) as RestProduct);
    const priced = payloads.find((p) => p.status === 'active' && p.id === hoodie.id);
    expect(priced?.variants[1]).toMatchObject({
      id: medium.id,
      price: '54.50',
      inventory_quantity: 5,
      inventory_policy: 'deny',
    });
    expect(payloads.find((p) => p.status === 'archived')).toMatchObject({
      id: hoodie.id,
      admin_graphql_api_id: hoodie.gid,
      handle: 'blue-hoodie',
    });
    expect(payloads.find((p) => p.handle === 'sticker-pack')).toMatchObject({ published_at: null });
    for (const update of updates)
      expect(update.headers['x-shopify-hmac-sha256']).toBe(expectedBodyHmac(update.body));
  });

  it('retries a failed delivery and records what the receiver answered', async () => {
    const token = await install();
    await subscribe(token, 'PRODUCTS_UPDATE');
    receiver.answers.push(500);
    shopify.setPrice(DEMO, demoProduct('Enamel camp mug').variants[0]!.id, '15.00');
    const delivery = await shopify.waitForDelivery((d) => d.status === 'delivered');
    expect(delivery).toMatchObject({ topic: 'products/update', attempts: 2, responseStatus: 200 });
    const sent = receiver.received.filter((r) => r.headers['x-shopify-topic'] === 'products/update');
    expect(sent).toHaveLength(2);
    expect(sent[0]!.headers['x-shopify-webhook-id']).toBe(sent[1]!.headers['x-shopify-webhook-id']);
  });

  it('sends app/uninstalled with the shop, and compliance webhooks to the compliance URL', async () => {
    const token = await install();
    await subscribe(token, 'APP_UNINSTALLED');
    shopify.uninstall(DEMO);
    const uninstalled = await receiver.waitFor((r) => r.headers['x-shopify-topic'] === 'app/uninstalled');
    expect(JSON.parse(uninstalled.body)).toMatchObject({
      myshopify_domain: DEMO,
      name: 'Vigil Demo Outfitters',
      currency: 'USD',
    });

    shopify.sendComplianceWebhook(DEMO, 'shop/redact');
    const redact = await receiver.waitFor((r) => r.headers['x-shopify-topic'] === 'shop/redact');
    expect(redact.path).toBe('/webhooks/shopify/compliance');
    expect(JSON.parse(redact.body)).toEqual({ shop_id: expect.any(Number), shop_domain: DEMO });
    expect(redact.headers['x-shopify-hmac-sha256']).toBe(expectedBodyHmac(redact.body));
    shopify.sendComplianceWebhook(DEMO, 'customers/data_request');
    const request = await receiver.waitFor((r) => r.headers['x-shopify-topic'] === 'customers/data_request');
    expect(JSON.parse(request.body)).toMatchObject({
      shop_domain: DEMO,
      orders_requested: [],
      customer: { id: expect.any(Number), email: 'customer@example.com' },
      data_request: { id: expect.any(Number) },
    });
  });
});

describe('Shopify control page and JSON API', () => {
  it('renders the demo shop, applies a change and redirects back, and lists Shopify on the home page', async () => {
    const html = await (await fetch(`${origin}/sandbox/shopify`)).text();
    expect(html).toContain('<h2 id="shop-heading">Vigil Demo Outfitters</h2>');
    expect(html).toContain('Install Vigil</button>');
    expect(html).toContain('Page 1 of 3');
    expect(html).toContain('aria-label="Set stock of Blue hoodie — M"');
    const variant = demoProduct('Blue hoodie').variants[1]!;
    const change = await fetch(`${origin}/sandbox/shopify/stock`, {
      method: 'POST',
      body: new URLSearchParams({ shop: DEMO, page: '1', variantId: String(variant.id), quantity: '9' }),
      redirect: 'manual',
    });
    expect(change.status).toBe(303);
    expect(change.headers.get('location')).toContain('notice=');
    expect(demoProduct('Blue hoodie').variants[1]!.inventoryQuantity).toBe(9);
    const installing = await fetch(`${origin}/sandbox/shopify/install`, {
      method: 'POST',
      body: new URLSearchParams({ shop: DEMO }),
      redirect: 'manual',
    });
    expect(installing.headers.get('location')).toMatch(new RegExp(`^${origin}/shopify/install\\?hmac=`));
    expect(await (await fetch(`${origin}/sandbox`)).text()).toContain('Open the Shopify sandbox');
  });

  it('creates shops and changes products through the JSON API', async () => {
    const created = await fetch(`${origin}/sandbox/api/shopify/shops`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Hoodie Heaven', currency: 'EUR', productCount: 12 }),
    });
    const shop = ((await created.json()) as { data: { domain: string; productCount: number } }).data;
    expect(shop).toMatchObject({ domain: 'hoodie-heaven.myshopify.com', productCount: 12 });
    const product = shopify.products(shop.domain)[0]!;
    const stock = await fetch(
      `${origin}/sandbox/api/shopify/shops/${shop.domain}/variants/${encodeURIComponent(product.variants[0]!.gid)}/stock`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ quantity: 0 }),
      },
    );
    expect(((await stock.json()) as { data: { inventoryQuantity: number } }).data.inventoryQuantity).toBe(0);
    const missing = await fetch(`${origin}/sandbox/api/shopify/shops/nope.myshopify.com/calls`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('holds a thousand small shops and pages a 5,000-product shop quickly', async () => {
    const started = performance.now();
    for (let i = 0; i < 1000; i += 1) shopify.createShop({ name: `Bench shop ${i}`, productCount: 10 });
    const big = shopify.createShop({ name: 'Big shop', productCount: 5000 });
    expect(performance.now() - started).toBeLessThan(3000);
    const token = await install(big.domain);
    const lastPage = await gql(
      token,
      '{ products(last: 10, query: "title:*5000*") { nodes { title } } }',
      {},
      big.domain,
    );
    expect(lastPage.body.data!.products.nodes.map((n: { title: string }) => n.title)).toEqual([
      expect.stringContaining('5000'),
    ]);
  });
});
