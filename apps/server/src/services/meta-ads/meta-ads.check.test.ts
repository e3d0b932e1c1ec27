import type { FacebookAccount, MetaAdsConditions, MetaAdsTarget } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import type { ConnectionRow } from '../../modules/connections/connection.repository.ts';
import { addDays, type HourFigures } from '../ads/baseline.ts';
import type { AccountRead } from './meta-ads.api.ts';
import {
  judgeAccountStatus,
  judgeAdSets,
  judgeAll,
  judgeConnection,
  judgeSpendCap,
  listNames,
  type ReadOutcome,
} from './meta-ads.check.ts';
import { MetaError } from './meta-ads.client.ts';

const NOW = new Date('2025-07-15T20:30:00Z'); // 13:30 in Los Angeles, a Tuesday
const DAY_MS = 86_400_000;

const target: MetaAdsTarget = {
  connectionId: 'c1',
  account: {
    accountId: '1010101010',
    name: 'Hoodie Co Ads',
    currency: 'USD',
    timeZone: 'America/Los_Angeles',
  },
  adSets: [
    { adSetId: '11', name: 'Hoodies — lookalike US', campaignName: 'Prospecting' },
    { adSetId: '12', name: 'Retargeting — 7 days', campaignName: 'Retargeting' },
  ],
  linkedMonitorId: null,
};

const conditions: MetaAdsConditions = {
  account_status: { enabled: true },
  adset_disapproved: { enabled: true },
  spend_cap: { enabled: true, percent: 90 },
  spend_anomaly: { enabled: true, changePercent: 50 },
  connection_lost: { enabled: true },
  shop_cannot_sell: { enabled: true },
};

function account(overrides: Partial<FacebookAccount> = {}): FacebookAccount {
  return {
    accountId: '1010101010',
    name: 'Hoodie Co Ads',
    currency: 'USD',
    timeZone: 'America/Los_Angeles',
    accountStatus: 1,
    statusLabel: 'active',
    disableReason: 0,
    disableReasonLabel: null,
    amountSpent: '1234.56',
    spendCap: '5000.00',
    ...overrides,
  };
}

const adSet = (id: string, name: string, effectiveStatus = 'ACTIVE', issues: string[] = []) =>
  [
    id,
    {
      adSetId: id,
      name,
      campaignName: 'C',
      effectiveStatus,
      dailyBudget: '60.00',
      lifetimeBudget: null,
      issues,
    },
  ] as const;

function read(overrides: Partial<AccountRead> = {}): AccountRead {
  return {
    account: account(),
    adSets: new Map([
      adSet('11', 'Hoodies — lookalike US'),
      adSet('12', 'Retargeting — 7 days'),
      adSet('13', 'Broad 18-44'),
    ]),
    problemAds: [],
    figures: [],
    figuresError: null,
    ...overrides,
  };
}

const row = (overrides: Partial<ConnectionRow> = {}): ConnectionRow =>
  ({
    id: 'c1',
    provider: 'meta',
    account: '10000000000001',
    name: 'Demo Merchant',
    status: 'active',
    statusReason: null,
    tokenCiphertext: 'v1.sealed',
    tokenExpiresAt: new Date(NOW.getTime() + 50 * DAY_MS),
    ...overrides,
  }) as ConnectionRow;

/** Two hours a day at $10 on each of the last four Tuesdays, and `today` dollars an hour today. */
function figures(today: number): HourFigures[] {
  const days = [1, 2, 3, 4].map((weeks) => addDays('2025-07-15', -7 * weeks));
  return [
    ...days.flatMap((date) => [10, 11].map((hour) => ({ date, hour, spend: 10, impressions: 100 }))),
    ...[10, 11].map((hour) => ({ date: '2025-07-15', hour, spend: today, impressions: 100 })),
  ];
}

const ok = (r: AccountRead = read()): ReadOutcome => ({ ok: true, read: r, figuresSkipped: null });

describe('Meta ads conditions', () => {
  it('account_status names the status and the disable reason, as a fact', () => {
    expect(judgeAccountStatus(read())).toEqual({
      key: 'account_status',
      ok: true,
      summary: 'Hoodie Co Ads is active',
    });
    expect(judgeAccountStatus(read({ account: account({ accountStatus: 7, disableReason: 1 }) }))).toEqual({
      key: 'account_status',
      ok: false,
      confirmed: true,
      summary: 'Hoodie Co Ads is pending risk review (account_status 7): ads integrity policy',
    });
    expect(judgeAccountStatus(read({ account: account({ accountStatus: 3 }) })).summary).toBe(
      'Hoodie Co Ads is unsettled (a payment failed) (account_status 3)',
    );
    expect(
      judgeAccountStatus(read({ account: account({ accountStatus: 2, disableReason: 15 }) })).summary,
    ).toBe('Hoodie Co Ads is disabled (account_status 2): compromised ad account');
  });

  it('adset_disapproved names the watched ad sets and ads with their issue, and ignores the others', () => {
    const rejected = read({
      adSets: new Map([
        adSet('11', 'Hoodies — lookalike US', 'DISAPPROVED', ['Ad not approved: Misleading claims']),
        adSet('12', 'Retargeting — 7 days'),
        adSet('13', 'Broad 18-44', 'WITH_ISSUES', ['Delivery issue']),
      ]),
      problemAds: [
        {
          adId: '21',
          name: 'Cart reminder',
          adSetId: '12',
          effectiveStatus: 'WITH_ISSUES',
          issues: ['Payment failed'],
        },
        { adId: '22', name: 'Broad video', adSetId: '13', effectiveStatus: 'DISAPPROVED', issues: [] },
      ],
    });
    expect(judgeAdSets(target, rejected)).toEqual({
      key: 'adset_disapproved',
      ok: false,
      confirmed: true,
      summary:
        'Hoodie Co Ads: Ad set Hoodies — lookalike US is DISAPPROVED: Ad not approved: Misleading claims; ad Cart reminder (in Retargeting — 7 days) is WITH_ISSUES: Payment failed',
    });
    // With no ad set chosen, every running ad set of the account is watched.
    const whole = judgeAdSets({ ...target, adSets: [] }, rejected);
    expect(whole.summary).toContain('Broad 18-44 is WITH_ISSUES');
    expect(whole.summary).toContain('and 1 more');
    expect(judgeAdSets(target, read())).toMatchObject({ ok: true });
  });

  it('spend_cap compares the amount spent with the cap; no cap passes', () => {
    expect(judgeSpendCap(read(), 90)).toEqual({
      key: 'spend_cap',
      ok: true,
      summary: 'Hoodie Co Ads has spent $1,234.56 of its $5,000.00 spend cap (24%)',
    });
    expect(judgeSpendCap(read({ account: account({ amountSpent: '4600.00' }) }), 90)).toEqual({
      key: 'spend_cap',
      ok: false,
      confirmed: true,
      summary: 'Hoodie Co Ads has spent $4,600.00 of its $5,000.00 spend cap (92%): its ads stop at the cap',
    });
    expect(judgeSpendCap(read({ account: account({ spendCap: null }) }), 90)).toEqual({
      key: 'spend_cap',
      ok: true,
      summary: 'Hoodie Co Ads has no spend cap',
    });
  });

  it('connection_lost fails on a lost connection and warns a week before the token ends', () => {
    expect(judgeConnection('Hoodie Co Ads', row(), null, NOW)).toMatchObject({ ok: true });
    const ending = row({ tokenExpiresAt: new Date(NOW.getTime() + 3 * DAY_MS) });
    expect(judgeConnection('Hoodie Co Ads', ending, null, NOW)).toEqual({
      key: 'connection_lost',
      ok: false,
      confirmed: true,
      summary: 'Meta access for Demo Merchant ends on 2025-07-18: reconnect in Vigil before then',
    });
    expect(judgeConnection('Hoodie Co Ads', row(), 'Meta no longer accepts it.', NOW)).toEqual({
      key: 'connection_lost',
      ok: false,
      confirmed: true,
      summary:
        'Vigil lost access to Hoodie Co Ads on Meta: Meta no longer accepts it. Reconnect the Facebook account in Vigil.',
    });
  });

  it('judges spend against the same weekday, and says when there is too little history', () => {
    const judged = (points: HourFigures[]) =>
      judgeAll({
        target,
        conditions,
        row: row(),
        active: true,
        outcome: ok(read({ figures: points })),
        outage: null,
        at: NOW,
      }).find((r) => r.key === 'spend_anomaly')!;
    expect(judged(figures(10))).toMatchObject({ ok: true });
    expect(judged(figures(40))).toMatchObject({ ok: false });
    expect(judged(figures(40)).summary).toMatch(/300% above the usual \$20\.00 by 13:30 on Tuesdays/);
    const young = judged(figures(10).filter((p) => p.date >= '2025-07-08'));
    expect(young).toMatchObject({ ok: null });
    expect(young.summary).toMatch(/too little history to compare: 1 of the last 4 Tuesdays/);
  });

  it('a rate limit leaves the conditions that need Meta not checked, with the next try, and opens nothing', () => {
    const retryAt = Date.parse('2025-07-15T20:45:00Z');
    const results = judgeAll({
      target,
      conditions,
      row: row(),
      active: true,
      outcome: {
        ok: false,
        error: new MetaError('Meta asked Vigil to slow down.', 'rate', { code: 80004, retryAt }),
      },
      outage: null,
      at: NOW,
    });
    const notChecked = results.filter((r) => r.ok === null).map((r) => r.key);
    expect(notChecked).toEqual(['account_status', 'adset_disapproved', 'spend_cap', 'spend_anomaly']);
    expect(results.find((r) => r.key === 'account_status')!.summary).toBe(
      'Meta rate limit reached for this ad account: next try at 20:45 UTC',
    );
    expect(results.some((r) => r.ok === false)).toBe(false);
  });

  it('a 190 fails connection_lost and leaves the rest unjudged', () => {
    const results = judgeAll({
      target,
      conditions,
      row: row(),
      active: true,
      outcome: {
        ok: false,
        error: new MetaError('Meta no longer accepts Vigil’s access.', 'auth', { code: 190 }),
      },
      outage: null,
      at: NOW,
    });
    expect(results.find((r) => r.key === 'connection_lost')).toMatchObject({ ok: false, confirmed: true });
    expect(results.filter((r) => r.ok === null)).toHaveLength(4);
  });

  it('while the linked shop cannot sell, raises one alert with the spend and holds back the account’s own', () => {
    const outage = {
      monitorId: 'm2',
      name: 'Hoodie shop',
      since: new Date('2025-07-15T19:00:00Z'),
      summary: 'HTTP 503 from https://hoodies.example',
    };
    const results = judgeAll({
      target: { ...target, linkedMonitorId: 'm2' },
      conditions,
      row: row(),
      active: true,
      outcome: ok(read({ account: account({ accountStatus: 2, disableReason: 3 }), figures: figures(10) })),
      outage,
      at: NOW,
    });
    const shop = results.find((r) => r.key === 'shop_cannot_sell')!;
    expect(shop).toMatchObject({ ok: false, confirmed: true });
    expect(shop.summary).toMatch(/^Ads are spending while Hoodie shop cannot sell \(HTTP 503/);
    expect(shop.summary).toMatch(
      /pause the ad sets Hoodies — lookalike US and Retargeting — 7 days until it is back\.$/,
    );
    expect(results.find((r) => r.key === 'account_status')).toMatchObject({ ok: null });
    expect(results.find((r) => r.key === 'account_status')!.summary).toMatch(
      /^held back while Hoodie shop cannot sell/,
    );
    const unlinked = judgeAll({
      target,
      conditions,
      row: row(),
      active: true,
      outcome: ok(),
      outage: null,
      at: NOW,
    });
    expect(unlinked.find((r) => r.key === 'shop_cannot_sell')).toMatchObject({ ok: true });
  });

  it('names a few things and counts the rest', () => {
    expect(listNames(['A'])).toBe('A');
    expect(listNames(['A', 'B', 'C'])).toBe('A, B and C');
    expect(listNames(['A', 'B', 'C', 'D', 'E'])).toBe('A, B, C and 2 more');
  });
});
