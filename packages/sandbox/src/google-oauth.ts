import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { AdsUser } from './google-catalogue.ts';
import { escapeHtml, page } from './html.ts';

/**
 * Google's OAuth 2.0 web server flow as the Vigil app meets it: the consent screen at `/o/oauth2/v2/auth`
 * (PKCE S256 required here), `POST /token` for the authorization code and refresh token grants with Google's
 * error bodies, `POST /revoke`, and the keys that sign the id_token at `/oauth2/v3/certs`.
 */
export const ADWORDS_SCOPE = 'https://www.googleapis.com/auth/adwords';
export const GOOGLE_ISSUER = 'https://accounts.google.com';
const CODE_TTL_MS = 10 * 60_000;
/** Google answers 3599 seconds for a token that lasts an hour. */
export const ACCESS_TOKEN_TTL_S = 3599;
/** Google grants the userinfo scopes under their full names. */
const SCOPE_ALIASES: Record<string, string> = {
  email: 'https://www.googleapis.com/auth/userinfo.email',
  profile: 'https://www.googleapis.com/auth/userinfo.profile',
};
const SCOPE_WORDS: Record<string, string> = {
  openid: 'Associate you with your personal info on Google',
  'https://www.googleapis.com/auth/userinfo.email': 'See your primary Google Account email address',
  'https://www.googleapis.com/auth/userinfo.profile':
    'See your personal info, including any personal info you’ve made publicly available',
  [ADWORDS_SCOPE]: 'See, edit, create and delete your Google Ads accounts and data',
};

export interface GoogleClient {
  clientId: string;
  clientSecret: string;
  redirectUris: () => string[];
}

interface CodeGrant {
  clientId: string;
  redirectUri: string;
  email: string;
  scopes: string[];
  codeChallenge: string;
  offline: boolean;
  expiresAt: number;
}

interface RefreshGrant {
  clientId: string;
  email: string;
  scopes: string[];
  revoked: boolean;
}

export interface AccessGrant {
  token: string;
  clientId: string;
  email: string;
  scopes: string[];
  issuedAt: number;
  expiresAt: number;
  refreshToken: string | null;
  revoked: boolean;
}

type Params = Record<string, string | string[] | undefined>;

function one(params: Params | undefined, name: string): string | undefined {
  const value = params?.[name];
  return Array.isArray(value) ? value[0] : value;
}

function equalSecrets(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function grantedScopes(scope: string | undefined): string[] {
  return [
    ...new Set(
      (scope ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((s) => SCOPE_ALIASES[s] ?? s),
    ),
  ];
}

type Answer = { status: number; body: object };
const oauthError = (status: number, error: string, description: string): Answer => ({
  status,
  body: { error, error_description: description },
});

/** The authorization server's state: codes, refresh and access tokens, consents and the signing key. */
export class GoogleOAuth {
  readonly #client: GoogleClient;
  readonly #now: () => number;
  readonly #user: (email: string) => AdsUser | undefined;
  readonly #codes = new Map<string, CodeGrant>();
  readonly #refreshTokens = new Map<string, RefreshGrant>();
  readonly #accessTokens = new Map<string, AccessGrant>();
  /** `${clientId} ${email}`: a second consent without prompt=consent gets no new refresh token, as on Google. */
  readonly #consented = new Set<string>();
  #keys: Promise<{ privateKey: CryptoKey; jwk: JWK }> | undefined;

  constructor(client: GoogleClient, now: () => number, user: (email: string) => AdsUser | undefined) {
    this.#client = client;
    this.#now = now;
    this.#user = user;
  }

  /** Why Google would show an error page instead of the consent screen, or null. */
  authorizationProblem(params: Params): { status: number; error: string; message: string } | null {
    if (one(params, 'client_id') !== this.#client.clientId)
      return { status: 401, error: 'invalid_client', message: 'The OAuth client was not found.' };
    const redirectUri = one(params, 'redirect_uri');
    if (!redirectUri || !this.#client.redirectUris().includes(redirectUri)) {
      return {
        status: 400,
        error: 'redirect_uri_mismatch',
        message: `You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy. redirect_uri=${redirectUri ?? ''}`,
      };
    }
    const invalid = (message: string) => ({ status: 400, error: 'invalid_request', message });
    if (one(params, 'response_type') !== 'code')
      return invalid(`Invalid response_type: ${one(params, 'response_type') ?? ''}`);
    if (!one(params, 'scope')) return invalid('Missing required parameter: scope');
    if (!one(params, 'code_challenge')) return invalid('Missing required parameter: code_challenge');
    if (one(params, 'code_challenge_method') !== 'S256')
      return invalid('Invalid code_challenge_method: this app must use S256.');
    return null;
  }

  /** The user allowed: a single-use code for 10 minutes, and the redirect back with state, code and scope. */
  approve(params: Params, email: string, grantAds: boolean): string {
    const scopes = grantedScopes(one(params, 'scope')).filter((s) => grantAds || s !== ADWORDS_SCOPE);
    const code = `4/0A${randomBytes(30).toString('base64url')}`;
    const clientId = one(params, 'client_id')!;
    const prompt = (one(params, 'prompt') ?? '').split(/\s+/);
    const consentKey = `${clientId} ${email}`;
    this.#codes.set(code, {
      clientId,
      redirectUri: one(params, 'redirect_uri')!,
      email,
      scopes,
      codeChallenge: one(params, 'code_challenge')!,
      offline:
        one(params, 'access_type') === 'offline' &&
        (prompt.includes('consent') || !this.#consented.has(consentKey)),
      expiresAt: this.#now() + CODE_TTL_MS,
    });
    this.#consented.add(consentKey);
    const url = new URL(one(params, 'redirect_uri')!);
    const state = one(params, 'state');
    if (state !== undefined) url.searchParams.set('state', state);
    url.searchParams.set('code', code);
    url.searchParams.set('scope', scopes.join(' '));
    url.searchParams.set('authuser', '0');
    url.searchParams.set('prompt', 'consent');
    return url.toString();
  }

  denied(params: Params): string {
    const url = new URL(one(params, 'redirect_uri')!);
    url.searchParams.set('error', 'access_denied');
    const state = one(params, 'state');
    if (state !== undefined) url.searchParams.set('state', state);
    return url.toString();
  }

  /** POST /token. */
  async token(form: Params, authorization: string | undefined): Promise<Answer> {
    let clientId = one(form, 'client_id');
    let secret = one(form, 'client_secret');
    const basic = /^Basic\s+(.+)$/i.exec(authorization ?? '')?.[1];
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const cut = decoded.indexOf(':');
      clientId = decodeURIComponent(decoded.slice(0, cut));
      secret = decodeURIComponent(decoded.slice(cut + 1));
    }
    if (!clientId) return oauthError(400, 'invalid_request', 'Could not determine client ID from request.');
    if (clientId !== this.#client.clientId)
      return oauthError(401, 'invalid_client', 'The OAuth client was not found.');
    if (!secret || !equalSecrets(secret, this.#client.clientSecret))
      return oauthError(401, 'invalid_client', 'Unauthorized');
    const grantType = one(form, 'grant_type');
    if (grantType === 'authorization_code') return this.#exchangeCode(form);
    if (grantType === 'refresh_token') return this.#refresh(form);
    return oauthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType ?? ''}`);
  }

  async #exchangeCode(form: Params): Promise<Answer> {
    const code = one(form, 'code') ?? '';
    if (!code) return oauthError(400, 'invalid_request', 'Missing required parameter: code');
    if (!code.startsWith('4/')) return oauthError(400, 'invalid_grant', 'Malformed auth code.');
    const grant = this.#codes.get(code);
    // Single use: a code is spent by the first exchange that names it, whatever comes of it.
    this.#codes.delete(code);
    if (!grant || grant.expiresAt < this.#now() || grant.clientId !== this.#client.clientId)
      return oauthError(400, 'invalid_grant', 'Bad Request');
    if (one(form, 'redirect_uri') !== grant.redirectUri)
      return oauthError(400, 'redirect_uri_mismatch', 'Bad Request');
    const verifier = one(form, 'code_verifier');
    if (!verifier) return oauthError(400, 'invalid_grant', 'Missing code verifier.');
    if (createHash('sha256').update(verifier).digest('base64url') !== grant.codeChallenge)
      return oauthError(400, 'invalid_grant', 'Invalid code verifier.');
    let refreshToken: string | null = null;
    if (grant.offline) {
      refreshToken = `1//0${randomBytes(40).toString('base64url')}`;
      this.#refreshTokens.set(refreshToken, {
        clientId: grant.clientId,
        email: grant.email,
        scopes: grant.scopes,
        revoked: false,
      });
    }
    const access = this.#issueAccess(grant.clientId, grant.email, grant.scopes, refreshToken);
    const body: Record<string, unknown> = {
      access_token: access.token,
      expires_in: ACCESS_TOKEN_TTL_S,
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      scope: grant.scopes.join(' '),
      token_type: 'Bearer',
    };
    if (grant.scopes.includes('openid'))
      body.id_token = await this.#idToken(grant.clientId, grant.email, grant.scopes);
    return { status: 200, body };
  }

  #refresh(form: Params): Answer {
    const refreshToken = one(form, 'refresh_token') ?? '';
    if (!refreshToken) return oauthError(400, 'invalid_request', 'Missing required parameter: refresh_token');
    const grant = this.#refreshTokens.get(refreshToken);
    if (!grant || grant.revoked || grant.clientId !== this.#client.clientId)
      return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
    const access = this.#issueAccess(grant.clientId, grant.email, grant.scopes, refreshToken);
    return {
      status: 200,
      body: {
        access_token: access.token,
        expires_in: ACCESS_TOKEN_TTL_S,
        scope: grant.scopes.join(' '),
        token_type: 'Bearer',
      },
    };
  }

  #issueAccess(clientId: string, email: string, scopes: string[], refreshToken: string | null): AccessGrant {
    const now = this.#now();
    const grant: AccessGrant = {
      token: `ya29.a0${randomBytes(48).toString('base64url')}`,
      clientId,
      email,
      scopes,
      issuedAt: now,
      expiresAt: now + ACCESS_TOKEN_TTL_S * 1000,
      refreshToken,
      revoked: false,
    };
    this.#accessTokens.set(grant.token, grant);
    return grant;
  }

  async #idToken(clientId: string, email: string, scopes: string[]): Promise<string> {
    const user = this.#user(email);
    const { privateKey, jwk } = await this.#signingKey();
    const iat = Math.floor(this.#now() / 1000);
    return new SignJWT({
      azp: clientId,
      email,
      email_verified: true,
      ...(scopes.includes(SCOPE_ALIASES.profile!) && user ? { name: user.name } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid!, typ: 'JWT' })
      .setIssuer(GOOGLE_ISSUER)
      .setAudience(clientId)
      .setSubject(user?.sub ?? email)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_S + 1)
      .sign(privateKey);
  }

  #signingKey(): Promise<{ privateKey: CryptoKey; jwk: JWK }> {
    this.#keys ??= generateKeyPair('RS256', { extractable: true }).then(async ({ privateKey, publicKey }) => {
      const jwk = await exportJWK(publicKey);
      return {
        privateKey,
        jwk: { ...jwk, kid: `sandbox-${randomBytes(4).toString('hex')}`, alg: 'RS256', use: 'sig' },
      };
    });
    return this.#keys;
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: [(await this.#signingKey()).jwk] };
  }

  /** POST /revoke: an access token takes its refresh token with it, and a refresh token its access tokens. */
  revoke(token: string): Answer {
    const access = this.#accessTokens.get(token);
    const refreshToken = access ? access.refreshToken : this.#refreshTokens.has(token) ? token : null;
    if ((!access || access.revoked) && !refreshToken)
      return oauthError(400, 'invalid_token', 'Token expired or revoked');
    if (access) access.revoked = true;
    if (refreshToken) this.#revokeRefresh(refreshToken);
    return { status: 200, body: {} };
  }

  #revokeRefresh(refreshToken: string): void {
    const grant = this.#refreshTokens.get(refreshToken);
    if (grant) grant.revoked = true;
    for (const access of this.#accessTokens.values()) {
      if (access.refreshToken === refreshToken) access.revoked = true;
    }
  }

  /** The user removes the app's access at myaccount.google.com: every token of theirs stops working. */
  revokeUser(email: string): number {
    let count = 0;
    for (const [token, grant] of this.#refreshTokens) {
      if (grant.email !== email || grant.revoked) continue;
      this.#revokeRefresh(token);
      count += 1;
    }
    for (const access of this.#accessTokens.values()) if (access.email === email) access.revoked = true;
    for (const key of this.#consented) if (key.endsWith(` ${email}`)) this.#consented.delete(key);
    return count;
  }

  /** The grant behind a bearer token, or why it does not open anything. */
  check(token: string): AccessGrant | 'OAUTH_TOKEN_INVALID' | 'OAUTH_TOKEN_EXPIRED' | 'OAUTH_TOKEN_REVOKED' {
    const grant = this.#accessTokens.get(token);
    if (!grant) return 'OAUTH_TOKEN_INVALID';
    if (grant.revoked) return 'OAUTH_TOKEN_REVOKED';
    if (grant.expiresAt <= this.#now()) return 'OAUTH_TOKEN_EXPIRED';
    return grant;
  }

  accessGrants(): AccessGrant[] {
    return [...this.#accessTokens.values()].map((grant) => ({ ...grant }));
  }

  refreshTokenCount(email: string): number {
    return [...this.#refreshTokens.values()].filter((g) => g.email === email && !g.revoked).length;
  }

  clear(): void {
    this.#codes.clear();
    this.#refreshTokens.clear();
    this.#accessTokens.clear();
    this.#consented.clear();
  }
}

function errorPage(reply: FastifyReply, problem: { status: number; error: string; message: string }) {
  return reply
    .code(problem.status)
    .type('text/html')
    .send(
      page(
        'Error — Google (sandbox)',
        `<section><p class="muted">Sign in with Google (sandbox)</p>
<h1>Access blocked: Authorization Error</h1>
<p>${escapeHtml(problem.message)}</p>
<p><strong>Error ${problem.status}: ${escapeHtml(problem.error)}</strong></p></section>`,
      ),
    );
}

function consentPage(action: string, users: AdsUser[], params: Params): string {
  const scopes = grantedScopes(one(params, 'scope'));
  const hidden = [
    'client_id',
    'redirect_uri',
    'response_type',
    'scope',
    'state',
    'code_challenge',
    'code_challenge_method',
    'access_type',
    'prompt',
  ]
    .filter((name) => one(params, name) !== undefined)
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(one(params, name)!)}">`)
    .join('\n');
  const accounts = users
    .map(
      (
        u,
        i,
      ) => `<div><input type="radio" id="user-${i}" name="user" value="${escapeHtml(u.email)}"${i === 0 ? ' checked' : ''}>
<label for="user-${i}" style="display:inline">${escapeHtml(u.name)} <span class="muted">${escapeHtml(u.email)}</span></label></div>`,
    )
    .join('\n');
  const items = scopes
    .map((s) =>
      s === ADWORDS_SCOPE
        ? `<li><input type="checkbox" id="grant-ads" name="grant_ads" value="yes" checked>
<label for="grant-ads" style="display:inline">${escapeHtml(SCOPE_WORDS[s]!)}</label></li>`
        : `<li>${escapeHtml(SCOPE_WORDS[s] ?? s)}</li>`,
    )
    .join('\n');
  return `<section aria-labelledby="consent-heading">
<p class="muted">Sign in with Google (sandbox)</p>
<h1 id="consent-heading">Vigil wants access to your Google Account</h1>
<form method="post" action="${escapeHtml(action)}">
${hidden}
<fieldset><legend>Choose an account</legend>
${accounts}
</fieldset>
<p>This will allow Vigil to:</p>
<ul>${items}</ul>
<p class="muted">You can remove this access at any time in your Google Account (in the sandbox: Revoke on the Google page).</p>
<p><button class="primary" type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="cancel">Cancel</button></p>
</form>
</section>`;
}

/** Registers the OAuth endpoints under the Google prefix. */
export function registerGoogleOAuth(
  app: FastifyInstance,
  oauth: GoogleOAuth,
  users: () => AdsUser[],
  authorizePath: string,
): void {
  app.get<{ Querystring: Params }>('/o/oauth2/v2/auth', async (request, reply) => {
    const problem = oauth.authorizationProblem(request.query);
    if (problem) return errorPage(reply, problem);
    return reply
      .type('text/html')
      .send(page('Sign in — Google (sandbox)', consentPage(authorizePath, users(), request.query)));
  });

  app.post<{ Body: Params | undefined }>('/o/oauth2/v2/auth', async (request, reply) => {
    const params = request.body ?? {};
    const problem = oauth.authorizationProblem(params);
    if (problem) return errorPage(reply, problem);
    if (one(params, 'decision') !== 'allow') return reply.redirect(oauth.denied(params), 302);
    const email = one(params, 'user');
    if (!users().some((u) => u.email === email))
      return errorPage(reply, { status: 400, error: 'invalid_request', message: 'Choose an account.' });
    return reply.redirect(oauth.approve(params, email!, one(params, 'grant_ads') === 'yes'), 302);
  });

  app.post<{ Body: Params | undefined }>('/token', async (request, reply) => {
    const { status, body } = await oauth.token(request.body ?? {}, request.headers.authorization);
    return reply
      .code(status)
      .header('cache-control', 'no-cache, no-store, max-age=0, must-revalidate')
      .send(body);
  });

  app.post<{ Body: Params | undefined; Querystring: Params }>('/revoke', async (request, reply) => {
    const token = one(request.body, 'token') ?? one(request.query, 'token') ?? '';
    const { status, body } = oauth.revoke(token);
    return reply.code(status).send(body);
  });

  app.get('/oauth2/v3/certs', async () => oauth.jwks());
}
