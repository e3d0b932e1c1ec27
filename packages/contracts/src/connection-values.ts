/**
 * The connections contract's plain values, apart from its zod schemas (connections.ts): the web app's first
 * pages import these without loading zod.
 */

/**
 * Outside accounts a person connects once (a Shopify shop, a Google account with its Google Ads customers, a
 * Facebook account with its ad accounts) and any number of monitors use. Binding runs the provider's OAuth:
 * `ouathuri` answers the authorize URL, the provider returns to `/app/oauth`, which posts what it sent to
 * `bind`.
 */
export const PROVIDERS = ['shopify', 'google', 'meta'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The services that connect an account, and the provider each connects through. */
export const CONNECTED_SERVICES = ['shopify', 'google_ads', 'facebook_ads'] as const;
export type ConnectedService = (typeof CONNECTED_SERVICES)[number];

export const PROVIDER_OF_SERVICE: Readonly<Record<ConnectedService, Provider>> = {
  shopify: 'shopify',
  google_ads: 'google',
  facebook_ads: 'meta',
};

/**
 * A binding's `state` starts with this, so `/app/oauth` tells a binding's return (code and state, as a
 * sign-in's return has too) from a sign-in's.
 */
export const BIND_STATE_PREFIX = 'bind-';

export const CONNECTION_STATUSES = [
  /** The token works. */
  'active',
  /** The provider refused the token (app uninstalled, access revoked): monitors on it alert and wait. */
  'lost',
  /** The person disconnected it in Vigil; the token is gone. */
  'disconnected',
] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
