import type { FastifyBaseLogger } from 'fastify';
import type { GoogleAdsSettings } from '../../config.ts';
import { sha256Hex } from '../../lib/secrets.ts';

const REQUEST_TIMEOUT_MS = 15_000;
/** An access token with less than this left is refreshed before it is used. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** When Google says "too many requests" without saying for how long. */
const DEFAULT_QUOTA_DELAY_MS = 60_000;
/** The scopes Vigil asks for: who the person is (id_token's `sub` and `email`) and the Google Ads API. */
export const GOOGLE_ADS_SCOPES = ['openid', 'email', 'https://www.googleapis.com/auth/adwords'];

/**
 * What went wrong talking to Google, by what Vigil does about it: `auth` (the grant no longer works: the
 * connection is lost), `quota` (the developer token's quota: wait `retryAfterMs`), `refused` (this request
 * cannot succeed: an account the person cannot reach, a bad query), `unavailable` (try again later).
 */
export type GoogleAdsErrorKind = 'auth' | 'quota' | 'refused' | 'unavailable';

export class GoogleAdsError extends Error {
  override readonly name = 'GoogleAdsError';
  constructor(
    message: string,
    readonly kind: GoogleAdsErrorKind,
    /** HTTP status; 0 when Google was not reached. */
    readonly status: number,
    /** Google's error codes, as `authenticationError.OAUTH_TOKEN_REVOKED` (or the OAuth `error`). */
    readonly codes: readonly string[] = [],
    /** For `quota`: how long to wait before the next call. */
    readonly retryAfterMs = 0,
  ) {
    super(message);
  }

  has(code: string): boolean {
    return this.codes.some((c) => c === code || c.endsWith(`.${code}`));
  }
}

/** The grant no longer opens anything: reconnecting is the only way back. */
const TOKEN_DEAD = new Set([
  'OAUTH_TOKEN_INVALID',
  'OAUTH_TOKEN_EXPIRED',
  'OAUTH_TOKEN_DISABLED',
  'OAUTH_TOKEN_REVOKED',
  'OAUTH_TOKEN_HEADER_INVALID',
  'GOOGLE_ACCOUNT_DELETED',
  'GOOGLE_ACCOUNT_AUTHENTICATION_FAILED',
  'GOOGLE_ACCOUNT_COOKIE_INVALID',
  'GOOGLE_ACCOUNT_USER_AND_ADS_USER_MISMATCH',
  'NOT_ADS_USER',
  'TWO_STEP_VERIFICATION_NOT_ENROLLED',
  'ADVANCED_PROTECTION_NOT_ENROLLED',
  'USER_ID_INVALID',
  'AUTHENTICATION_ERROR',
  'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
]);
/** Vigil's own app is refused (its developer token or Cloud project): no person's connection is at fault. */
const APP_REFUSED = new Set([
  'DEVELOPER_TOKEN_INVALID',
  'DEVELOPER_TOKEN_NOT_APPROVED',
  'DEVELOPER_TOKEN_PROHIBITED',
  'DEVELOPER_TOKEN_NOT_ON_ALLOWLIST',
  'PROJECT_DISABLED',
  'CLOUD_PROJECT_NOT_UNDER_ORGANIZATION',
  'ORGANIZATION_NOT_APPROVED',
  'ORGANIZATION_NOT_ASSOCIATED_WITH_DEVELOPER_TOKEN',
  'ORGANIZATION_NOT_RECOGNIZED',
]);

interface FailureBody {
  error?: {
    code?: number;
    message?: string;
    status?: string;
    details?: {
      '@type'?: string;
      reason?: string;
      retryDelay?: string;
      errors?: {
        errorCode?: Record<string, string>;
        message?: string;
        details?: { quotaErrorDetails?: { retryDelay?: string } };
      }[];
    }[];
  };
}

/** A protobuf Duration in JSON ("30s", "1.5s") in milliseconds, or null. */
export function durationMs(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return match ? Math.ceil(Number(match[1]) * 1000) : null;
}

/**
 * Google's error answer (`{ error: { code, message, status, details } }`, whose details hold a
 * `GoogleAdsFailure` with each error's `errorCode` and, for quota, `quotaErrorDetails.retryDelay`) as a
 * GoogleAdsError of the kind Vigil acts on.
 */
export function errorFromResponse(
  httpStatus: number,
  body: unknown,
  retryAfterHeader: string | null = null,
): GoogleAdsError {
  const error = (body as FailureBody | null)?.error;
  const status = error?.status ?? '';
  const codes: string[] = [];
  const messages: string[] = [];
  let retryMs: number | null = null;
  for (const detail of error?.details ?? []) {
    if (detail.reason) codes.push(detail.reason);
    retryMs ??= durationMs(detail.retryDelay);
    for (const failure of detail.errors ?? []) {
      for (const [family, code] of Object.entries(failure.errorCode ?? {})) codes.push(`${family}.${code}`);
      if (failure.message) messages.push(failure.message);
      retryMs ??= durationMs(failure.details?.quotaErrorDetails?.retryDelay);
    }
  }
  const said = messages[0] ?? error?.message ?? `HTTP ${httpStatus}`;
  const code = (name: string) => codes.some((c) => c === name || c.endsWith(`.${name}`));
  const any = (set: Set<string>) => codes.some((c) => set.has(c.slice(c.indexOf('.') + 1)));

  if (
    httpStatus === 429 ||
    status === 'RESOURCE_EXHAUSTED' ||
    codes.some((c) => c.startsWith('quotaError.'))
  ) {
    const seconds = Number(retryAfterHeader);
    const wait =
      retryMs ?? (Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_QUOTA_DELAY_MS);
    return new GoogleAdsError(`Google Ads API quota exhausted: ${said}`, 'quota', httpStatus, codes, wait);
  }
  if (any(APP_REFUSED)) {
    return new GoogleAdsError(
      `Google refused Vigil’s Google Ads app (${codes.join(', ')}): ${said}`,
      'unavailable',
      httpStatus,
      codes,
    );
  }
  if (
    any(TOKEN_DEAD) ||
    (httpStatus === 401 && !code('CLIENT_CUSTOMER_ID_INVALID') && !code('CUSTOMER_NOT_FOUND'))
  ) {
    return new GoogleAdsError(
      `Google no longer accepts Vigil’s access to this Google account: ${said}`,
      'auth',
      httpStatus,
      codes,
    );
  }
  if (httpStatus >= 500 || httpStatus === 0 || status === 'UNAVAILABLE' || status === 'DEADLINE_EXCEEDED') {
    return new GoogleAdsError(
      `Google Ads did not answer (HTTP ${httpStatus}${status ? ` ${status}` : ''}).`,
      'unavailable',
      httpStatus,
      codes,
    );
  }
  return new GoogleAdsError(`Google Ads refused the request: ${said}`, 'refused', httpStatus, codes);
}

/** The token endpoint's `{ error, error_description }`: `invalid_grant` means the refresh token is dead. */
export function errorFromTokenResponse(httpStatus: number, body: unknown): GoogleAdsError {
  const answer = (body ?? {}) as { error?: unknown; error_description?: unknown };
  const error = typeof answer.error === 'string' ? answer.error : '';
  const described = typeof answer.error_description === 'string' ? answer.error_description : '';
  const said = described ? `${error}: ${described}` : error || `HTTP ${httpStatus}`;
  if (httpStatus >= 500 || httpStatus === 0) {
    return new GoogleAdsError(
      `Google’s sign-in service did not answer (HTTP ${httpStatus}).`,
      'unavailable',
      httpStatus,
      [error],
    );
  }
  if (error === 'invalid_grant') {
    return new GoogleAdsError(
      `Google refused the connection’s refresh token (${said}): access was revoked or has expired.`,
      'auth',
      httpStatus,
      [error],
    );
  }
  if (error === 'invalid_client' || error === 'unauthorized_client') {
    return new GoogleAdsError(`Google refused Vigil’s OAuth client (${said}).`, 'unavailable', httpStatus, [
      error,
    ]);
  }
  if (httpStatus === 429) {
    return new GoogleAdsError(
      `Google’s sign-in service asked Vigil to slow down.`,
      'quota',
      429,
      [error],
      DEFAULT_QUOTA_DELAY_MS,
    );
  }
  return new GoogleAdsError(`Google refused the sign-in request (${said}).`, 'refused', httpStatus, [error]);
}

export interface TokenGrant {
  accessToken: string;
  /** Absent when Google did not give one (an earlier consent without `prompt=consent`). */
  refreshToken: string | null;
  expiresInSeconds: number;
  scopes: string[];
  idToken: string | null;
}

/** Who signed in, from the id_token the token endpoint gave (OIDC Core 3.1.3.7: over TLS, straight from Google). */
export function idTokenClaims(idToken: string, clientId: string): { sub: string; email: string | null } {
  const payload = idToken.split('.')[1];
  let claims: { sub?: unknown; email?: unknown; aud?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as typeof claims;
  } catch {
    throw new GoogleAdsError('Google’s id_token could not be read.', 'refused', 200);
  }
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(clientId)) {
    throw new GoogleAdsError('Google’s id_token was issued to another app.', 'refused', 200);
  }
  if (typeof claims.sub !== 'string' || !claims.sub) {
    throw new GoogleAdsError('Google’s id_token names no account.', 'refused', 200);
  }
  return { sub: claims.sub, email: typeof claims.email === 'string' ? claims.email : null };
}

/** Which Google account a call is made for: its connection (the cache key) and its refresh token. */
export interface GoogleAuth {
  connectionId: string;
  refreshToken: string;
}

export interface SearchOptions {
  /** The manager through which the customer is reached (`login-customer-id`); null for direct access. */
  loginCustomerId?: string | null;
  signal?: AbortSignal;
  /** Stop paging once this many rows are read. */
  maxRows?: number;
}

/** Calls made, by kind, since the client was made: for benchmarks and tests. */
export interface GoogleAdsUsage {
  searchRequests: number;
  listAccessibleCustomers: number;
  tokenRefreshes: number;
  /** Calls not made because the developer token was backing off after a quota error. */
  heldBackByQuota: number;
}

export interface GoogleAdsClient {
  readonly settings: GoogleAdsSettings;
  authorizeUrl(input: { state: string; codeChallenge: string; redirectUri: string }): string;
  exchangeCode(code: string, codeVerifier: string, redirectUri: string): Promise<TokenGrant>;
  /** A current access token for the connection: cached, refreshed when less than 5 minutes are left. */
  accessToken(auth: GoogleAuth): Promise<string>;
  listAccessibleCustomers(auth: GoogleAuth, signal?: AbortSignal): Promise<string[]>;
  /** Every row of a GAQL query (all pages, by `nextPageToken`), up to `maxRows`. */
  search<Row = Record<string, unknown>>(
    auth: GoogleAuth,
    customerId: string,
    query: string,
    options?: SearchOptions,
  ): Promise<{ rows: Row[]; truncated: boolean }>;
  /** Until when the developer token backs off after a quota error (ms since the epoch), or 0. */
  quotaBackoffUntil(): number;
  usage(): GoogleAdsUsage;
  /** Forgets a connection's cached access token (its grant changed or was refused). */
  forget(connectionId: string): void;
}

interface CachedToken {
  refreshHash: string;
  token: string;
  expiresAt: number;
}

/**
 * Vigil's Google adapter: OAuth 2.0 for a web server app (authorization code with PKCE, offline access, the
 * refresh token grant) and the Google Ads REST API (`customers:listAccessibleCustomers`, `googleAds:search`
 * paged by `nextPageToken`), with Google's errors sorted into what Vigil does about them. A quota error
 * makes the whole developer token wait out Google's retry delay: no call is made meanwhile.
 */
export function createGoogleAdsClient(deps: {
  settings: GoogleAdsSettings;
  fetch?: typeof fetch;
  now?: () => number;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}): GoogleAdsClient {
  const { settings } = deps;
  const fetchImpl = deps.fetch ?? fetch;
  const now = deps.now ?? Date.now;
  const apiBase = `${settings.apiUrl.replace(/\/+$/, '')}/${settings.apiVersion}`;
  const tokens = new Map<string, CachedToken>();
  const refreshing = new Map<string, Promise<string>>();
  const usage: GoogleAdsUsage = {
    searchRequests: 0,
    listAccessibleCustomers: 0,
    tokenRefreshes: 0,
    heldBackByQuota: 0,
  };
  let backoffUntil = 0;

  async function send(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    try {
      return await fetchImpl(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new GoogleAdsError(
        timedOut
          ? `Google did not answer within ${REQUEST_TIMEOUT_MS / 1000} seconds.`
          : `Google could not be reached: ${(error as Error).message}`,
        'unavailable',
        0,
      );
    }
  }

  async function tokenRequest(form: Record<string, string>): Promise<Record<string, unknown>> {
    const response = await send(settings.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
        ...form,
      }).toString(),
    });
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok || typeof body?.access_token !== 'string')
      throw errorFromTokenResponse(response.status, body);
    return body;
  }

  function assertNotBackingOff(): void {
    const wait = backoffUntil - now();
    if (wait <= 0) return;
    usage.heldBackByQuota += 1;
    throw new GoogleAdsError(
      `Google Ads API quota exhausted: next try at ${hhmm(backoffUntil)} UTC`,
      'quota',
      429,
      ['quotaError.BACKING_OFF'],
      wait,
    );
  }

  function noteQuota(error: GoogleAdsError): GoogleAdsError {
    if (error.kind !== 'quota') return error;
    const until = now() + error.retryAfterMs;
    if (until > backoffUntil) {
      if (backoffUntil <= now()) {
        deps.log?.warn(
          { retryAfterMs: error.retryAfterMs, codes: error.codes },
          `Google Ads API quota exhausted: no calls until ${new Date(until).toISOString()}`,
        );
      }
      backoffUntil = until;
    }
    return new GoogleAdsError(
      `Google Ads API quota exhausted: next try at ${hhmm(backoffUntil)} UTC`,
      'quota',
      error.status,
      error.codes,
      backoffUntil - now(),
    );
  }

  async function refresh(auth: GoogleAuth, refreshHash: string): Promise<string> {
    usage.tokenRefreshes += 1;
    const body = await tokenRequest({ grant_type: 'refresh_token', refresh_token: auth.refreshToken });
    const token = body.access_token as string;
    const expiresIn = Number(body.expires_in);
    tokens.set(auth.connectionId, {
      refreshHash,
      token,
      expiresAt: now() + (Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600) * 1000,
    });
    return token;
  }

  function accessToken(auth: GoogleAuth): Promise<string> {
    const refreshHash = sha256Hex(auth.refreshToken);
    const cached = tokens.get(auth.connectionId);
    if (cached && cached.refreshHash === refreshHash && cached.expiresAt - now() > REFRESH_MARGIN_MS) {
      return Promise.resolve(cached.token);
    }
    const key = `${auth.connectionId} ${refreshHash}`;
    let pending = refreshing.get(key);
    if (!pending) {
      pending = refresh(auth, refreshHash).finally(() => refreshing.delete(key));
      refreshing.set(key, pending);
    }
    return pending;
  }

  /** One API call with a current token; a token Google calls dead is refreshed once and the call tried again. */
  async function apiCall(
    auth: GoogleAuth,
    url: string,
    init: RequestInit,
    loginCustomerId: string | null,
    signal?: AbortSignal,
  ) {
    for (let attempt = 0; ; attempt++) {
      assertNotBackingOff();
      const token = await accessToken(auth);
      const response = await send(
        url,
        {
          ...init,
          headers: {
            accept: 'application/json',
            authorization: `Bearer ${token}`,
            'developer-token': settings.developerToken,
            ...(loginCustomerId ? { 'login-customer-id': loginCustomerId } : {}),
            ...(init.body ? { 'content-type': 'application/json' } : {}),
          },
        },
        signal,
      );
      const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
      if (response.ok && body) return body;
      const error = errorFromResponse(response.status, body, response.headers.get('retry-after'));
      if (error.kind === 'auth' && attempt === 0) {
        // The access token may have ended early (or been revoked with its grant): the refresh grant says which.
        tokens.delete(auth.connectionId);
        continue;
      }
      throw noteQuota(error);
    }
  }

  const customerIdOf = (id: string) => {
    const digits = id.replace(/^customers\//, '');
    if (!/^\d{1,20}$/.test(digits))
      throw new GoogleAdsError(`"${id}" is not a Google Ads customer id.`, 'refused', 400);
    return digits;
  };

  return {
    settings,

    authorizeUrl({ state, codeChallenge, redirectUri }) {
      const query = new URLSearchParams({
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: GOOGLE_ADS_SCOPES.join(' '),
        access_type: 'offline',
        prompt: 'consent',
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      });
      return `${settings.authorizeUrl}?${query}`;
    },

    async exchangeCode(code, codeVerifier, redirectUri) {
      const body = await tokenRequest({
        grant_type: 'authorization_code',
        code,
        code_verifier: codeVerifier,
        redirect_uri: redirectUri,
      }).catch((error: unknown) => {
        // On this grant, invalid_grant is about the code (used, expired, or its verifier wrong), not a connection.
        if (error instanceof GoogleAdsError && error.kind === 'auth') {
          throw new GoogleAdsError(
            'Google refused the sign-in code: it was already used or has expired.',
            'refused',
            error.status,
            error.codes,
          );
        }
        throw error;
      });
      return {
        accessToken: body.access_token as string,
        refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
        expiresInSeconds: Number(body.expires_in) || 3600,
        scopes: typeof body.scope === 'string' ? body.scope.split(/\s+/).filter(Boolean) : [],
        idToken: typeof body.id_token === 'string' ? body.id_token : null,
      };
    },

    accessToken,

    async listAccessibleCustomers(auth, signal) {
      usage.listAccessibleCustomers += 1;
      const body = await apiCall(
        auth,
        `${apiBase}/customers:listAccessibleCustomers`,
        { method: 'GET' },
        null,
        signal,
      );
      const names = (body as { resourceNames?: unknown }).resourceNames;
      return Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : [];
    },

    async search<Row>(auth: GoogleAuth, customerId: string, query: string, options: SearchOptions = {}) {
      const id = customerIdOf(customerId);
      const login = options.loginCustomerId ? customerIdOf(options.loginCustomerId) : null;
      const rows: Row[] = [];
      let pageToken: string | undefined;
      do {
        usage.searchRequests += 1;
        const body = (await apiCall(
          auth,
          `${apiBase}/customers/${id}/googleAds:search`,
          { method: 'POST', body: JSON.stringify(pageToken ? { query, pageToken } : { query }) },
          login,
          options.signal,
        )) as { results?: Row[]; nextPageToken?: string };
        rows.push(...(body.results ?? []));
        pageToken = body.nextPageToken || undefined;
        if (options.maxRows !== undefined && rows.length >= options.maxRows) {
          return {
            rows: rows.slice(0, options.maxRows),
            truncated: pageToken !== undefined || rows.length > options.maxRows,
          };
        }
      } while (pageToken);
      return { rows, truncated: false };
    },

    quotaBackoffUntil: () => (backoffUntil > now() ? backoffUntil : 0),
    usage: () => ({ ...usage }),
    forget(connectionId) {
      tokens.delete(connectionId);
    },
  };
}

/** "14:05" of a moment, in UTC. */
export function hhmm(at: number): string {
  return new Date(at).toISOString().slice(11, 16);
}
