import { api } from '../../../lib/api-client.ts';

/** Asks the server for the OpenID provider's authorize URL, carrying the spec's `redirect` through sign-in. */
export function getOidcAuthorizeUrl(redirect?: string) {
  return api.get<{ url: string }>('/oauth-bff/v1/oidc/authorize', { params: redirect ? { redirect } : {} });
}
