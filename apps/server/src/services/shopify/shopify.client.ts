import { createHmac } from 'node:crypto';
import type { ShopifySettings } from '../../config.ts';
import { safeEqual } from '../../lib/secrets.ts';

const REQUEST_TIMEOUT_MS = 10_000;
/** Shopify refuses a single query that asks for more than this. */
export const MAX_QUERY_COST = 1000;

/** Shopify answered with an error, or could not be reached. */
export class ShopifyError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when the shop was not reached. */
    readonly status: number,
    readonly kind: 'auth' | 'throttled' | 'unavailable' | 'refused' | 'not_a_shop',
    /** For `throttled`: how long to wait before the query can pass. */
    readonly retryAfterMs = 0,
  ) {
    super(message);
    this.name = 'ShopifyError';
  }
}

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface QueryCost {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: ThrottleStatus;
}

export interface GraphqlResult<T> {
  data: T;
  cost: QueryCost | null;
}

export interface ShopInfo {
  /** The myshopify domain. */
  shop: string;
  name: string;
  currency: string;
}

/** `hoodies`, `hoodies.myshopify.com` or `https://hoodies.myshopify.com/…`: the myshopify domain, else null. */
export function myshopifyDomainOf(input: string): string | null {
  const text = input.trim().toLowerCase();
  const host = text.replace(/^https?:\/\//, '').split(/[/?#]/)[0] ?? '';
  if (/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(host)) return host;
  if (/^[a-z0-9][a-z0-9-]*$/.test(text)) return `${text}.myshopify.com`;
  return null;
}

/**
 * Shopify's proof of a redirect or app-URL query: hex HMAC-SHA256 of the other parameters sorted by name and
 * encoded as a query string (as Shopify's own libraries build it: `URLSearchParams`).
 */
export function queryHmac(params: Record<string, string>, secret: string): string {
  const message = new URLSearchParams(
    Object.keys(params)
      .filter((key) => key !== 'hmac' && key !== 'signature')
      .sort()
      .map((key): [string, string] => [key, params[key]!]),
  ).toString();
  return createHmac('sha256', secret).update(message).digest('hex');
}

/** Shopify's proof of a webhook: base64 HMAC-SHA256 of the raw body. */
export function webhookHmac(rawBody: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

export interface ShopifyClient {
  readonly settings: ShopifySettings;
  /** The shop's base: its Admin API, OAuth pages and storefront are under it. */
  shopBase(shop: string): string;
  /** Resolves what a person typed to the shop's myshopify domain, reading the storefront's `/meta.json`. */
  resolveShop(input: string, signal?: AbortSignal): Promise<ShopInfo>;
  authorizeUrl(shop: string, state: string, redirectUri: string): string;
  verifyQuery(params: Record<string, string>): boolean;
  verifyWebhook(rawBody: Buffer, hmacHeader: string | undefined): boolean;
  exchangeCode(shop: string, code: string): Promise<{ accessToken: string; scopes: string[] }>;
  graphql<T>(
    shop: string,
    token: string,
    query: string,
    variables?: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<GraphqlResult<T>>;
}

interface GraphqlBody<T> {
  data?: T;
  errors?: { message: string; extensions?: { code?: string } }[] | string;
  extensions?: { cost?: QueryCost };
}

/**
 * Vigil's Shopify adapter: OAuth (authorization code grant, offline token), the Admin GraphQL API and the
 * proofs Shopify signs its redirects and webhooks with. The same code talks to a real shop and to the
 * sandbox; only `shopUrl` differs. Errors keep their kind: `auth` (token refused: the connection is lost),
 * `throttled` (with the wait the cost extension implies), `unavailable` (network, 5xx), `refused` (other).
 */
export function createShopifyClient(
  settings: ShopifySettings,
  fetchImpl: typeof fetch = fetch,
): ShopifyClient {
  const shopBase = (shop: string) => settings.shopUrl.replace('{shop}', shop).replace(/\/+$/, '');

  async function send(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    try {
      return await fetchImpl(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (error) {
      throw new ShopifyError(`Shopify could not be reached: ${(error as Error).message}`, 0, 'unavailable');
    }
  }

  return {
    settings,
    shopBase,

    async resolveShop(input, signal) {
      const domain = myshopifyDomainOf(input);
      let base: string;
      if (domain) {
        base = shopBase(domain);
      } else {
        const text = input.trim();
        const withScheme = /^https?:\/\//i.test(text) ? text : `https://${text}`;
        let url: URL;
        try {
          url = new URL(withScheme);
        } catch {
          throw new ShopifyError(`"${input}" is not a shop address.`, 400, 'not_a_shop');
        }
        base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
      }
      // Followed by hand: a shop behind its password page sends every page, meta.json too, to /password.
      let response = await send(
        `${base}/meta.json`,
        { headers: { accept: 'application/json' }, redirect: 'manual' },
        signal,
      ).catch((error: unknown) => {
        // An address the person typed that does not answer is a typo far more often than Shopify being down.
        if (domain || !(error instanceof ShopifyError)) throw error;
        throw new ShopifyError(
          `Vigil could not reach ${input.trim().slice(0, 200)}. Check the shop's address, or enter its myshopify.com address.`,
          400,
          'not_a_shop',
        );
      });
      for (let hops = 0; hops < 5 && response.status >= 300 && response.status < 400; hops++) {
        const location = new URL(response.headers.get('location') ?? '/', `${base}/meta.json`);
        if (/\/password\/?$/.test(location.pathname)) {
          if (domain) return { shop: domain, name: domain, currency: 'USD' };
          throw new ShopifyError(
            `The shop at ${input.trim()} shows its password page, so Vigil cannot tell which shop it is. Enter its myshopify.com address instead.`,
            response.status,
            'not_a_shop',
          );
        }
        response = await send(
          location.toString(),
          { headers: { accept: 'application/json' }, redirect: 'manual' },
          signal,
        );
      }
      const meta = (await response.json().catch(() => null)) as {
        myshopify_domain?: unknown;
        name?: unknown;
        currency?: unknown;
      } | null;
      const shop =
        typeof meta?.myshopify_domain === 'string' ? myshopifyDomainOf(meta.myshopify_domain) : null;
      if (!response.ok || !shop) {
        throw new ShopifyError(
          `${domain ?? input.trim()} is not a Shopify shop Vigil can reach. Check the address (like hoodies.myshopify.com).`,
          response.status,
          'not_a_shop',
        );
      }
      return {
        shop,
        name: typeof meta?.name === 'string' && meta.name ? meta.name : shop,
        currency: typeof meta?.currency === 'string' ? meta.currency : 'USD',
      };
    },

    authorizeUrl(shop, state, redirectUri) {
      const query = new URLSearchParams({
        client_id: settings.clientId,
        scope: settings.scopes.join(','),
        redirect_uri: redirectUri,
        state,
      });
      return `${shopBase(shop)}/admin/oauth/authorize?${query}`;
    },

    verifyQuery(params) {
      const given = params.hmac;
      return (
        typeof given === 'string' && safeEqual(queryHmac(params, settings.clientSecret), given.toLowerCase())
      );
    },

    verifyWebhook(rawBody, hmacHeader) {
      return (
        typeof hmacHeader === 'string' && safeEqual(webhookHmac(rawBody, settings.clientSecret), hmacHeader)
      );
    },

    async exchangeCode(shop, code) {
      const response = await send(`${shopBase(shop)}/admin/oauth/access_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ client_id: settings.clientId, client_secret: settings.clientSecret, code }),
      });
      const body = (await response.json().catch(() => ({}))) as {
        access_token?: string;
        scope?: string;
        error_description?: string;
        error?: string;
      };
      if (response.status >= 500) {
        throw new ShopifyError(
          `Shopify is not answering (HTTP ${response.status}). Try again.`,
          response.status,
          'unavailable',
        );
      }
      if (!response.ok || !body.access_token) {
        const reason = body.error_description ?? body.error ?? `HTTP ${response.status}`;
        throw new ShopifyError(`Shopify refused the connection: ${reason}`, response.status, 'refused');
      }
      return {
        accessToken: body.access_token,
        scopes: (body.scope ?? '')
          .split(',')
          .map((scope) => scope.trim())
          .filter(Boolean),
      };
    },

    async graphql<T>(
      shop: string,
      token: string,
      query: string,
      variables: Record<string, unknown> = {},
      signal?: AbortSignal,
    ): Promise<GraphqlResult<T>> {
      const response = await send(
        `${shopBase(shop)}/admin/api/${settings.apiVersion}/graphql.json`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'x-shopify-access-token': token,
          },
          body: JSON.stringify({ query, variables }),
        },
        signal,
      );
      if (response.status === 401 || response.status === 403) {
        throw new ShopifyError(
          `${shop} refused Vigil's access token: the app was uninstalled or its access revoked.`,
          response.status,
          'auth',
        );
      }
      if (response.status === 429) {
        const seconds = Number(response.headers.get('retry-after'));
        throw new ShopifyError(
          `${shop} asked Vigil to slow down (HTTP 429).`,
          429,
          'throttled',
          Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 2000,
        );
      }
      if (response.status >= 500 || response.status === 0) {
        throw new ShopifyError(
          `Shopify did not answer for ${shop} (HTTP ${response.status}).`,
          response.status,
          'unavailable',
        );
      }
      const body = (await response.json().catch(() => ({}))) as GraphqlBody<T>;
      const cost = body.extensions?.cost ?? null;
      if (!response.ok) {
        const message = typeof body.errors === 'string' ? body.errors : `HTTP ${response.status}`;
        throw new ShopifyError(
          `Shopify refused the request for ${shop}: ${message}`,
          response.status,
          'refused',
        );
      }
      if (Array.isArray(body.errors) && body.errors.length > 0) {
        if (body.errors.some((error) => error.extensions?.code === 'THROTTLED')) {
          throw new ShopifyError(
            `${shop} asked Vigil to slow down (THROTTLED).`,
            200,
            'throttled',
            waitFor(cost),
          );
        }
        const message = body.errors.map((error) => error.message).join('; ');
        throw new ShopifyError(`Shopify refused the query for ${shop}: ${message}`, 200, 'refused');
      }
      if (!body.data)
        throw new ShopifyError(`Shopify answered ${shop}'s query with no data.`, 200, 'refused');
      return { data: body.data, cost };
    },
  };
}

/** How long until the bucket holds the points the refused query asked for. */
export function waitFor(cost: QueryCost | null): number {
  if (!cost) return 2000;
  const { currentlyAvailable, restoreRate } = cost.throttleStatus;
  const missing = Math.max(0, cost.requestedQueryCost - currentlyAvailable);
  return Math.ceil((missing / Math.max(restoreRate, 1)) * 1000) + 50;
}
