import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { DEMO_PRODUCTS, DEMO_SHOP, generatedProducts, type ProductInput } from './shopify-catalogue.ts';
import {
  runAdminGraphql,
  throttleStatus,
  type GraphqlHost,
  type GraphqlRequest,
  type UserError,
} from './shopify-graphql.ts';
import { adminHost, shopifyQueryHmac } from './shopify-oauth.ts';
import {
  compliancePayload,
  COMPLIANCE_TOPICS,
  inventoryLevelPayload,
  productWebhookPayload,
  shopPayload,
  type ComplianceTopic,
  type PayloadUrls,
} from './shopify-payloads.ts';
import {
  CURRENCY_CODES,
  gid,
  idOf,
  isOnlineStoreVisible,
  normalizePrice,
  PRODUCT_STATUSES,
  slugify,
  variantAvailable,
  type Installation,
  type Product,
  type ProductStatus,
  type Shop,
  type Variant,
  type WebhookSubscription,
} from './shopify-shop.ts';
import { WebhookDeliveries, type ShopifyDelivery } from './shopify-webhooks.ts';

export type { ProductInput, VariantInput } from './shopify-catalogue.ts';
export type { DeliveryStatus, ShopifyDelivery } from './shopify-webhooks.ts';
export type { ComplianceTopic } from './shopify-payloads.ts';
export type { InventoryPolicy, ProductStatus } from './shopify-shop.ts';

export interface ShopifyOptions {
  /** The Vigil app's client id (API key) and client secret (API secret key). */
  clientId: string;
  clientSecret: string;
  /** Where Shopify opens the app on install. Default `${publicUrl}/shopify/install`. */
  appUrl?: string;
  /** The allowed redirection URLs. Default [`${publicUrl}/app/oauth`]. */
  redirectUris?: string[];
  /** Where the mandatory compliance webhooks go. Default `${publicUrl}/webhooks/shopify/compliance`. */
  complianceWebhookUrl?: string;
  /** Waits before retrying a failed webhook delivery, one per retry. Default [100, 500, 2000] ms. */
  webhookRetryDelaysMs?: number[];
  /** The clock of OAuth codes, the rate-limit bucket and timestamps; tests move it instead of sleeping. */
  now?: () => number;
}

/** A control action that does not fit: an unknown shop, product or variant, or bad input. */
export class ShopifyActionError extends Error {
  override readonly name = 'ShopifyActionError';
  constructor(
    readonly code: 'NOT_FOUND' | 'CONFLICT' | 'INVALID',
    message: string,
  ) {
    super(message);
  }
}

export interface ShopifyVariantView {
  id: number;
  gid: string;
  title: string;
  price: string;
  sku: string;
  inventoryQuantity: number;
  inventoryPolicy: 'DENY' | 'CONTINUE';
  tracked: boolean;
  inventoryItemId: number;
  /** A customer can buy it now. */
  available: boolean;
}

export interface ShopifyProductView {
  id: number;
  gid: string;
  title: string;
  handle: string;
  status: ProductStatus;
  /** Published on the Online Store (and active): it has a storefront page. */
  published: boolean;
  onlineStoreUrl: string | null;
  variants: ShopifyVariantView[];
}

export interface ShopifyInstallationView {
  installed: boolean;
  scopes: string[];
  installedAt: string;
  uninstalledAt: string | null;
  subscriptions: { id: string; topic: string; callbackUrl: string; apiVersion: string }[];
}

export interface ShopifyThrottle {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface ShopifyShopView {
  id: number;
  domain: string;
  name: string;
  currency: string;
  /** The shop's base URL in the sandbox, standing for Shopify's https://{shop}. */
  url: string;
  passwordEnabled: boolean;
  storefrontPassword: string;
  cartBroken: boolean;
  productCount: number;
  installation: ShopifyInstallationView | null;
  throttle: ShopifyThrottle;
  /** GraphQL requests with a valid token (throttled and faulted ones included), and the cost they were charged. */
  calls: { requests: number; cost: number; throttled: number };
}

export interface CreateShopInput {
  name: string;
  /** Default: the name, slugified, + `.myshopify.com` (made unique). */
  domain?: string;
  /** Default USD. */
  currency?: string;
  products?: ProductInput[];
  /** Adds this many generated products (after `products`). */
  productCount?: number;
}

/** Shopify's standard-plan GraphQL Admin bucket: 2,000 points, refilled at 100 points a second. */
export const STANDARD_BUCKET = { maximumAvailable: 2000, restoreRate: 100 };
/** The API version webhooks that no subscription chose (compliance) are serialized for. */
export const DEFAULT_API_VERSION = '2025-01';
const CODE_TTL_MS = 10 * 60_000;
const DEFAULT_STOREFRONT_PASSWORD = 'vigil';
const SUBSCRIBABLE_TOPICS = new Set([
  'APP_UNINSTALLED',
  'INVENTORY_LEVELS_UPDATE',
  'PRODUCTS_CREATE',
  'PRODUCTS_UPDATE',
  'SHOP_UPDATE',
]);

/** PRODUCTS_UPDATE → products/update; INVENTORY_LEVELS_UPDATE → inventory_levels/update. */
export function restTopic(topic: string): string {
  const cut = topic.lastIndexOf('_');
  return `${topic.slice(0, cut)}/${topic.slice(cut + 1)}`.toLowerCase();
}

function equalSecrets(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

interface AuthorizationCode {
  shop: string;
  scopes: string[];
  expiresAt: number;
}

/**
 * A stand-in for Shopify as the Vigil app sees it: shops with a catalogue, the app's OAuth install, the
 * GraphQL Admin API with cost-based throttling, signed webhooks, and each shop's storefront. The HTTP routes,
 * the JSON API, the control page and in-process tests all drive this one object.
 */
export class ShopifySandbox {
  readonly clientId: string;
  readonly #options: ShopifyOptions;
  readonly #publicUrl: () => string;
  readonly #basePath: string;
  readonly #now: () => number;
  readonly #shops = new Map<string, Shop>();
  /** Valid access tokens → the shop they open. */
  readonly #tokens = new Map<string, string>();
  readonly #codes = new Map<string, AuthorizationCode>();
  readonly #deliveries: WebhookDeliveries;
  readonly #ids = {
    shop: 60_000_000_001,
    location: 70_000_000_001,
    product: 8_000_000_000_001,
    variant: 44_000_000_000_001,
    inventoryItem: 46_000_000_000_001,
    subscription: 1_300_000_000_001,
    customer: 7_000_000_000_001,
    request: 9_000_001,
  };

  constructor(options: ShopifyOptions, publicUrl: () => string, basePath: string) {
    this.#options = options;
    this.clientId = options.clientId;
    this.#publicUrl = publicUrl;
    this.#basePath = basePath;
    this.#now = options.now ?? Date.now;
    this.#deliveries = new WebhookDeliveries(
      options.clientSecret,
      options.webhookRetryDelaysMs ?? [100, 500, 2000],
      this.#now,
    );
    this.#createDemoShop();
  }

  /** An app made up for a sandbox started without one: random, so no test can lean on it by accident. */
  static generatedOptions(): ShopifyOptions {
    return {
      clientId: randomBytes(16).toString('hex'),
      clientSecret: `shpss_${randomBytes(16).toString('hex')}`,
    };
  }

  get appUrl(): string {
    return this.#options.appUrl ?? `${this.#publicUrl()}/shopify/install`;
  }

  get redirectUris(): string[] {
    return this.#options.redirectUris ?? [`${this.#publicUrl()}/app/oauth`];
  }

  /** Where a merchant who cancels the install is sent back to: Vigil's monitor page. */
  get vigilMonitorsUrl(): string {
    return `${this.#publicUrl()}/app/monitor`;
  }

  get complianceWebhookUrl(): string {
    return this.#options.complianceWebhookUrl ?? `${this.#publicUrl()}/webhooks/shopify/compliance`;
  }

  /** The shop's base URL: `${publicUrl}${basePath}/shopify/shops/{domain}`, Shopify's https://{shop}. */
  shopUrl(domain: string): string {
    return `${this.#publicUrl()}${this.shopPath(domain)}`;
  }

  /** The same, as a path on the sandbox's origin. */
  shopPath(domain: string): string {
    return `${this.#basePath}/shopify/shops/${domain}`;
  }

  // ---- Shops and products. ----

  createShop(input: CreateShopInput): ShopifyShopView {
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name || name.length > 100)
      throw new ShopifyActionError('INVALID', 'Enter a shop name (up to 100 characters).');
    const currency = input.currency ?? 'USD';
    if (!(CURRENCY_CODES as readonly string[]).includes(currency)) {
      throw new ShopifyActionError('INVALID', `currency must be one of ${CURRENCY_CODES.join(', ')}.`);
    }
    let domain = input.domain?.trim().toLowerCase();
    if (domain !== undefined) {
      if (!/^[a-z0-9][a-z0-9-]{0,59}\.myshopify\.com$/.test(domain)) {
        throw new ShopifyActionError('INVALID', 'domain must look like my-shop.myshopify.com.');
      }
      if (this.#shops.has(domain)) throw new ShopifyActionError('CONFLICT', `${domain} already exists.`);
    } else {
      const slug = slugify(name);
      domain = `${slug}.myshopify.com`;
      for (let n = 2; this.#shops.has(domain); n += 1) domain = `${slug}-${n}.myshopify.com`;
    }
    const count = input.productCount ?? 0;
    if (!Number.isInteger(count) || count < 0 || count > 100_000) {
      throw new ShopifyActionError('INVALID', 'productCount must be an integer from 0 to 100000.');
    }
    const shop = this.#newShop({ name, domain, currency });
    try {
      for (const product of input.products ?? []) this.#addProduct(shop, product);
      for (const product of generatedProducts(count, shop.products.length + 1))
        this.#addProduct(shop, product);
    } catch (error) {
      // All or nothing: a product that does not fit leaves no half-made shop behind.
      this.#shops.delete(shop.domain);
      throw error;
    }
    return this.#shopView(shop);
  }

  shops(): ShopifyShopView[] {
    return [...this.#shops.values()].map((shop) => this.#shopView(shop));
  }

  shop(domain: string): ShopifyShopView | undefined {
    const shop = this.#shops.get(domain);
    return shop && this.#shopView(shop);
  }

  /** Adds a product; sends products/create. */
  addProduct(domain: string, input: ProductInput): ShopifyProductView {
    const shop = this.#requireShop(domain);
    const product = this.#addProduct(shop, input);
    this.#emit(shop, 'PRODUCTS_CREATE', productWebhookPayload(product, this.#urls(shop)), product.createdAt);
    return this.#productView(shop, product);
  }

  /** In id order, which is the Admin API's default order. */
  products(domain: string): ShopifyProductView[] {
    const shop = this.#requireShop(domain);
    return shop.products.map((product) => this.#productView(shop, product));
  }

  /** By numeric id or gid. */
  product(domain: string, productId: number | string): ShopifyProductView | undefined {
    const shop = this.#requireShop(domain);
    const id = idOf(productId, 'Product');
    const product = id === null ? undefined : shop.productsById.get(id);
    return product && this.#productView(shop, product);
  }

  /** Sets a variant's available quantity; sends inventory_levels/update. */
  setStock(domain: string, variantId: number | string, quantity: number): ShopifyVariantView {
    const shop = this.#requireShop(domain);
    const variant = this.#requireVariant(shop, variantId);
    if (!Number.isInteger(quantity) || Math.abs(quantity) > 1_000_000_000) {
      throw new ShopifyActionError('INVALID', 'quantity must be a whole number.');
    }
    const at = this.#iso();
    variant.inventoryQuantity = quantity;
    variant.updatedAt = at;
    this.#emit(shop, 'INVENTORY_LEVELS_UPDATE', inventoryLevelPayload(shop, variant, at), at);
    return this.#variantView(variant);
  }

  /** Sets a variant's price ("49.00"); sends products/update. */
  setPrice(domain: string, variantId: number | string, price: string): ShopifyVariantView {
    const shop = this.#requireShop(domain);
    const variant = this.#requireVariant(shop, variantId);
    const normalized = normalizePrice(price);
    if (normalized === null) throw new ShopifyActionError('INVALID', 'price must be an amount like 49.00.');
    variant.price = normalized;
    this.#productChanged(shop, shop.productsById.get(variant.productId)!, variant);
    return this.#variantView(variant);
  }

  /** ACTIVE, ARCHIVED or DRAFT; sends products/update. */
  setStatus(domain: string, productId: number | string, status: ProductStatus): ShopifyProductView {
    const shop = this.#requireShop(domain);
    const product = this.#requireProduct(shop, productId);
    if (!PRODUCT_STATUSES.includes(status)) {
      throw new ShopifyActionError('INVALID', `status must be one of ${PRODUCT_STATUSES.join(', ')}.`);
    }
    product.status = status;
    this.#productChanged(shop, product);
    return this.#productView(shop, product);
  }

  /** Publishes on (or takes off) the Online Store; sends products/update. */
  setPublished(domain: string, productId: number | string, published: boolean): ShopifyProductView {
    const shop = this.#requireShop(domain);
    const product = this.#requireProduct(shop, productId);
    product.publishedAt = published ? (product.publishedAt ?? this.#iso()) : null;
    this.#productChanged(shop, product);
    return this.#productView(shop, product);
  }

  /** Locks the storefront behind its password page (or opens it); sends shop/update. */
  setPasswordEnabled(domain: string, enabled: boolean, password?: string): ShopifyShopView {
    const shop = this.#requireShop(domain);
    if (password !== undefined) {
      if (!password.trim()) throw new ShopifyActionError('INVALID', 'password must not be empty.');
      shop.storefrontPassword = password;
    }
    shop.passwordEnabled = enabled;
    this.#emit(shop, 'SHOP_UPDATE', shopPayload(shop, this.#urls(shop)), this.#iso());
    return this.#shopView(shop);
  }

  /** Breaks add to cart (500, like a broken theme or app) or fixes it. */
  setCartBroken(domain: string, broken: boolean): ShopifyShopView {
    const shop = this.#requireShop(domain);
    shop.cartBroken = broken;
    return this.#shopView(shop);
  }

  // ---- The app on a shop. ----

  /**
   * Where Shopify sends the merchant who installs (or opens) the app: the app URL with `hmac`, `host`, `shop`
   * and `timestamp`, signed like the OAuth redirect.
   */
  installUrl(domain: string): string {
    const shop = this.#requireShop(domain);
    const params: Record<string, string> = {
      host: adminHost(shop.domain),
      shop: shop.domain,
      timestamp: String(Math.floor(this.#now() / 1000)),
    };
    const url = new URL(this.appUrl);
    url.searchParams.set('hmac', shopifyQueryHmac(params, this.#options.clientSecret));
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url.toString();
  }

  /** The merchant uninstalls Vigil: its token stops working and app/uninstalled is sent. */
  uninstall(domain: string): ShopifyShopView {
    const shop = this.#requireShop(domain);
    const installation = shop.installation;
    if (!installation?.token)
      throw new ShopifyActionError('CONFLICT', `Vigil is not installed on ${shop.domain}.`);
    const at = this.#iso();
    this.#emit(shop, 'APP_UNINSTALLED', shopPayload(shop, this.#urls(shop)), at);
    this.#tokens.delete(installation.token);
    installation.token = null;
    installation.uninstalledAt = at;
    installation.subscriptions = [];
    return this.#shopView(shop);
  }

  /** Shopify sends a mandatory compliance webhook to the app's compliance URL, for a shop that had the app. */
  sendComplianceWebhook(
    domain: string,
    topic: ComplianceTopic,
    customer?: { email?: string; phone?: string },
  ): ShopifyDelivery {
    const shop = this.#requireShop(domain);
    if (!COMPLIANCE_TOPICS.includes(topic)) {
      throw new ShopifyActionError('INVALID', `topic must be one of ${COMPLIANCE_TOPICS.join(', ')}.`);
    }
    if (!shop.installation)
      throw new ShopifyActionError('CONFLICT', `Vigil was never installed on ${shop.domain}.`);
    const person = {
      id: this.#ids.customer++,
      email: customer?.email ?? 'customer@example.com',
      phone: customer?.phone ?? '+15555550123',
    };
    const at = this.#iso();
    return this.#deliveries.send({
      topic,
      shop: shop.domain,
      url: this.complianceWebhookUrl,
      apiVersion: DEFAULT_API_VERSION,
      eventId: randomUUID(),
      triggeredAt: at,
      payload: compliancePayload(topic, shop, person, [], this.#ids.request++),
    });
  }

  // ---- The Admin API's limits, for tests and benchmarks. ----

  calls(domain: string): { requests: number; cost: number; throttled: number } {
    return { ...this.#requireShop(domain).calls };
  }

  resetCalls(domain: string): void {
    const shop = this.#requireShop(domain);
    shop.calls = { requests: 0, cost: 0, throttled: 0 };
  }

  throttle(domain: string): ShopifyThrottle {
    return throttleStatus(this.#requireShop(domain), this.#now());
  }

  /** Resizes the shop's bucket or sets what is left in it (the standard plan is 2000 and 100 a second). */
  setThrottle(domain: string, settings: Partial<ShopifyThrottle>): ShopifyThrottle {
    const shop = this.#requireShop(domain);
    const { bucket } = shop;
    for (const [name, value] of Object.entries(settings)) {
      if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
        throw new ShopifyActionError('INVALID', `${name} must be a number of points, 0 or more.`);
      }
    }
    throttleStatus(shop, this.#now());
    bucket.maximumAvailable = settings.maximumAvailable ?? bucket.maximumAvailable;
    bucket.restoreRate = settings.restoreRate ?? bucket.restoreRate;
    bucket.available = Math.min(bucket.maximumAvailable, settings.currentlyAvailable ?? bucket.available);
    return throttleStatus(shop, this.#now());
  }

  /** The next `count` authenticated Admin API requests answer `status` (429 or 5xx) before doing anything. */
  addFault(domain: string, fault: { status: number; count?: number }): void {
    const shop = this.#requireShop(domain);
    const { status } = fault;
    const count = fault.count ?? 1;
    if (!(status === 429 || (Number.isInteger(status) && status >= 500 && status <= 599))) {
      throw new ShopifyActionError('INVALID', 'status must be 429 or a 5xx status.');
    }
    if (!Number.isInteger(count) || count < 1)
      throw new ShopifyActionError('INVALID', 'count must be at least 1.');
    shop.faults.push({ status, remaining: count });
  }

  clearFaults(domain: string): void {
    this.#requireShop(domain).faults = [];
  }

  // ---- Webhooks sent. ----

  /** Newest first. */
  deliveries(filter: { shop?: string; topic?: string } = {}): ShopifyDelivery[] {
    return this.#deliveries.list(filter);
  }

  /** Resolves with the first delivery, already made or still to come (or to change), that matches. */
  waitForDelivery(
    predicate: (delivery: ShopifyDelivery) => boolean,
    timeoutMs = 10_000,
  ): Promise<ShopifyDelivery> {
    return this.#deliveries.waitFor(predicate, timeoutMs);
  }

  /** Forgets every shop, token and delivery and starts again from the demo shop. */
  reset(): void {
    this.#deliveries.clear();
    this.#shops.clear();
    this.#tokens.clear();
    this.#codes.clear();
    this.#createDemoShop();
  }

  /** Stops webhook retries and requests under way, so a closing server is not kept waiting. */
  dispose(): void {
    this.#deliveries.stop();
  }

  // ---- For the routes: what Shopify does behind its HTTP endpoints. ----

  /** The shop as stored, for the storefront and the control page, which read it. */
  findShop(domain: string): Shop | undefined {
    return this.#shops.get(domain);
  }

  urls(shop: Shop): PayloadUrls {
    return this.#urls(shop);
  }

  /** Why Shopify would refuse to show the grant screen for these parameters, or null. */
  authorizationProblem(params: { client_id?: string; redirect_uri?: string }): string | null {
    if (params.client_id !== this.clientId) {
      return `Oauth error invalid_request: Could not find Shopify API application with api_key ${params.client_id ?? ''}`;
    }
    if (!params.redirect_uri || !this.redirectUris.includes(params.redirect_uri)) {
      return 'Oauth error invalid_request: The redirect_uri is not whitelisted';
    }
    return null;
  }

  /**
   * The merchant approved: a single-use code (10 minutes), and the redirect URI with Shopify's parameters —
   * code, hmac, host, shop, state, timestamp.
   */
  approve(domain: string, params: { redirect_uri: string; scope?: string; state?: string }): string {
    const shop = this.#requireShop(domain);
    const code = randomBytes(16).toString('hex');
    this.#codes.set(code, {
      shop: shop.domain,
      scopes: parseScopes(params.scope),
      expiresAt: this.#now() + CODE_TTL_MS,
    });
    const signed: Record<string, string> = {
      code,
      host: adminHost(shop.domain),
      shop: shop.domain,
      ...(params.state === undefined ? {} : { state: params.state }),
      timestamp: String(Math.floor(this.#now() / 1000)),
    };
    const url = new URL(params.redirect_uri);
    url.searchParams.set('code', code);
    url.searchParams.set('hmac', shopifyQueryHmac(signed, this.#options.clientSecret));
    for (const name of ['host', 'shop', 'state', 'timestamp']) {
      if (signed[name] !== undefined) url.searchParams.set(name, signed[name]);
    }
    return url.toString();
  }

  /** POST /admin/oauth/access_token: installs the app (or replaces its token) and answers the offline token. */
  exchangeCode(domain: string, form: Record<string, unknown>): { status: number; body: object } {
    const shop = this.#shops.get(domain);
    const clientId = typeof form.client_id === 'string' ? form.client_id : '';
    const secret = typeof form.client_secret === 'string' ? form.client_secret : '';
    if (clientId !== this.clientId || !equalSecrets(secret, this.#options.clientSecret)) {
      return {
        status: 400,
        body: { error: 'invalid_client', error_description: 'Client credentials are invalid' },
      };
    }
    const code = typeof form.code === 'string' ? form.code : '';
    const grant = this.#codes.get(code);
    this.#codes.delete(code);
    if (!shop || !grant || grant.shop !== shop.domain || grant.expiresAt < this.#now()) {
      return {
        status: 400,
        body: {
          error: 'invalid_request',
          error_description: 'The authorization code was not found or was already used',
        },
      };
    }
    const token = `shpat_${randomBytes(16).toString('hex')}`;
    const installation = shop.installation;
    if (installation?.token) {
      this.#tokens.delete(installation.token);
      installation.token = token;
      installation.scopes = grant.scopes;
    } else {
      shop.installation = {
        scopes: grant.scopes,
        token,
        subscriptions: [],
        installedAt: this.#iso(),
        uninstalledAt: null,
      };
    }
    this.#tokens.set(token, shop.domain);
    return { status: 200, body: { access_token: token, scope: grant.scopes.join(',') } };
  }

  /**
   * POST /admin/api/{version}/graphql.json as Shopify answers it: 401, an injected fault, 400 without a query
   * (`request` null), or the GraphQL body.
   */
  adminGraphql(
    domain: string,
    token: string | undefined,
    apiVersion: string,
    request: GraphqlRequest | null,
  ): { status: number; headers: Record<string, string>; body: object } {
    const shop = this.#shops.get(domain);
    const installation = shop?.installation;
    if (!shop || !installation || !token || this.#tokens.get(token) !== shop.domain) {
      return {
        status: 401,
        headers: {},
        body: { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' },
      };
    }
    shop.calls.requests += 1;
    const fault = shop.faults[0];
    if (fault) {
      fault.remaining -= 1;
      if (fault.remaining === 0) shop.faults.shift();
      if (fault.status === 429) {
        return {
          status: 429,
          headers: { 'Retry-After': '2.0' },
          body: {
            errors:
              'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.',
          },
        };
      }
      return {
        status: fault.status,
        headers: {},
        body: { errors: STATUS_CODES[fault.status] ?? 'Internal Server Error' },
      };
    }
    if (!request)
      return {
        status: 400,
        headers: {},
        body: { errors: { query: 'Required parameter missing or invalid' } },
      };
    const body = runAdminGraphql(
      { host: this.#graphqlHost, shop, installation, apiVersion, now: this.#now() },
      request,
    );
    return { status: 200, headers: {}, body };
  }

  /** The storefront's unlock cookie value for the shop's current password. */
  storefrontDigest(shop: Shop): string {
    return createHash('sha256').update(`${shop.domain}\n${shop.storefrontPassword}`).digest('hex');
  }

  readonly #graphqlHost: GraphqlHost = {
    shopUrl: (shop) => this.shopUrl(shop.domain),
    imageUrl: (shop, product) => this.#urls(shop).image(product),
    createSubscription: (installation, apiVersion, topic, input) =>
      this.#createSubscription(installation, apiVersion, topic, input),
    deleteSubscription: (installation, id) => {
      const before = installation.subscriptions.length;
      installation.subscriptions = installation.subscriptions.filter((s) => s.id !== id);
      return installation.subscriptions.length < before;
    },
  };

  #createSubscription(
    installation: Installation,
    apiVersion: string,
    topic: string,
    input: Record<string, unknown>,
  ): { webhookSubscription: WebhookSubscription | null; userErrors: UserError[] } {
    const address = (input.callbackUrl ?? input.uri) as string | null | undefined;
    const field = [
      'webhookSubscription',
      input.callbackUrl === undefined && input.uri !== undefined ? 'uri' : 'callbackUrl',
    ];
    const fail = (message: string) => ({ webhookSubscription: null, userErrors: [{ field, message }] });
    if (!address) return fail("Address can't be blank");
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      return fail('Address is invalid');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      return fail('Address protocol http:// is not supported');
    if (!SUBSCRIBABLE_TOPICS.has(topic))
      return { webhookSubscription: null, userErrors: [{ field: ['topic'], message: 'Topic is invalid' }] };
    if (installation.subscriptions.some((s) => s.topic === topic && s.callbackUrl === address)) {
      return fail('Address for this topic has already been taken');
    }
    const at = this.#iso();
    const subscription: WebhookSubscription = {
      kind: 'WebhookSubscription',
      id: this.#ids.subscription++,
      topic,
      callbackUrl: address,
      format: input.format === 'XML' ? 'XML' : 'JSON',
      apiVersion,
      includeFields: (input.includeFields as string[] | null | undefined) ?? [],
      metafieldNamespaces: (input.metafieldNamespaces as string[] | null | undefined) ?? [],
      filter: (input.filter as string | null | undefined) ?? null,
      createdAt: at,
      updatedAt: at,
    };
    installation.subscriptions.push(subscription);
    return { webhookSubscription: subscription, userErrors: [] };
  }

  /** Sends the event to each of the installation's subscriptions to its topic (none when not installed). */
  #emit(shop: Shop, topic: string, payload: Record<string, unknown>, triggeredAt: string): void {
    const installation = shop.installation;
    if (!installation?.token) return;
    const eventId = randomUUID();
    for (const subscription of installation.subscriptions) {
      if (subscription.topic !== topic) continue;
      const fields = subscription.includeFields;
      this.#deliveries.send({
        topic: restTopic(topic),
        shop: shop.domain,
        url: subscription.callbackUrl,
        apiVersion: subscription.apiVersion,
        eventId,
        triggeredAt,
        payload: fields.length
          ? Object.fromEntries(fields.filter((f) => f in payload).map((f) => [f, payload[f]]))
          : payload,
      });
    }
  }

  #productChanged(shop: Shop, product: Product, variant?: Variant): void {
    const at = this.#iso();
    product.updatedAt = at;
    if (variant) variant.updatedAt = at;
    this.#emit(shop, 'PRODUCTS_UPDATE', productWebhookPayload(product, this.#urls(shop)), at);
  }

  #urls(shop: Shop): PayloadUrls {
    const base = this.shopUrl(shop.domain);
    return { shop: base, image: (product) => `${base}/cdn/shop/products/${product.id}.svg` };
  }

  #iso(offsetMs = 0): string {
    return new Date(this.#now() + offsetMs).toISOString();
  }

  #newShop(fields: { name: string; domain: string; currency: string } & Partial<Shop>): Shop {
    const now = this.#now();
    const slug = fields.domain.replace(/\.myshopify\.com$/, '');
    const shop: Shop = {
      kind: 'Shop',
      id: this.#ids.shop++,
      email: `owner@${slug}.example`,
      city: 'Springfield',
      province: 'Illinois',
      provinceCode: 'IL',
      country: 'United States',
      countryCode: 'US',
      ...fields,
      locationId: this.#ids.location++,
      createdAt: new Date(now).toISOString(),
      passwordEnabled: false,
      storefrontPassword: DEFAULT_STOREFRONT_PASSWORD,
      cartBroken: false,
      products: [],
      productsById: new Map(),
      productsByHandle: new Map(),
      variantsById: new Map(),
      variantsByInventoryItem: new Map(),
      installation: null,
      bucket: { ...STANDARD_BUCKET, available: STANDARD_BUCKET.maximumAvailable, at: now },
      calls: { requests: 0, cost: 0, throttled: 0 },
      faults: [],
    };
    this.#shops.set(shop.domain, shop);
    return shop;
  }

  #createDemoShop(): void {
    const shop = this.#newShop({ ...DEMO_SHOP });
    DEMO_PRODUCTS.forEach((input, i) => {
      this.#addProduct(shop, { vendor: DEMO_SHOP.name, ...input }, (i - DEMO_PRODUCTS.length) * 86_400_000);
    });
  }

  #addProduct(shop: Shop, input: ProductInput, ageMs = 0): Product {
    const title = typeof input.title === 'string' ? input.title.trim() : '';
    if (!title || title.length > 255)
      throw new ShopifyActionError('INVALID', 'Enter a product title (up to 255 characters).');
    const status = input.status ?? 'ACTIVE';
    if (!PRODUCT_STATUSES.includes(status)) {
      throw new ShopifyActionError('INVALID', `status must be one of ${PRODUCT_STATUSES.join(', ')}.`);
    }
    const base = slugify(input.handle ?? title);
    let handle = base;
    for (let n = 1; shop.productsByHandle.has(handle); n += 1) handle = `${base}-${n}`;
    const variantInputs = input.variants?.length
      ? input.variants
      : [{ price: input.price ?? '10.00', inventoryQuantity: input.inventoryQuantity ?? 10 }];
    const at = this.#iso(ageMs);
    const product: Product = {
      kind: 'Product',
      id: this.#ids.product++,
      title,
      handle,
      status,
      vendor: input.vendor ?? shop.name,
      productType: input.productType ?? '',
      description: input.description ?? '',
      publishedAt: input.published === false ? null : at,
      imageAlt: input.image === false ? null : title,
      optionName: input.optionName ?? (variantInputs.length > 1 ? 'Title' : null),
      variants: [],
      createdAt: at,
      updatedAt: at,
    };
    product.variants = variantInputs.map((v, i) => {
      const price = normalizePrice(v.price);
      if (price === null) throw new ShopifyActionError('INVALID', `"${v.price}" is not a price like 49.00.`);
      const variant: Variant = {
        kind: 'ProductVariant',
        id: this.#ids.variant++,
        productId: product.id,
        inventoryItemId: this.#ids.inventoryItem++,
        title: v.title ?? (product.optionName === null ? 'Default Title' : `Option ${i + 1}`),
        price,
        sku: v.sku ?? `${handle}-${slugify(v.title ?? 'default')}`.toUpperCase().slice(0, 64),
        inventoryQuantity: v.inventoryQuantity ?? 10,
        inventoryPolicy: v.inventoryPolicy ?? 'DENY',
        tracked: v.tracked ?? true,
        position: i + 1,
        createdAt: at,
        updatedAt: at,
      };
      return variant;
    });
    shop.products.push(product);
    shop.productsById.set(product.id, product);
    shop.productsByHandle.set(product.handle, product);
    for (const variant of product.variants) {
      shop.variantsById.set(variant.id, variant);
      shop.variantsByInventoryItem.set(variant.inventoryItemId, variant);
    }
    return product;
  }

  #requireShop(domain: string): Shop {
    const shop = this.#shops.get(domain);
    if (!shop) throw new ShopifyActionError('NOT_FOUND', `There is no shop ${domain}.`);
    return shop;
  }

  #requireProduct(shop: Shop, productId: number | string): Product {
    const id = idOf(productId, 'Product');
    const product = id === null ? undefined : shop.productsById.get(id);
    if (!product) throw new ShopifyActionError('NOT_FOUND', `${shop.domain} has no product ${productId}.`);
    return product;
  }

  #requireVariant(shop: Shop, variantId: number | string): Variant {
    const id = idOf(variantId, 'ProductVariant');
    const variant = id === null ? undefined : shop.variantsById.get(id);
    if (!variant) throw new ShopifyActionError('NOT_FOUND', `${shop.domain} has no variant ${variantId}.`);
    return variant;
  }

  #variantView(variant: Variant): ShopifyVariantView {
    return {
      id: variant.id,
      gid: gid('ProductVariant', variant.id),
      title: variant.title,
      price: variant.price,
      sku: variant.sku,
      inventoryQuantity: variant.inventoryQuantity,
      inventoryPolicy: variant.inventoryPolicy,
      tracked: variant.tracked,
      inventoryItemId: variant.inventoryItemId,
      available: variantAvailable(variant),
    };
  }

  #productView(shop: Shop, product: Product): ShopifyProductView {
    const published = isOnlineStoreVisible(product);
    return {
      id: product.id,
      gid: gid('Product', product.id),
      title: product.title,
      handle: product.handle,
      status: product.status,
      published,
      onlineStoreUrl: published ? `${this.shopUrl(shop.domain)}/products/${product.handle}` : null,
      variants: product.variants.map((v) => this.#variantView(v)),
    };
  }

  #shopView(shop: Shop): ShopifyShopView {
    const installation = shop.installation;
    return {
      id: shop.id,
      domain: shop.domain,
      name: shop.name,
      currency: shop.currency,
      url: this.shopUrl(shop.domain),
      passwordEnabled: shop.passwordEnabled,
      storefrontPassword: shop.storefrontPassword,
      cartBroken: shop.cartBroken,
      productCount: shop.products.length,
      installation: installation && {
        installed: installation.token !== null,
        scopes: [...installation.scopes],
        installedAt: installation.installedAt,
        uninstalledAt: installation.uninstalledAt,
        subscriptions: installation.subscriptions.map((s) => ({
          id: gid('WebhookSubscription', s.id),
          topic: s.topic,
          callbackUrl: s.callbackUrl,
          apiVersion: s.apiVersion,
        })),
      },
      throttle: throttleStatus(shop, this.#now()),
      calls: { ...shop.calls },
    };
  }
}

/** "read_products, read_inventory" → ['read_products', 'read_inventory'], without repeats. */
export function parseScopes(scope: string | undefined): string[] {
  return [
    ...new Set(
      (scope ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}
