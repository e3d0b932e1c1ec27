import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { escapeHtml, page } from './html.ts';

/**
 * A small OpenID Connect provider (authorization code flow with PKCE, RS256 id_tokens) standing in for
 * "Sign in with Google". It follows OpenID Connect Core 1.0 and RFC 7636: discovery, authorize, token,
 * jwks and userinfo endpoints with the standard parameter names, error codes and status codes.
 */
export interface OidcOptions {
  issuer: () => string;
  clientId: string;
  clientSecret: string;
  redirectUris: () => string[];
}

interface Identity {
  sub: string;
  email: string;
  name: string;
  email_verified: boolean;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string | undefined;
  scope: string;
  identity: Identity;
  expiresAt: number;
}

const CODE_TTL_MS = 60_000;
const TOKEN_TTL_S = 3600;

function base64url(buffer: Buffer): string {
  return buffer.toString('base64url');
}

export class OidcProvider {
  readonly #grants = new Map<string, Grant>();
  readonly #accessTokens = new Map<string, { identity: Identity; expiresAt: number }>();
  #keys: { privateKey: CryptoKey; jwk: JWK } | undefined;

  constructor(private readonly options: OidcOptions) {}

  async start(): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = await exportJWK(publicKey);
    this.#keys = { privateKey, jwk: { ...jwk, kid: 'sandbox-1', alg: 'RS256', use: 'sig' } };
  }

  get issuer(): string {
    return this.options.issuer();
  }

  register(app: FastifyInstance): void {
    app.get('/.well-known/openid-configuration', async () => {
      const issuer = this.issuer;
      return {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'email', 'profile'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        grant_types_supported: ['authorization_code'],
        code_challenge_methods_supported: ['S256'],
        claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'nonce', 'email', 'email_verified', 'name'],
      };
    });

    app.get('/jwks', async () => ({ keys: [this.#requireKeys().jwk] }));

    app.get<{ Querystring: Record<string, string | undefined> }>('/authorize', async (request, reply) => {
      const problem = this.#checkClient(request.query);
      if (problem) return this.#errorPage(reply, problem);
      const q = request.query;
      const redirectError = this.#checkAuthorizeParams(q);
      if (redirectError)
        return reply.redirect(
          this.#redirectWith(q.redirect_uri!, {
            error: 'invalid_request',
            error_description: redirectError,
            state: q.state,
          }),
        );
      const hidden = [
        'client_id',
        'redirect_uri',
        'state',
        'nonce',
        'scope',
        'code_challenge',
        'code_challenge_method',
      ]
        .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(q[name] ?? '')}">`)
        .join('\n');
      return reply.type('text/html').send(
        page(
          'Sign in — sandbox identity provider',
          `<section>
<h1>Sign in with the sandbox provider</h1>
<p class="muted">This page stands in for "Sign in with Google". Choose who you are; Vigil receives a signed id_token for that identity.</p>
<form method="post" action="authorize">
${hidden}
<label for="email">Email</label>
<input id="email" name="email" type="email" required value="merchant@example.com" autocomplete="email">
<label for="name">Name</label>
<input id="name" name="name" type="text" value="Sandbox Merchant" autocomplete="name">
<label><input type="checkbox" name="email_verified" value="true" checked> The provider has verified this email</label>
<p><button class="primary" type="submit" name="decision" value="allow">Continue</button>
<button type="submit" name="decision" value="deny" formnovalidate>Cancel</button></p>
</form>
</section>`,
        ),
      );
    });

    app.post<{ Body: Record<string, string | undefined> }>('/authorize', async (request, reply) => {
      const form = request.body ?? {};
      const problem = this.#checkClient(form);
      if (problem) return this.#errorPage(reply, problem);
      const redirectUri = form.redirect_uri!;
      if (form.decision !== 'allow') {
        return reply.redirect(
          this.#redirectWith(redirectUri, {
            error: 'access_denied',
            error_description: 'The user cancelled the sign-in.',
            state: form.state,
          }),
        );
      }
      const paramError = this.#checkAuthorizeParams(form);
      if (paramError)
        return reply.redirect(
          this.#redirectWith(redirectUri, {
            error: 'invalid_request',
            error_description: paramError,
            state: form.state,
          }),
        );
      const email = (form.email ?? '').trim().toLowerCase();
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) return this.#errorPage(reply, 'Enter an email address.');
      const code = base64url(randomBytes(24));
      this.#grants.set(code, {
        clientId: form.client_id!,
        redirectUri,
        codeChallenge: form.code_challenge!,
        nonce: form.nonce || undefined,
        scope: form.scope ?? 'openid',
        identity: {
          sub: createHash('sha256').update(email).digest('hex').slice(0, 24),
          email,
          name: (form.name ?? '').trim() || email,
          email_verified: form.email_verified === 'true',
        },
        expiresAt: Date.now() + CODE_TTL_MS,
      });
      return reply.redirect(this.#redirectWith(redirectUri, { code, state: form.state }));
    });

    app.post<{ Body: Record<string, string | undefined> }>('/token', async (request, reply) => {
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      const form = request.body ?? {};
      const client = this.#clientCredentials(request.headers.authorization, form);
      if (!client || client.id !== this.options.clientId || client.secret !== this.options.clientSecret) {
        return reply
          .code(401)
          .header('WWW-Authenticate', 'Basic realm="sandbox"')
          .send({ error: 'invalid_client', error_description: 'Client authentication failed.' });
      }
      if (form.grant_type !== 'authorization_code') {
        return reply.code(400).send({
          error: 'unsupported_grant_type',
          error_description: 'Only authorization_code is supported.',
        });
      }
      const grant = form.code ? this.#grants.get(form.code) : undefined;
      if (form.code) this.#grants.delete(form.code);
      const invalid = (description: string) =>
        reply.code(400).send({ error: 'invalid_grant', error_description: description });
      if (!grant || grant.expiresAt < Date.now())
        return invalid('The authorization code is invalid, used or expired.');
      if (grant.clientId !== client.id) return invalid('The code was issued to another client.');
      if (grant.redirectUri !== form.redirect_uri)
        return invalid('redirect_uri does not match the authorization request.');
      const verifier = form.code_verifier ?? '';
      if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier))
        return invalid('code_verifier is missing or malformed.');
      if (base64url(createHash('sha256').update(verifier).digest()) !== grant.codeChallenge) {
        return invalid('PKCE verification failed.');
      }
      const accessToken = base64url(randomBytes(24));
      this.#accessTokens.set(accessToken, {
        identity: grant.identity,
        expiresAt: Date.now() + TOKEN_TTL_S * 1000,
      });
      const idToken = await new SignJWT({
        email: grant.identity.email,
        email_verified: grant.identity.email_verified,
        name: grant.identity.name,
        ...(grant.nonce ? { nonce: grant.nonce } : {}),
      })
        .setProtectedHeader({ alg: 'RS256', kid: this.#requireKeys().jwk.kid! })
        .setIssuer(this.issuer)
        .setAudience(client.id)
        .setSubject(grant.identity.sub)
        .setIssuedAt()
        .setExpirationTime(`${TOKEN_TTL_S}s`)
        .sign(this.#requireKeys().privateKey);
      return {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: TOKEN_TTL_S,
        id_token: idToken,
        scope: grant.scope,
      };
    });

    app.get('/userinfo', async (request, reply) => {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const entry = token ? this.#accessTokens.get(token) : undefined;
      if (!entry || entry.expiresAt < Date.now()) {
        return reply
          .code(401)
          .header('WWW-Authenticate', 'Bearer error="invalid_token"')
          .send({ error: 'invalid_token' });
      }
      return entry.identity;
    });
  }

  #requireKeys() {
    if (!this.#keys) throw new Error('The sandbox OpenID provider has not been started');
    return this.#keys;
  }

  /** Problems that must not be sent back to the redirect_uri (RFC 6749 §4.1.2.1): shown on a page instead. */
  #checkClient(params: Record<string, string | undefined>): string | undefined {
    if (params.client_id !== this.options.clientId) return 'Unknown client_id.';
    if (!params.redirect_uri || !this.options.redirectUris().includes(params.redirect_uri)) {
      return 'redirect_uri is not registered for this client.';
    }
    return undefined;
  }

  #checkAuthorizeParams(params: Record<string, string | undefined>): string | undefined {
    if (params.response_type !== undefined && params.response_type !== 'code')
      return 'Only response_type=code is supported.';
    if (!(params.scope ?? '').split(' ').includes('openid')) return 'scope must include openid.';
    if (!params.code_challenge || params.code_challenge_method !== 'S256')
      return 'PKCE with code_challenge_method=S256 is required.';
    return undefined;
  }

  #clientCredentials(header: string | undefined, form: Record<string, string | undefined>) {
    const basic = /^Basic (.+)$/.exec(header ?? '')?.[1];
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return undefined;
      return {
        id: decodeURIComponent(decoded.slice(0, colon)),
        secret: decodeURIComponent(decoded.slice(colon + 1)),
      };
    }
    if (form.client_id && form.client_secret) return { id: form.client_id, secret: form.client_secret };
    return undefined;
  }

  #redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
    const url = new URL(redirectUri);
    for (const [key, value] of Object.entries(params))
      if (value !== undefined) url.searchParams.set(key, value);
    return url.toString();
  }

  #errorPage(reply: FastifyReply, message: string) {
    return reply
      .code(400)
      .type('text/html')
      .send(
        page(
          'Sign-in error',
          `<section><h1>This sign-in request cannot be completed</h1><p>${escapeHtml(message)}</p></section>`,
        ),
      );
  }
}
