import type { GoogleAdsConditions, GoogleAdsTarget } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import type { ConditionResult } from '../../checks/checker.ts';
import type { ConnectionRow } from '../../modules/connections/connection.repository.ts';
import { createTokenCipher, newTokenKey, parseTokenKeys } from '../../lib/token-cipher.ts';
import { addDays, type HourFigures } from '../ads/baseline.ts';
import type { ShopOutage } from '../ads/linked-shop.ts';
import type { AccountState, AdState, GoogleAdsApi } from './google-ads-api.ts';
import {
  createGoogleAdsChecker,
  judgeAccount,
  judgeAds,
  judgeCampaigns,
  pauseWhat,
} from './google-ads.check.ts';
import { GoogleAdsError } from './google-ads.client.ts';

const target: GoogleAdsTarget = {
  connectionId: 'conn-1',
  customer: {
    resourceName: 'customers/2223334444',
    customerId: '2223334444',
    name: 'Hoodie Co',
    currency: 'USD',
    timeZone: 'UTC',
    loginCustomerId: '1112223333',
  },
  campaigns: [],
  ads: [],
  linkedMonitorId: null,
};

function ad(
  id: string,
  overrides: Partial<AdState> = {},
  campaign: Partial<AdState['campaign']> = {},
): AdState {
  return {
    resourceName: `customers/2223334444/adGroupAds/9~${id}`,
    adId: id,
    name: `Ad ${id}`,
    status: 'ENABLED',
    approvalStatus: 'APPROVED',
    policyTopics: [],
    adGroup: { adGroupId: '9', name: 'Brand', status: 'ENABLED' },
    ...overrides,
    campaign: {
      campaignId: '100',
      name: 'Hoodies',
      status: 'ENABLED',
      primaryStatus: 'ELIGIBLE',
      reasons: [],
      ...campaign,
    },
  };
}
const account = (ads: AdState[], status = 'ENABLED'): AccountState => ({
  name: 'Hoodie Co',
  status,
  ads,
  truncated: false,
});

describe('Google Ads conditions', () => {
  it('account_not_enabled says which status, as a fact', () => {
    expect(judgeAccount(target, account([])).ok).toBe(true);
    expect(judgeAccount(target, account([], 'SUSPENDED'))).toEqual({
      key: 'account_not_enabled',
      ok: false,
      confirmed: true,
      summary:
        'Google Ads account Hoodie Co (222-333-4444) is suspended (status SUSPENDED): it serves no ads.',
    });
  });

  it('ad_disapproved names the ad and its policy topic; whole account: only ads meant to serve', () => {
    const state = account([
      ad('1', { approvalStatus: 'DISAPPROVED', policyTopics: ['DESTINATION_NOT_WORKING'] }),
      ad('2', { approvalStatus: 'DISAPPROVED', status: 'PAUSED' }),
      ad('3'),
    ]);
    expect(judgeAds(target, state)).toEqual({
      key: 'ad_disapproved',
      ok: false,
      confirmed: true,
      summary:
        'An ad in Hoodie Co (222-333-4444): “Ad 1” (Hoodies › Brand) is disapproved for DESTINATION_NOT_WORKING.',
    });
    // A watched ad counts even when paused.
    const watching = {
      ...target,
      ads: [
        {
          resourceName: state.ads[1]!.resourceName,
          adId: '2',
          name: 'Ad 2',
          adGroupName: 'Brand',
          campaignId: '100',
          campaignName: 'Hoodies',
        },
      ],
    };
    expect(judgeAds(watching, state).summary).toMatch(/“Ad 2” \(Hoodies › Brand\) is disapproved\.$/);
    const limited = account([
      ad('4', { approvalStatus: 'APPROVED_LIMITED', policyTopics: ['TRADEMARKS_IN_AD_TEXT'] }),
    ]);
    expect(judgeAds(target, limited).summary).toMatch(/approved with limits for TRADEMARKS_IN_AD_TEXT/);
    expect(judgeAds(target, account([ad('5')])).ok).toBe(true);
  });

  it('campaign_not_eligible gives primary status reasons, for enabled campaigns or the watched ones', () => {
    const state = account([
      ad('1', {}, { primaryStatus: 'LIMITED', reasons: ['BUDGET_CONSTRAINED'] }),
      ad('2', {}, { campaignId: '200', name: 'Paused', status: 'PAUSED', primaryStatus: 'NOT_ELIGIBLE' }),
    ]);
    expect(judgeCampaigns(target, state)).toEqual({
      key: 'campaign_not_eligible',
      ok: false,
      summary: 'A campaign in Hoodie Co (222-333-4444): “Hoodies” is limited (budget constrained).',
    });
    const watching = {
      ...target,
      campaigns: [
        { campaignId: '200', name: 'Paused' },
        { campaignId: '300', name: 'Gone' },
      ],
    };
    expect(judgeCampaigns(watching, state).summary).toBe(
      '2 campaigns in Hoodie Co (222-333-4444): “Paused” is not eligible to serve and “Gone” has no ads left, or was removed.',
    );
    expect(pauseWhat(watching, state)).toBe('the campaigns “Paused” and “Gone”');
    expect(pauseWhat(target, state)).toBe('the campaigns of Hoodie Co');
  });
});

const conditions = (overrides: Partial<GoogleAdsConditions> = {}): GoogleAdsConditions => ({
  account_not_enabled: { enabled: true },
  ad_disapproved: { enabled: true },
  campaign_not_eligible: { enabled: true },
  zero_impressions: { enabled: true },
  spend_anomaly: { enabled: true, changePercent: 50 },
  connection_lost: { enabled: true },
  shop_cannot_sell: { enabled: true },
  ...overrides,
});

describe('Google Ads checker', () => {
  const cipher = createTokenCipher(parseTokenKeys(newTokenKey('t')));
  const row = {
    id: 'conn-1',
    provider: 'google',
    account: '1082',
    name: 'merchant@vigil.test',
    status: 'active',
    statusReason: null,
    tokenCiphertext: cipher.seal('1//refresh', 'google:1082'),
  } as ConnectionRow;
  const NOW = new Date('2025-03-04T15:30:00Z');

  /** Hourly figures: `perHour` impressions and $10 every hour of each baseline week, and today as given. */
  function figures(today: { impressions: number; spend: number }, weeks = 4): HourFigures[] {
    const points: HourFigures[] = [];
    for (let w = 1; w <= weeks; w++) {
      for (let hour = 0; hour < 24; hour++)
        points.push({ date: addDays('2025-03-04', -7 * w), hour, spend: 10, impressions: 100 });
    }
    for (let hour = 0; hour <= 15; hour++) points.push({ date: '2025-03-04', hour, ...today });
    return points;
  }

  function setup(options: {
    state?: () => Promise<AccountState>;
    points?: HourFigures[];
    outage?: ShopOutage | null;
  }) {
    const lost: string[] = [];
    const calls = { state: 0, figures: 0 };
    const api = {
      client: { forget: () => undefined },
      accountState: async () => {
        calls.state++;
        return (options.state ?? (async () => account([ad('1')])))();
      },
      hourlyFigures: async () => {
        calls.figures++;
        return options.points ?? figures({ impressions: 100, spend: 10 });
      },
    } as unknown as GoogleAdsApi;
    const checker = createGoogleAdsChecker({
      connections: {
        findMany: async () => [row],
        setStatus: async (ids) => {
          lost.push(...ids);
          return [];
        },
      },
      cipher,
      api,
      linkedShops: { outageOf: async () => options.outage ?? null },
      log: { warn: () => undefined },
      now: () => NOW.getTime(),
    });
    const check = (t: GoogleAdsTarget = target, c = conditions(), slotAt = NOW) =>
      checker.check({
        target: t,
        conditions: c,
        now: NOW,
        slotAt,
        signal: new AbortController().signal,
      });
    return { checker, check, calls, lost };
  }
  const byKey = (outcome: { conditions: ConditionResult[] }) =>
    Object.fromEntries(outcome.conditions.map((c) => [c.key, c])) as Record<string, ConditionResult>;

  it('serves every monitor of one account with one state read and one figures read', async () => {
    const { check, calls, checker } = setup({});
    const outcomes = await Promise.all([
      check(),
      check(),
      check({ ...target, campaigns: [{ campaignId: '100', name: 'Hoodies' }] }),
    ]);
    expect(calls).toEqual({ state: 1, figures: 1 });
    expect(checker.operations()).toEqual({ stateReads: 1, figureReads: 1 });
    expect(outcomes.every((o) => o.conditions.every((c) => c.ok === true))).toBe(true);
    expect(checker.slotGroup!(target)).toBe('conn-1 2223334444');

    // Check now has a slot of its own: it reads the account's state afresh; its hourly figures, which Google
    // reports hours late anyway, are read at most every 15 minutes to spare the developer token's operations.
    await check(target, conditions(), new Date(NOW.getTime() + 5000));
    expect(calls).toEqual({ state: 2, figures: 1 });
  });

  it('reads no figures when no monitor needs them', async () => {
    const { check, calls } = setup({});
    await check(
      target,
      conditions({
        zero_impressions: { enabled: false },
        spend_anomaly: { enabled: false, changePercent: 50 },
      }),
    );
    expect(calls).toEqual({ state: 1, figures: 0 });
  });

  it('judges impressions and spend against the same weekday, and says when history is too short', async () => {
    const silent = byKey(await setup({ points: figures({ impressions: 0, spend: 0 }) }).check());
    expect(silent.zero_impressions).toMatchObject({ ok: false });
    expect(silent.zero_impressions!.summary).toMatch(
      /^No impressions so far today by 15:30; Tuesdays usually have/,
    );
    expect(silent.spend_anomaly).toMatchObject({ ok: false });
    const young = byKey(await setup({ points: figures({ impressions: 0, spend: 0 }, 1) }).check());
    expect(young.zero_impressions).toMatchObject({ ok: null });
    expect(young.zero_impressions!.summary).toMatch(
      /too little history to compare: 1 of the last 4 Tuesdays/,
    );
  });

  it('holds back the account’s own alerts while the linked shop cannot sell, and says what to pause', async () => {
    const outage = {
      monitorId: 'm',
      name: 'Hoodie shop',
      since: new Date('2025-03-04T14:00:00Z'),
      summary: 'HTTP 503',
    };
    const { check } = setup({
      outage,
      state: async () =>
        account([ad('1', { approvalStatus: 'DISAPPROVED', policyTopics: ['DESTINATION_NOT_WORKING'] })]),
    });
    const results = byKey(await check({ ...target, linkedMonitorId: 'm' }));
    expect(results.shop_cannot_sell).toMatchObject({ ok: false, confirmed: true });
    expect(results.shop_cannot_sell!.summary).toMatch(
      /^Ads are spending while Hoodie shop cannot sell \(HTTP 503, since 14:00 UTC\)\. The ads spent \$20\.00 since then: pause the campaigns of Hoodie Co until it is back\.$/,
    );
    expect(results.ad_disapproved).toMatchObject({ ok: null });
    expect(results.ad_disapproved!.summary).toMatch(/^held back while Hoodie shop cannot sell/);
  });

  it('marks the connection lost when Google refuses the grant', async () => {
    const { check, lost } = setup({
      state: async () => {
        throw new GoogleAdsError(
          'Google refused the connection’s refresh token (invalid_grant).',
          'auth',
          400,
          ['invalid_grant'],
        );
      },
    });
    const results = byKey(await check());
    expect(lost).toEqual(['conn-1']);
    expect(results.connection_lost).toMatchObject({ ok: false, confirmed: true });
    expect(results.connection_lost!.summary).toMatch(
      /^Vigil lost access to Google Ads account Hoodie Co \(222-333-4444\) through merchant@vigil.test\. Google refused/,
    );
    expect(results.ad_disapproved).toMatchObject({ ok: null });
  });

  it('answers "not checked" with the next try while the quota is exhausted, and reads again after', async () => {
    let quota = true;
    const { check, calls } = setup({
      state: async () => {
        if (quota)
          throw new GoogleAdsError(
            'Google Ads API quota exhausted: next try at 15:31 UTC',
            'quota',
            429,
            [],
            60_000,
          );
        return account([ad('1')]);
      },
    });
    const first = await check();
    // Every condition that needed the read; a monitor with no linked shop needs none for that one.
    expect(first.conditions.filter((c) => c.key !== 'shop_cannot_sell').every((c) => c.ok === null)).toBe(
      true,
    );
    expect(first.conditions[0]!.summary).toBe('Google Ads API quota exhausted: next try at 15:31 UTC');
    quota = false;
    // A failed read is not kept: the next check asks again (the client holds the call back while it must).
    expect((await check()).conditions.every((c) => c.ok === true)).toBe(true);
    expect(calls.state).toBe(2);
  });

  it('reads a cancelled account as not enabled, and a customer the person lost as a lost connection', async () => {
    const cancelled = byKey(
      await setup({
        state: async () => {
          throw new GoogleAdsError('refused', 'refused', 403, ['authorizationError.CUSTOMER_NOT_ENABLED']);
        },
      }).check(),
    );
    expect(cancelled.account_not_enabled).toMatchObject({ ok: false, confirmed: true });
    expect(cancelled.connection_lost).toMatchObject({ ok: true });
    const gone = byKey(
      await setup({
        state: async () => {
          throw new GoogleAdsError('refused', 'refused', 403, ['authorizationError.USER_PERMISSION_DENIED']);
        },
      }).check(),
    );
    expect(gone.connection_lost).toMatchObject({ ok: false, confirmed: true });
    expect(gone.connection_lost!.summary).toMatch(/can no longer reach Google Ads account Hoodie Co/);
  });
});
