import { AppError } from '../../lib/app-error.ts';
import type {
  GrantedAccount,
  ProviderBinding,
  VerifiedReturn,
} from '../../modules/connections/provider-binding.ts';
import { ShopifyError } from './shopify.client.ts';
import type { ShopApi } from './shopify-api.ts';

/** Shopify's redirect and app-URL timestamps older than this are refused (replays). */
const MAX_AGE_SECONDS = 5 * 60;
/** A clock a little ahead of ours is not an attack. */
const MAX_SKEW_SECONDS = 60;

/** Turns a ShopifyError met while binding into what the person is told. */
export function bindingError(error: unknown): never {
  if (error instanceof ShopifyError) {
    if (error.kind === 'unavailable' || error.kind === 'throttled') {
      throw new AppError('UNAVAILABLE', `${error.message} Try connecting again in a minute.`, {
        retryAfterSeconds: 60,
      });
    }
    throw new AppError('INVALID', error.message, { cause: error });
  }
  throw error;
}

/**
 * The Shopify side of binding a shop: the authorize URL, the checks of what Shopify sends back (its `hmac` over
 * the query, a fresh `timestamp`, a real myshopify `shop`), the code exchange and the webhook subscriptions.
 */
export function createShopifyBinding(deps: { api: ShopApi; publicUrl: string }): ProviderBinding {
  const { api, publicUrl } = deps;
  const client = api.client;
  const redirectUri = `${publicUrl}/app/oauth`;

  /** Refuses a query Shopify did not sign, or signed too long ago. */
  function verifySigned(params: Record<string, string>, nowSeconds: number): string {
    if (!params.hmac || !client.verifyQuery(params)) {
      throw new AppError(
        'INVALID',
        'This answer was not signed by Shopify. Connect the shop again from Vigil.',
      );
    }
    const timestamp = Number(params.timestamp);
    if (
      !Number.isInteger(timestamp) ||
      nowSeconds - timestamp > MAX_AGE_SECONDS ||
      timestamp - nowSeconds > MAX_SKEW_SECONDS
    ) {
      throw new AppError('INVALID', 'This answer from Shopify has expired. Connect the shop again.');
    }
    const shop = params.shop ?? '';
    if (!/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(shop)) {
      throw new AppError('INVALID', 'Shopify’s answer names no valid shop. Connect the shop again.');
    }
    return shop;
  }

  return {
    provider: 'shopify',
    noun: 'shop',
    pkce: false,

    async resolve(input) {
      if (!input) throw new AppError('INVALID', 'Enter your shop’s address, like hoodies.myshopify.com.');
      const { shop } = await api.client.resolveShop(input).catch(bindingError);
      return shop;
    },

    authorizeUrl: ({ account, state }) => client.authorizeUrl(account!, state, redirectUri),

    /** The app URL Shopify opens when a merchant installs Vigil from the Shopify side. */
    verifyInstall(params, nowSeconds) {
      return verifySigned(params, nowSeconds);
    },

    verifyReturn(params, nowSeconds): VerifiedReturn {
      if (params.error) {
        throw new AppError('INVALID', 'The shop was not connected: access was not granted on Shopify.');
      }
      const account = verifySigned(params, nowSeconds);
      if (!params.code || !params.state) {
        throw new AppError(
          'INVALID',
          'Shopify’s answer is missing its code or state. Connect the shop again.',
        );
      }
      return { account, code: params.code, state: params.state };
    },

    /** Exchanges the code for an offline token and reads the shop. */
    async grant({ account, code }): Promise<GrantedAccount> {
      try {
        const { accessToken, scopes } = await client.exchangeCode(account!, code);
        const shop = await api.shopInfo(account!, accessToken);
        return {
          account: account!,
          token: accessToken,
          scopes,
          name: shop.name,
          details: { currency: shop.currencyCode, primaryUrl: shop.primaryDomain?.url ?? null },
          expiresAt: null,
        };
      } catch (error) {
        return bindingError(error);
      }
    },

    /** Subscribes the webhooks; what Shopify refuses is logged (checks still run on their interval then). */
    async afterGrant(granted) {
      const refused = await api.subscribeWebhooks(granted.account, granted.token, publicUrl);
      if (refused.length) {
        throw new Error(`Shopify refused the webhooks ${refused.join(', ')}; checks run on their interval`);
      }
    },
  };
}
