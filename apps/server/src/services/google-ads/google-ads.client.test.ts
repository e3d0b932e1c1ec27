import { describe, expect, it } from 'vitest';
import type { GoogleAdsSettings } from '../../config.ts';
import {
  createGoogleAdsClient,
  durationMs,
  errorFromResponse,
  errorFromTokenResponse,
  idTokenClaims,
} from './google-ads.client.ts';

const failure = (status: number, grpc: string, errorCode: Record<string, string>, more: object = {}) => ({
  error: {
    code: status,
    message: 'Request contains an invalid argument.',
    status: grpc,
    details: [
      {
        '@type': 'type.googleapis.com/google.ads.googleads.v21.errors.GoogleAdsFailure',
        errors: [{ errorCode, message: 'Google says why.', ...more }],
        requestId: 'abc',
      },
    ],
  },
});

const settings: GoogleAdsSettings = {
  clientId: 'client.apps.googleusercontent.com',
  clientSecret: 'secret',
  developerToken: 'dev-token',
  apiVersion: 'v21',
  apiUrl: 'https://ads.example',
  authorizeUrl: 'https://accounts.example/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth.example/token',
};

describe('Google Ads error mapping', () => {
  it('reads a dead token from UNAUTHENTICATED and authenticationError codes', () => {
    const revoked = errorFromResponse(
      401,
      failure(401, 'UNAUTHENTICATED', { authenticationError: 'OAUTH_TOKEN_REVOKED' }),
    );
    expect(revoked).toMatchObject({ kind: 'auth', codes: ['authenticationError.OAUTH_TOKEN_REVOKED'] });
    expect(revoked.message).toMatch(/Google says why/);
    expect(
      errorFromResponse(401, failure(401, 'UNAUTHENTICATED', { authenticationError: 'NOT_ADS_USER' })).kind,
    ).toBe('auth');
    const scope = {
      error: {
        code: 403,
        status: 'PERMISSION_DENIED',
        message: 'Request had insufficient authentication scopes.',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT' },
        ],
      },
    };
    expect(errorFromResponse(403, scope).kind).toBe('auth');
  });

  it('reads quota errors with their retry delay', () => {
    const quota = errorFromResponse(
      429,
      failure(
        429,
        'RESOURCE_EXHAUSTED',
        { quotaError: 'RESOURCE_EXHAUSTED' },
        {
          details: { quotaErrorDetails: { rateScope: 'DEVELOPER', retryDelay: '120s' } },
        },
      ),
    );
    expect(quota).toMatchObject({ kind: 'quota', retryAfterMs: 120_000 });
    expect(errorFromResponse(429, null, '7')).toMatchObject({ kind: 'quota', retryAfterMs: 7000 });
    expect(durationMs('1.5s')).toBe(1500);
  });

  it('reads an account the person cannot reach and a bad query as refused, 5xx as unavailable', () => {
    const denied = errorFromResponse(
      403,
      failure(403, 'PERMISSION_DENIED', { authorizationError: 'USER_PERMISSION_DENIED' }),
    );
    expect(denied.kind).toBe('refused');
    expect(denied.has('USER_PERMISSION_DENIED')).toBe(true);
    expect(
      errorFromResponse(
        403,
        failure(403, 'PERMISSION_DENIED', { authorizationError: 'CUSTOMER_NOT_ENABLED' }),
      ).kind,
    ).toBe('refused');
    expect(
      errorFromResponse(400, failure(400, 'INVALID_ARGUMENT', { queryError: 'UNRECOGNIZED_FIELD' })).kind,
    ).toBe('refused');
    expect(errorFromResponse(503, { error: { code: 503, status: 'UNAVAILABLE' } }).kind).toBe('unavailable');
    expect(errorFromResponse(502, '<html>').kind).toBe('unavailable');
    // Vigil's own developer token refused: no person's connection is lost for it.
    expect(
      errorFromResponse(
        401,
        failure(401, 'UNAUTHENTICATED', { authenticationError: 'DEVELOPER_TOKEN_INVALID' }),
      ).kind,
    ).toBe('unavailable');
  });

  it('reads invalid_grant on refresh as a dead grant', () => {
    expect(
      errorFromTokenResponse(400, {
        error: 'invalid_grant',
        error_description: 'Token has been expired or revoked.',
      }),
    ).toMatchObject({ kind: 'auth' });
    expect(errorFromTokenResponse(401, { error: 'invalid_client' }).kind).toBe('unavailable');
    expect(errorFromTokenResponse(500, null).kind).toBe('unavailable');
  });

  it('reads sub and email from the id_token, for this app only', () => {
    const token = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;
    expect(
      idTokenClaims(token({ sub: '42', email: 'a@b.test', aud: settings.clientId }), settings.clientId),
    ).toEqual({
      sub: '42',
      email: 'a@b.test',
    });
    expect(() => idTokenClaims(token({ sub: '42', aud: 'other' }), settings.clientId)).toThrow(/another app/);
  });
});

describe('Google Ads client', () => {
  function fakeGoogle(answers: ((url: string, init: RequestInit) => Response)[]) {
    const calls: { url: string; headers: Record<string, string>; body: string }[] = [];
    const fetchImpl = (async (input: string | URL, init: RequestInit = {}) => {
      const url = String(input);
      calls.push({ url, headers: init.headers as Record<string, string>, body: String(init.body ?? '') });
      const answer = url.endsWith('/token')
        ? () => Response.json({ access_token: `ya29.${calls.length}`, expires_in: 3599 })
        : answers.shift()!;
      return answer(url, init);
    }) as typeof fetch;
    return { calls, fetchImpl };
  }
  const auth = { connectionId: 'c1', refreshToken: '1//refresh' };

  it('asks for offline access with consent and a PKCE S256 challenge', () => {
    const client = createGoogleAdsClient({ settings });
    const url = new URL(
      client.authorizeUrl({ state: 's', codeChallenge: 'cc', redirectUri: 'https://v.test/app/oauth' }),
    );
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      access_type: 'offline',
      prompt: 'consent',
      scope: 'openid email https://www.googleapis.com/auth/adwords',
      code_challenge: 'cc',
      code_challenge_method: 'S256',
      response_type: 'code',
    });
  });

  it('pages by nextPageToken with the developer token and login-customer-id, refreshing the token once', async () => {
    let now = 1_000_000;
    const { calls, fetchImpl } = fakeGoogle([
      () => Response.json({ results: [{ n: 1 }], nextPageToken: 'p2' }),
      () => Response.json({ results: [{ n: 2 }] }),
      () => Response.json({ results: [{ n: 3 }] }),
    ]);
    const client = createGoogleAdsClient({ settings, fetch: fetchImpl, now: () => now });
    const { rows } = await client.search(auth, 'customers/2223334444', 'SELECT customer.id FROM customer', {
      loginCustomerId: '1112223333',
    });
    expect(rows).toEqual([{ n: 1 }, { n: 2 }]);
    const searches = calls.filter((c) => c.url.includes('googleAds:search'));
    expect(searches[0]!.url).toBe('https://ads.example/v21/customers/2223334444/googleAds:search');
    expect(searches[0]!.headers).toMatchObject({
      authorization: 'Bearer ya29.1',
      'developer-token': 'dev-token',
      'login-customer-id': '1112223333',
    });
    expect(JSON.parse(searches[1]!.body)).toEqual({
      query: 'SELECT customer.id FROM customer',
      pageToken: 'p2',
    });
    expect(client.usage().tokenRefreshes).toBe(1);
    // Less than 5 minutes left: refreshed before use.
    now += 3599_000 - 4 * 60_000;
    await client.search(auth, '2223334444', 'SELECT customer.id FROM customer');
    expect(client.usage().tokenRefreshes).toBe(2);
  });

  it('after a quota error, makes no call until the retry delay ends', async () => {
    let now = 1_000_000;
    const { calls, fetchImpl } = fakeGoogle([
      () =>
        Response.json(
          failure(
            429,
            'RESOURCE_EXHAUSTED',
            { quotaError: 'RESOURCE_TEMPORARILY_EXHAUSTED' },
            {
              details: { quotaErrorDetails: { retryDelay: '60s' } },
            },
          ),
          { status: 429 },
        ),
      () => Response.json({ resourceNames: ['customers/1'] }),
    ]);
    const warnings: unknown[] = [];
    const client = createGoogleAdsClient({
      settings,
      fetch: fetchImpl,
      now: () => now,
      log: { warn: (...a: unknown[]) => warnings.push(a) },
    });
    await expect(client.listAccessibleCustomers(auth)).rejects.toMatchObject({
      kind: 'quota',
      retryAfterMs: 60_000,
    });
    const made = calls.length;
    now += 30_000;
    await expect(client.listAccessibleCustomers(auth)).rejects.toThrow(
      /quota exhausted: next try at \d\d:\d\d UTC/,
    );
    expect(calls.length).toBe(made);
    expect(warnings).toHaveLength(1);
    now += 30_001;
    await expect(client.listAccessibleCustomers(auth)).resolves.toEqual(['customers/1']);
  });
});
