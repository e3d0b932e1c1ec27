import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml, page } from './html.ts';
import type { MetaSandbox } from './meta.ts';

/** Graph's error, answered as `{ error: { message, type, code, error_subcode?, …, fbtrace_id } }`. */
export class GraphError extends Error {
  override readonly name = 'GraphError';
  headers: Record<string, string> = {};
  constructor(
    readonly code: number,
    message: string,
    readonly extra: {
      type?: string;
      subcode?: number;
      userTitle?: string;
      userMsg?: string;
      status?: number;
      transient?: boolean;
    } = {},
  ) {
    super(message);
  }

  get status(): number {
    return this.extra.status ?? 400;
  }

  body(): { error: Record<string, unknown> } {
    const { type, subcode, userTitle, userMsg, transient } = this.extra;
    return {
      error: {
        message: this.message,
        type: type ?? 'OAuthException',
        code: this.code,
        ...(subcode === undefined ? {} : { error_subcode: subcode }),
        ...(transient === undefined ? {} : { is_transient: transient }),
        ...(userTitle === undefined ? {} : { error_user_title: userTitle }),
        ...(userMsg === undefined ? {} : { error_user_msg: userMsg }),
        fbtrace_id: randomBytes(12).toString('base64url').slice(0, 23),
      },
    };
  }
}

/** What one Graph call answers, over HTTP or as a batch item. */
export interface GraphAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The subcodes of an authorization code that cannot be used (unknown, expired, mismatched, used). */
const CODE_SUBCODES = new Set([36007, 36008, 36009]);

export function errorAnswer(error: GraphError): GraphAnswer {
  // Graph names OAuth failures in WWW-Authenticate as well, as OAuth 2.0 bearer errors go.
  const kind =
    error.code === 190
      ? 'invalid_token'
      : CODE_SUBCODES.has(error.extra.subcode ?? 0)
        ? 'invalid_code'
        : null;
  return {
    status: error.status,
    headers: {
      ...error.headers,
      ...(kind ? { 'WWW-Authenticate': `OAuth "Facebook Platform" "${kind}" "${error.message}"` } : {}),
    },
    body: error.body(),
  };
}

export const invalidToken = () =>
  new GraphError(190, 'Invalid OAuth access token - Cannot parse access token');
const CODE_TTL_MS = 10 * 60_000;
const SHORT_TOKEN_SECONDS = 2 * 3600;
export const LONG_TOKEN_SECONDS = 60 * 86_400;

export interface MetaToken {
  token: string;
  userId: string;
  scopes: string[];
  kind: 'short' | 'long';
  issuedAt: number;
  expiresAt: number;
  /** 460: password changed / session invalidated; 458: the app was removed. */
  invalidated: 460 | 458 | null;
}

export interface MetaTokenView {
  token: string;
  userId: string;
  kind: 'short' | 'long';
  scopes: string[];
  issuedAt: string;
  expiresAt: string;
  valid: boolean;
  /** Why it no longer works, as Graph's error_subcode: 463 expired, 460 invalidated, 458 app removed. */
  subcode: 463 | 460 | 458 | null;
}

interface Grant {
  userId: string;
  scopes: string[];
  redirectUri: string;
  expiresAt: number;
  used: boolean;
}

/** "Tuesday, 15-Jul-25 10:00:00 PDT", as Graph words times in its token errors. */
function pacificTime(ms: number): string {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    weekday: 'long',
    day: '2-digit',
    month: 'short',
    year: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });
  for (const part of format.formatToParts(new Date(ms))) parts[part.type] = part.value;
  return `${parts.weekday}, ${parts.day}-${parts.month}-${parts.year} ${parts.hour}:${parts.minute}:${parts.second} ${parts.timeZoneName}`;
}

/** The app's authorization codes and user access tokens. */
export class MetaLogins {
  readonly #appId: string;
  readonly #now: () => number;
  readonly #codes = new Map<string, Grant>();
  readonly #tokens = new Map<string, MetaToken>();
  readonly #byUser = new Map<string, MetaToken[]>();

  constructor(appId: string, now: () => number) {
    this.#appId = appId;
    this.#now = now;
  }

  /** A single-use code, good for 10 minutes, bound to the redirect URI. */
  createCode(userId: string, scopes: string[], redirectUri: string): string {
    const code = `AQ${randomBytes(96).toString('base64url')}`;
    this.#codes.set(code, { userId, scopes, redirectUri, expiresAt: this.#now() + CODE_TTL_MS, used: false });
    return code;
  }

  /** The grant behind a code, now used; or the Graph error for a code that cannot be used. */
  takeCode(code: string, redirectUri: string): { userId: string; scopes: string[] } | GraphError {
    const grant = this.#codes.get(code);
    if (!grant) return new GraphError(100, 'Invalid verification code format.', { subcode: 36007 });
    if (grant.used) return new GraphError(100, 'This authorization code has been used.', { subcode: 36009 });
    if (grant.expiresAt <= this.#now())
      return new GraphError(100, 'This authorization code has expired.', { subcode: 36007 });
    if (grant.redirectUri !== redirectUri) {
      return new GraphError(
        100,
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        { subcode: 36008 },
      );
    }
    grant.used = true;
    return { userId: grant.userId, scopes: grant.scopes };
  }

  issue(userId: string, scopes: string[], kind: 'short' | 'long'): MetaToken {
    const now = this.#now();
    const token: MetaToken = {
      token: `EAA${randomBytes(72).toString('base64url').replace(/[-_]/g, 'Z')}`,
      userId,
      scopes,
      kind,
      issuedAt: now,
      expiresAt: now + (kind === 'long' ? LONG_TOKEN_SECONDS : SHORT_TOKEN_SECONDS) * 1000,
      invalidated: null,
    };
    this.#tokens.set(token.token, token);
    const list = this.#byUser.get(userId) ?? [];
    list.push(token);
    this.#byUser.set(userId, list);
    return token;
  }

  find(token: string): MetaToken | undefined {
    return this.#tokens.get(token);
  }

  list(userId?: string): MetaToken[] {
    return userId ? (this.#byUser.get(userId) ?? []) : [...this.#tokens.values()];
  }

  problem(token: MetaToken): 463 | 460 | 458 | null {
    if (token.invalidated) return token.invalidated;
    return token.expiresAt <= this.#now() ? 463 : null;
  }

  /** The error Graph answers for a token that no longer works (190 with its subcode), or null. */
  error(token: MetaToken): GraphError | null {
    const problem = this.problem(token);
    if (problem === 463) {
      return new GraphError(
        190,
        `Error validating access token: Session has expired on ${pacificTime(token.expiresAt)}. The current time is ${pacificTime(this.#now())}.`,
        { subcode: 463 },
      );
    }
    if (problem === 460) {
      return new GraphError(
        190,
        'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
        { subcode: 460 },
      );
    }
    if (problem === 458) {
      return new GraphError(
        190,
        `Error validating access token: User ${token.userId} has not authorized application ${this.#appId}.`,
        { subcode: 458 },
      );
    }
    return null;
  }

  revoke(userId: string, subcode: 460 | 458): MetaToken[] {
    const tokens = this.list(userId);
    for (const token of tokens) token.invalidated ??= subcode;
    return tokens;
  }

  /** The person's working tokens end at `at`. */
  expire(userId: string, at: number): MetaToken[] {
    const tokens = this.list(userId).filter((t) => this.problem(t) === null);
    for (const token of tokens) token.expiresAt = at;
    return tokens;
  }

  view(token: MetaToken): MetaTokenView {
    const subcode = this.problem(token);
    return {
      token: token.token,
      userId: token.userId,
      kind: token.kind,
      scopes: [...token.scopes],
      issuedAt: new Date(token.issuedAt).toISOString(),
      expiresAt: new Date(token.expiresAt).toISOString(),
      valid: subcode === null,
      subcode,
    };
  }

  clear(): void {
    this.#codes.clear();
    this.#tokens.clear();
    this.#byUser.clear();
  }
}

// ---- Graph's OAuth endpoints. ----

type Params = Record<string, string | undefined>;

const bearer = (body: object): GraphAnswer => ({ status: 200, headers: {}, body: body });

/**
 * `/{version}/oauth/access_token`: a code for a short-lived user token (about 2 hours), a short-lived token for
 * a long-lived one (`grant_type=fb_exchange_token`, 60 days), or the app token (`client_credentials`).
 */
export function oauthAccessToken(meta: MetaSandbox, params: Params): GraphAnswer {
  if (params.client_id !== meta.appId)
    throw new GraphError(101, 'Error validating application. Invalid application ID.');
  if (!meta.checkAppSecret(params.client_secret ?? ''))
    throw new GraphError(1, 'Error validating client secret.');
  const grantType = params.grant_type;
  if (grantType === 'client_credentials') {
    return bearer({ access_token: `${meta.appId}|${params.client_secret}`, token_type: 'bearer' });
  }
  if (grantType === 'fb_exchange_token') {
    const short = meta.logins.find(params.fb_exchange_token ?? '');
    if (!short) throw invalidToken();
    const problem = meta.logins.error(short);
    if (problem) throw problem;
    const token = meta.logins.issue(short.userId, short.scopes, 'long');
    return bearer({ access_token: token.token, token_type: 'bearer', expires_in: LONG_TOKEN_SECONDS });
  }
  if (grantType !== undefined && grantType !== 'authorization_code')
    throw new GraphError(100, `Unsupported grant_type: ${grantType}`);
  if (!params.code) throw new GraphError(1, 'Missing authorization code');
  if (params.redirect_uri === undefined) throw new GraphError(100, 'Missing redirect_uri parameter.');
  const grant = meta.logins.takeCode(params.code, params.redirect_uri);
  if (grant instanceof GraphError) throw grant;
  const token = meta.logins.issue(grant.userId, grant.scopes, 'short');
  return bearer({ access_token: token.token, token_type: 'bearer', expires_in: SHORT_TOKEN_SECONDS });
}

/** `/{version}/debug_token?input_token=…`, inspected with the app token `{app_id}|{app_secret}`. */
export function debugToken(meta: MetaSandbox, params: Params, accessToken: string | undefined): GraphAnswer {
  const [appId, secret] = (accessToken ?? '').split('|');
  const appToken = appId === meta.appId && meta.checkAppSecret(secret ?? '');
  const userToken = accessToken ? meta.logins.find(accessToken) : undefined;
  if (!appToken && !(userToken && !meta.logins.error(userToken))) {
    if (accessToken?.includes('|')) throw new GraphError(190, 'Invalid OAuth access token signature.');
    throw new GraphError(
      100,
      '(#100) You must provide an app access token, or a user access token that is an owner or developer of the app',
    );
  }
  const token = meta.logins.find(params.input_token ?? '');
  if (!token) {
    return bearer({
      data: { error: { code: 190, message: invalidToken().message }, is_valid: false, scopes: [] },
    });
  }
  const problem = meta.logins.error(token);
  const seconds = (ms: number) => Math.floor(ms / 1000);
  return bearer({
    data: {
      app_id: meta.appId,
      type: 'USER',
      application: meta.appName,
      data_access_expires_at: seconds(token.issuedAt) + 90 * 86_400,
      ...(problem ? { error: { code: 190, message: problem.message, subcode: problem.extra.subcode } } : {}),
      expires_at: seconds(token.expiresAt),
      is_valid: problem === null,
      issued_at: seconds(token.issuedAt),
      scopes: token.scopes,
      granular_scopes: token.scopes.map((scope) => ({ scope })),
      user_id: token.userId,
    },
  });
}

// ---- The Facebook Login dialog. ----

const SCOPE_WORDS: Record<string, string> = {
  public_profile: 'Your name and profile picture',
  email: 'Your email address',
  ads_read: 'Read the performance of the ad accounts you can access',
  ads_management: 'Manage the ad accounts you can access',
  business_management: 'Manage your business',
};

function errorPage(reply: FastifyReply, title: string, message: string) {
  return reply
    .code(400)
    .type('text/html')
    .send(
      page(
        `${title} — Facebook (sandbox)`,
        `<section><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></section>`,
      ),
    );
}

/** The scopes asked, with public_profile, which Facebook Login always grants. */
function scopesOf(scope: string | undefined): string[] {
  const asked = (scope ?? '')
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return [...new Set([...asked, 'public_profile'])];
}

function dialogPage(meta: MetaSandbox, action: string, params: Params): string {
  const scopes = scopesOf(params.scope);
  const people = meta
    .users()
    .map(
      (
        user,
        i,
      ) => `<p><input type="radio" id="user-${escapeHtml(user.id)}" name="user" value="${escapeHtml(user.id)}"${i === 0 ? ' checked' : ''}>
<label for="user-${escapeHtml(user.id)}" style="display:inline">${escapeHtml(user.name)}</label>
<span class="muted">(${user.accountIds.length} ad accounts)</span></p>`,
    )
    .join('\n');
  const hidden = ['client_id', 'redirect_uri', 'state', 'scope', 'response_type']
    .filter((name) => params[name] !== undefined)
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(params[name]!)}">`)
    .join('\n');
  const asked = scopes
    .map(
      (s) =>
        `<li>${escapeHtml(SCOPE_WORDS[s] ?? s)} <span class="muted">(<code>${escapeHtml(s)}</code>)</span></li>`,
    )
    .join('');
  return `<section aria-labelledby="dialog-heading">
<p class="muted">Facebook (sandbox)</p>
<h1 id="dialog-heading">Log in to ${escapeHtml(meta.appName)} with Facebook</h1>
<form method="post" action="${escapeHtml(action)}">
${hidden}
<fieldset><legend>Continue as</legend>
${people}
</fieldset>
<p>${escapeHtml(meta.appName)} is asking for:</p>
<ul>${asked}</ul>
<p class="muted">You can remove ${escapeHtml(meta.appName)} from your Facebook settings at any time.</p>
<p><button class="primary" type="submit" name="decision" value="continue">Continue as the person chosen above</button>
<button type="submit" name="decision" value="cancel">Cancel</button></p>
</form>
</section>`;
}

/** Adds Facebook's answer to the redirect URI, and the `#_=_` fragment Facebook appends. */
function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(name, value);
  url.hash = '_=_';
  return url.toString();
}

/**
 * Facebook Login's dialog at `GET {www}/{version}/dialog/oauth`, posting back to itself: an unknown app or a
 * redirect URI not in the app's list get an error page (never a redirect), as on Facebook.
 */
export function registerMetaDialog(app: FastifyInstance, meta: MetaSandbox, basePath: string): void {
  const check = (params: Params, reply: FastifyReply): boolean => {
    if (params.client_id !== meta.appId) {
      errorPage(reply, 'Invalid App ID', 'The provided app ID does not look like a valid app ID.');
      return false;
    }
    if (!params.redirect_uri || !meta.redirectUris.includes(params.redirect_uri)) {
      errorPage(
        reply,
        'URL blocked',
        "This redirect failed because the redirect URI is not whitelisted in the app's Client OAuth Settings. Make sure Client and Web OAuth Login are on and add all your app domains as Valid OAuth Redirect URIs.",
      );
      return false;
    }
    if ((params.response_type ?? 'code') !== 'code') {
      errorPage(reply, 'Unsupported response type', 'The sandbox answers response_type=code only.');
      return false;
    }
    return true;
  };

  app.get<{ Params: { version: string }; Querystring: Params }>(
    '/:version/dialog/oauth',
    async (request, reply) => {
      if (!/^v\d+\.\d+$/.test(request.params.version))
        return errorPage(reply, 'Page not found', 'Unknown version.');
      if (!check(request.query, reply)) return reply;
      const action = `${basePath}/meta/www/${request.params.version}/dialog/oauth`;
      return reply
        .type('text/html')
        .send(page(`Log in with Facebook — ${meta.appName}`, dialogPage(meta, action, request.query)));
    },
  );

  app.post<{ Params: { version: string }; Body: Params | undefined }>(
    '/:version/dialog/oauth',
    async (request, reply) => {
      const params = request.body ?? {};
      if (!check(params, reply)) return reply;
      const redirectUri = params.redirect_uri!;
      if (params.decision !== 'continue') {
        return reply.redirect(
          redirectWith(redirectUri, {
            error: 'access_denied',
            error_code: '200',
            error_description: 'Permissions error',
            error_reason: 'user_denied',
            state: params.state,
          }),
          302,
        );
      }
      const user = meta.findUser(params.user ?? '');
      if (!user) return errorPage(reply, 'Choose an account', 'Choose the Facebook account to continue as.');
      const code = meta.logins.createCode(user.id, scopesOf(params.scope), redirectUri);
      return reply.redirect(redirectWith(redirectUri, { code, state: params.state }), 302);
    },
  );
}
