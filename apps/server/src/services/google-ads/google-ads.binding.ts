import { AppError } from '../../lib/app-error.ts';
import type {
  GrantedAccount,
  ProviderBinding,
  VerifiedReturn,
} from '../../modules/connections/provider-binding.ts';
import { GoogleAdsError, idTokenClaims, type GoogleAdsClient } from './google-ads.client.ts';

/** Turns a GoogleAdsError met while binding into what the person is told. */
function bindingError(error: unknown): never {
  if (error instanceof GoogleAdsError) {
    if (error.kind === 'unavailable' || error.kind === 'quota') {
      throw new AppError('UNAVAILABLE', `${error.message} Try connecting again in a minute.`, {
        retryAfterSeconds: 60,
      });
    }
    throw new AppError('INVALID', `${error.message} Connect the Google account again.`, { cause: error });
  }
  throw error;
}

/**
 * The Google side of binding a Google account: the authorize URL (offline access, consent asked every time so
 * a refresh token comes back, PKCE S256), the checks of Google's answer and the code exchange. The account is
 * known only from the grant: the id_token's `sub`, with its `email` as the name.
 */
export function createGoogleAdsBinding(deps: {
  client: GoogleAdsClient;
  publicUrl: string;
}): ProviderBinding {
  const { client } = deps;
  const redirectUri = `${deps.publicUrl}/app/oauth`;

  return {
    provider: 'google',
    noun: 'Google account',
    pkce: true,

    authorizeUrl: ({ state, codeChallenge }) => {
      if (!codeChallenge) throw new Error('Google binding needs a PKCE challenge');
      return client.authorizeUrl({ state, codeChallenge, redirectUri });
    },

    verifyReturn(params): VerifiedReturn {
      if (params.error) {
        throw new AppError('INVALID', 'Connecting Google Ads was cancelled, or access was not granted.');
      }
      if (!params.code || !params.state) {
        throw new AppError(
          'INVALID',
          'Google’s answer is missing its code or state. Connect the Google account again.',
        );
      }
      return { account: null, code: params.code, state: params.state };
    },

    async grant({ code, codeVerifier }): Promise<GrantedAccount> {
      if (!codeVerifier)
        throw new AppError('INVALID', 'This connection link has expired. Connect the Google account again.');
      try {
        const granted = await client.exchangeCode(code, codeVerifier, redirectUri);
        if (!granted.refreshToken) {
          throw new AppError(
            'INVALID',
            'Google did not give Vigil lasting access to this account. Try again, and allow access on Google’s page.',
          );
        }
        if (!granted.scopes.includes('https://www.googleapis.com/auth/adwords')) {
          throw new AppError(
            'INVALID',
            'Google Ads access was not granted. Try again, and tick “See, edit, create and delete your Google Ads accounts” on Google’s page.',
          );
        }
        if (!granted.idToken) {
          throw new AppError(
            'INVALID',
            'Google did not say which account signed in. Connect the Google account again.',
          );
        }
        const { sub, email } = idTokenClaims(granted.idToken, client.settings.clientId);
        return {
          account: sub,
          name: email ?? sub,
          token: granted.refreshToken,
          scopes: granted.scopes,
          details: { email },
          expiresAt: null,
        };
      } catch (error) {
        if (error instanceof AppError) throw error;
        return bindingError(error);
      }
    },
  };
}
