import type { Provider } from '@vigil/contracts';

/** What a provider granted: the account, its token and what to remember about it. */
export interface GrantedAccount {
  /** The provider's id of the account (a myshopify domain, a Google subject, a Facebook user id). */
  account: string;
  /** For people: the shop's name, the Google account's email, the Facebook user's name. */
  name: string;
  /** The token kept (sealed): Shopify's offline token, Google's refresh token, Meta's long-lived token. */
  token: string;
  scopes: string[];
  details: Record<string, unknown>;
  /** When the token ends; null when it does not. */
  expiresAt: Date | null;
}

/** What came back to `/app/oauth`, checked. */
export interface VerifiedReturn {
  /** The account the answer names (Shopify's signed `shop`); null when it comes only with the grant. */
  account: string | null;
  code: string;
  state: string;
}

/**
 * One provider's side of binding an account (services/<service>/<service>.binding.ts), behind the one
 * connection service: the authorize URL, the checks of its answer, the code exchange. Each is registered by
 * its provider in app.ts.
 */
export interface ProviderBinding {
  provider: Provider;
  /** The account in a person's words: "shop", "Google account", "Facebook account". */
  noun: string;
  /** Whether the authorize URL carries a PKCE challenge (S256) whose verifier goes with the code. */
  pkce: boolean;
  /**
   * What the person typed, resolved to the account before leaving (a Shopify shop). Absent when the provider
   * tells the account only once the person signed in there.
   */
  resolve?(typed: string | undefined): Promise<string>;
  authorizeUrl(input: { account: string | null; state: string; codeChallenge: string | null }): string;
  /** Refuses an answer the provider did not give (or gave too long ago), or one that says access was refused. */
  verifyReturn(params: Record<string, string>, nowSeconds: number): VerifiedReturn;
  /** Exchanges the code for the token to keep and reads the account. */
  grant(input: {
    account: string | null;
    code: string;
    codeVerifier: string | null;
  }): Promise<GrantedAccount>;
  /** After a grant is kept (webhook subscriptions); a failure here is logged, never a failed binding. */
  afterGrant?(granted: GrantedAccount): Promise<void>;
  /** An install that starts on the provider's side (Shopify's app URL): the account it is for. */
  verifyInstall?(params: Record<string, string>, nowSeconds: number): string;
}
