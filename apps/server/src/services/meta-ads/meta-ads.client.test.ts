import { describe, expect, it } from 'vitest';
import { currencyDigits, minorToMajor, spendCapOf, toFacebookAccount } from './meta-ads.api.ts';
import {
  appsecretProof,
  createMetaClient,
  createUsageTracker,
  kindOf,
  MetaError,
  metaErrorOf,
  parseUsage,
} from './meta-ads.client.ts';

const SETTINGS = {
  appId: '900000000000001',
  appSecret: 'app-secret',
  graphVersion: 'v21.0',
  graphUrl: 'https://graph.test',
  dialogUrl: 'https://www.test',
};

const headersOf = (values: Record<string, unknown>) => {
  const map = new Map(Object.entries(values).map(([k, v]) => [k.toLowerCase(), JSON.stringify(v)]));
  return (name: string) => map.get(name);
};

const businessUsage = (percent: number, regain = 0, type = 'ads_management') => ({
  'X-Business-Use-Case-Usage': {
    '2000000000001': [
      {
        type,
        call_count: percent,
        total_cputime: 1,
        total_time: 1,
        estimated_time_to_regain_access: regain,
        ads_api_access_tier: 'development_access',
      },
    ],
  },
});

describe('Graph errors', () => {
  it('maps each documented code to what Vigil does about it', () => {
    for (const code of [190, 102]) expect(kindOf(code, 400)).toBe('auth');
    for (const code of [4, 17, 32, 613, 80000, 80004, 80014]) expect(kindOf(code, 400)).toBe('rate');
    for (const code of [100, 200, 10, 294]) expect(kindOf(code, 400)).toBe('refused');
    for (const code of [1, 2]) expect(kindOf(code, 500)).toBe('unavailable');
    expect(kindOf(undefined, 502)).toBe('unavailable');
    expect(kindOf(undefined, 0)).toBe('unavailable');
  });

  it('keeps the code, subcode and trace of Graph’s error body, for each 190 subcode', () => {
    for (const subcode of [463, 460, 458]) {
      const error = metaErrorOf(400, {
        error: {
          message: 'Error validating access token',
          type: 'OAuthException',
          code: 190,
          error_subcode: subcode,
          fbtrace_id: 'Abc',
        },
      });
      expect(error).toBeInstanceOf(MetaError);
      expect(error.kind).toBe('auth');
      expect(error.details).toMatchObject({ code: 190, subcode, fbtraceId: 'Abc', status: 400 });
      expect(error.message).toMatch(/no longer accepts/);
    }
  });
});

describe('usage headers', () => {
  it('reads the app’s, the business use case’s and the ad account’s shares and the time to regain access', () => {
    const usage = parseUsage(
      headersOf({
        'X-App-Usage': { call_count: 12, total_cputime: 30, total_time: 5 },
        ...businessUsage(81, 7),
        'X-Ad-Account-Usage': { acc_id_util_pct: 9.5, reset_time_duration: 100 },
      }),
    );
    expect(usage).toEqual({ appPercent: 30, accountPercent: 81, regainMinutes: 7, insightsRegainMinutes: 0 });
    expect(parseUsage(headersOf(businessUsage(100, 3, 'ads_insights')))).toMatchObject({
      regainMinutes: 0,
      insightsRegainMinutes: 3,
    });
    expect(parseUsage(() => 'not json')).toEqual({
      appPercent: null,
      accountPercent: null,
      regainMinutes: 0,
      insightsRegainMinutes: 0,
    });
  });

  it('slows down above 75 %, backs off an account until its regain time, and the app on 4 / 17', () => {
    let now = 1_000_000;
    const tracker = createUsageTracker(() => now);
    tracker.record('1', parseUsage(headersOf(businessUsage(80))));
    expect(tracker.standing('1')).toEqual({ blockedUntil: 0, insightsBlockedUntil: 0, percent: 80 });
    expect(tracker.standing('2').percent).toBe(0);

    tracker.refused('1', new MetaError('x', 'rate', { code: 80004, retryAt: now + 5 * 60_000 }));
    expect(tracker.standing('1').blockedUntil).toBe(now + 5 * 60_000);
    expect(tracker.standing('2').blockedUntil).toBe(0);

    tracker.refused('3', new MetaError('x', 'rate', { code: 80000, retryAt: now + 2 * 60_000 }));
    expect(tracker.standing('3')).toMatchObject({ blockedUntil: 0, insightsBlockedUntil: now + 2 * 60_000 });

    tracker.refused('2', new MetaError('x', 'rate', { code: 4 }));
    expect(tracker.standing('9').blockedUntil).toBe(now + 60_000);
    now += 6 * 60_000;
    expect(tracker.standing('1').blockedUntil).toBe(0);
  });
});

describe('amounts', () => {
  it('turns Meta’s minor units into major-unit decimals by the currency’s digits', () => {
    expect(minorToMajor('123456', 'USD')).toBe('1234.56');
    expect(minorToMajor('5', 'EUR')).toBe('0.05');
    expect(minorToMajor(0, 'USD')).toBe('0.00');
    expect(minorToMajor('1500', 'JPY')).toBe('1500');
    expect(minorToMajor('99999999999999999', 'USD')).toBe('999999999999999.99');
    expect(currencyDigits('krw')).toBe(0);
    expect(spendCapOf('0', 'USD')).toBeNull();
    expect(spendCapOf('500000', 'USD')).toBe('5000.00');
  });

  it('answers an account in people’s words', () => {
    expect(
      toFacebookAccount({
        id: 'act_1010101010',
        account_id: '1010101010',
        name: 'Hoodie Co Ads',
        currency: 'USD',
        account_status: 7,
        disable_reason: 1,
        amount_spent: '123456',
        spend_cap: '0',
        timezone_name: 'America/Los_Angeles',
      }),
    ).toEqual({
      accountId: '1010101010',
      name: 'Hoodie Co Ads',
      currency: 'USD',
      timeZone: 'America/Los_Angeles',
      accountStatus: 7,
      statusLabel: 'pending risk review',
      disableReason: 1,
      disableReasonLabel: 'ads integrity policy',
      amountSpent: '1234.56',
      spendCap: null,
    });
  });
});

describe('the Graph client', () => {
  function stubbed(answers: (url: string, init: RequestInit) => Response) {
    const sent: { url: string; init: RequestInit }[] = [];
    let now = 1_700_000_000_000;
    const client = createMetaClient(SETTINGS, {
      now: () => now,
      fetch: (async (url: string, init: RequestInit) => {
        sent.push({ url, init });
        return answers(url, init);
      }) as typeof fetch,
    });
    return { client, sent, advance: (ms: number) => (now += ms) };
  }

  it('signs every call with appsecret_proof and pages by cursor', async () => {
    const { client, sent } = stubbed(() =>
      Response.json({
        data: [{ id: 'act_1' }],
        paging: { cursors: { before: 'B', after: 'A' }, next: 'https://graph.test/next' },
      }),
    );
    const page = await client.page('me/adaccounts', 'EAAtoken', { fields: 'name', limit: 10 });
    expect(page).toEqual({ data: [{ id: 'act_1' }], after: 'A', before: 'B' });
    const url = new URL(sent[0]!.url);
    expect(url.pathname).toBe('/v21.0/me/adaccounts');
    expect(url.searchParams.get('appsecret_proof')).toBe(appsecretProof('EAAtoken', 'app-secret'));
    expect(url.searchParams.get('fields')).toBe('name');
  });

  it('sends a batch as one request and answers each call on its own', async () => {
    const { client, sent } = stubbed(() =>
      Response.json([
        { code: 200, headers: [], body: JSON.stringify({ id: 'act_1', name: 'A' }) },
        {
          code: 400,
          headers: [],
          body: JSON.stringify({ error: { message: 'nope', code: 100, error_subcode: 33 } }),
        },
        null,
      ]),
    );
    const answers = await client.batch('EAAtoken', [
      { path: 'act_1', params: { fields: 'name' } },
      { path: 'act_2' },
      { path: 'act_3' },
    ]);
    expect(sent).toHaveLength(1);
    const body = new URLSearchParams(String(sent[0]!.init.body));
    expect(JSON.parse(body.get('batch')!)).toEqual([
      { method: 'GET', relative_url: 'act_1?fields=name' },
      { method: 'GET', relative_url: 'act_2' },
      { method: 'GET', relative_url: 'act_3' },
    ]);
    expect(body.get('appsecret_proof')).toBe(appsecretProof('EAAtoken', 'app-secret'));
    expect(answers[0]).toEqual({ ok: true, body: { id: 'act_1', name: 'A' } });
    expect(answers[1]).toMatchObject({ ok: false, error: { kind: 'refused' } });
    expect(answers[2]).toMatchObject({ ok: false, error: { kind: 'unavailable' } });
    expect(client.stats()).toEqual({ calls: 3, httpRequests: 1 });
    await expect(
      client.batch(
        't',
        Array.from({ length: 51 }, () => ({ path: 'me' })),
      ),
    ).rejects.toThrow(/at most 50/);
  });

  it('backs off an ad account after a rate limit until the time to regain access, calling nothing meanwhile', async () => {
    const { client, sent, advance } = stubbed(
      () =>
        new Response(
          JSON.stringify({
            error: { message: '(#80004) too many calls', code: 80004, error_subcode: 2446079 },
          }),
          {
            status: 400,
            headers: {
              'x-business-use-case-usage': JSON.stringify(businessUsage(100, 4)['X-Business-Use-Case-Usage']),
            },
          },
        ),
    );
    const first = await client.get('act_1', 't', {}, { account: '1' }).catch((e: MetaError) => e);
    expect(first).toMatchObject({ kind: 'rate', details: { code: 80004 } });
    expect((first as MetaError).details.retryAt).toBe(1_700_000_000_000 + 4 * 60_000);
    const second = await client.get('act_1', 't', {}, { account: '1' }).catch((e: MetaError) => e);
    expect(second).toMatchObject({ kind: 'rate' });
    expect(sent).toHaveLength(1);
    advance(4 * 60_000 + 1);
    await client.get('act_1', 't', {}, { account: '1' }).catch(() => undefined);
    expect(sent).toHaveLength(2);
  });

  it('tells a network failure and a timeout from Meta’s refusals', async () => {
    const { client } = stubbed(() => {
      throw new TypeError('fetch failed');
    });
    await expect(client.get('me', 't')).rejects.toMatchObject({
      kind: 'unavailable',
      details: { status: 0 },
    });
  });

  it('builds the login dialog URL and keeps the long-lived token’s expiry', async () => {
    const { client, sent } = stubbed((url) =>
      Response.json(
        url.includes('fb_exchange_token')
          ? { access_token: 'LONG', token_type: 'bearer', expires_in: 5_184_000 }
          : { access_token: 'SHORT', token_type: 'bearer', expires_in: 7200 },
      ),
    );
    const dialog = new URL(client.authorizeUrl('st', 'https://vigil.test/app/oauth'));
    expect(dialog.origin + dialog.pathname).toBe('https://www.test/v21.0/dialog/oauth');
    expect(Object.fromEntries(dialog.searchParams)).toEqual({
      client_id: SETTINGS.appId,
      redirect_uri: 'https://vigil.test/app/oauth',
      state: 'st',
      scope: 'ads_read',
      response_type: 'code',
    });
    expect(await client.exchangeCode('CODE', 'https://vigil.test/app/oauth')).toEqual({
      token: 'SHORT',
      expiresIn: 7200,
    });
    expect(await client.exchangeLongLived('SHORT')).toEqual({ token: 'LONG', expiresIn: 5_184_000 });
    const exchange = new URL(sent[1]!.url);
    expect(Object.fromEntries(exchange.searchParams)).toMatchObject({
      grant_type: 'fb_exchange_token',
      fb_exchange_token: 'SHORT',
      client_id: SETTINGS.appId,
      client_secret: 'app-secret',
    });
  });
});
