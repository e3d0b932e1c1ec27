import { createRemoteJWKSet, customFetch, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { z } from 'zod';
import type { OidcSettings } from '../../config.ts';
import { AppError } from '../../lib/app-error.ts';

const discoveryDocument = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  userinfo_endpoint: z.url().optional(),
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
});
type Discovery = z.infer<typeof discoveryDocument>;

const tokenResponse = z.object({ id_token: z.string().min(1), access_token: z.string().optional() });
const providerError = z.object({ error: z.string(), error_description: z.string().optional() });

export interface IdentityClaims {
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
}

export interface OidcClient {
  readonly issuer: string;
  authorizationUrl(params: {
    redirectUri: string;
    state: string;
    nonce: string;
    codeChallenge: string;
  }): Promise<string>;
  /** Trades the code for tokens and returns the verified identity of the id_token. */
  signIn(params: {
    code: string;
    codeVerifier: string;
    redirectUri: string;
    nonce: string;
  }): Promise<IdentityClaims>;
}

const TIMEOUT_MS = 10_000;

export const PROVIDER_UNAVAILABLE =
  'Sign-in with Google is not available right now. Try again in a few minutes, or sign in with your email and password.';

function unavailable(cause: unknown): AppError {
  return new AppError('UNAVAILABLE', PROVIDER_UNAVAILABLE, { cause, retryAfterSeconds: 60 });
}

/**
 * An OpenID Connect relying party (authorization code + PKCE, client_secret_basic). Discovery happens on first
 * use, not at start, so the server can be its own provider (the sandbox) and a provider outage never blocks
 * a start; a failed discovery is retried on the next sign-in.
 */
export function createOidcClient(settings: OidcSettings, fetchImpl: typeof fetch = fetch): OidcClient {
  let discovery: Promise<{ document: Discovery; jwks: ReturnType<typeof createRemoteJWKSet> }> | undefined;

  async function discover() {
    const url = `${settings.issuer}/.well-known/openid-configuration`;
    let document: Discovery;
    try {
      const response = await fetchImpl(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      document = discoveryDocument.parse(await response.json());
    } catch (error) {
      throw unavailable(error);
    }
    if (document.issuer !== settings.issuer) {
      throw unavailable(new Error(`Discovery names issuer ${document.issuer}, not ${settings.issuer}`));
    }
    const jwks = createRemoteJWKSet(new URL(document.jwks_uri), {
      timeoutDuration: TIMEOUT_MS,
      [customFetch]: fetchImpl,
    });
    return { document, jwks };
  }

  function provider() {
    discovery ??= discover().catch((error: unknown) => {
      discovery = undefined;
      throw error;
    });
    return discovery;
  }

  async function exchange(
    document: Discovery,
    params: { code: string; codeVerifier: string; redirectUri: string },
  ) {
    const basic = Buffer.from(
      `${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`,
    ).toString('base64');
    let response: Response;
    try {
      response = await fetchImpl(document.token_endpoint, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${basic}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: params.code,
          redirect_uri: params.redirectUri,
          code_verifier: params.codeVerifier,
        }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw unavailable(error);
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (response.ok) {
      const tokens = tokenResponse.safeParse(body);
      if (tokens.success) return tokens.data;
      throw unavailable(new Error('The token endpoint answered without an id_token'));
    }
    const problem = providerError.safeParse(body);
    if (response.status === 400 && problem.success && problem.data.error === 'invalid_grant') {
      throw new AppError(
        'INVALID',
        'This Google sign-in has expired or was already used. Start the sign-in again.',
      );
    }
    throw unavailable(new Error(`The token endpoint answered ${response.status}: ${JSON.stringify(body)}`));
  }

  return {
    issuer: settings.issuer,

    async authorizationUrl(params) {
      const { document } = await provider();
      const url = new URL(document.authorization_endpoint);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: settings.clientId,
        redirect_uri: params.redirectUri,
        scope: 'openid email profile',
        state: params.state,
        nonce: params.nonce,
        code_challenge: params.codeChallenge,
        code_challenge_method: 'S256',
      }).toString();
      return url.toString();
    },

    async signIn(params) {
      const { document, jwks } = await provider();
      const tokens = await exchange(document, params);
      let claims: JWTPayload;
      try {
        ({ payload: claims } = await jwtVerify(tokens.id_token, jwks, {
          issuer: settings.issuer,
          audience: settings.clientId,
          algorithms: document.id_token_signing_alg_values_supported?.filter((alg) => alg !== 'none') ?? [
            'RS256',
          ],
          requiredClaims: ['sub', 'exp', 'iat'],
        }));
      } catch (error) {
        if (error instanceof joseErrors.JWKSTimeout) throw unavailable(error);
        throw new AppError('INVALID', 'Google’s answer could not be verified. Start the sign-in again.', {
          cause: error,
        });
      }
      if (claims.nonce !== params.nonce) {
        throw new AppError(
          'INVALID',
          'Google’s answer does not belong to this sign-in. Start the sign-in again.',
        );
      }
      return {
        subject: claims.sub!,
        email: typeof claims.email === 'string' ? claims.email : undefined,
        emailVerified: claims.email_verified === true,
      };
    },
  };
}
