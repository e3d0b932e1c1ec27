import { describe, expect, it } from 'vitest';
import {
  aFacebookAccount,
  aMetaAdsMonitor,
  catalogue,
  metaConnection,
} from '../../../../test/monitor-fixtures.ts';
import { checkConditions, defaultConditions } from '../conditions.ts';
import {
  AD_ACCOUNT_NEEDED_MESSAGE,
  META_CONNECTION_NEEDED_MESSAGE,
  metaAdsService,
  type MetaAdsTargetValues,
} from './index.ts';
import { accountStatusWords, adSetStatusBadge, budgetWords, spendWords } from './meta-ads-format.ts';

const definition = catalogue.list.find((entry) => entry.service === 'facebook_ads')!;
const hoodieAds = { accountId: '1010101010', name: 'Hoodie Co Ads', currency: 'USD' };
const base: MetaAdsTargetValues = {
  connectionId: metaConnection.connectionId,
  account: hoodieAds,
  adSets: [{ adSetId: '23850000000001', name: 'Ad set 1', campaignName: 'Hoodies' }],
  linkedMonitorId: null,
};

function check(
  target: Partial<MetaAdsTargetValues>,
  change: (c: ReturnType<typeof defaultConditions>) => void = () => {},
) {
  const values = defaultConditions(definition);
  change(values);
  const errors: Record<string, string> = {};
  const conditions = checkConditions(errors, definition, values);
  const checked = metaAdsService.check({ ...base, ...target }, conditions);
  return { errors: { ...errors, ...checked.errors }, part: checked.part };
}

describe('meta ads service', () => {
  it('starts empty, or from the monitor’s ad account and ad sets', () => {
    expect(metaAdsService.initialTarget()).toEqual({
      connectionId: '',
      account: null,
      adSets: [],
      linkedMonitorId: null,
    });
    expect(metaAdsService.initialTarget(aMetaAdsMonitor())).toEqual({
      connectionId: metaConnection.connectionId,
      account: hoodieAds,
      adSets: aMetaAdsMonitor().target.adSets,
      linkedMonitorId: null,
    });
  });

  it('sends the connection, the account id and the chosen ad sets with the conditions', () => {
    const { errors, part } = check({}, (c) => {
      c.spend_cap = { enabled: true, percent: 80 };
    });
    expect(errors).toEqual({});
    expect(part).toEqual({
      service: 'facebook_ads',
      target: {
        connectionId: metaConnection.connectionId,
        accountId: '1010101010',
        adSetIds: ['23850000000001'],
        linkedMonitorId: null,
      },
      conditions: {
        account_status: { enabled: true },
        adset_disapproved: { enabled: true },
        spend_cap: { enabled: true, percent: 80 },
        spend_anomaly: { enabled: true, changePercent: 50 },
        connection_lost: { enabled: true },
        shop_cannot_sell: { enabled: true },
      },
    });
  });

  it('watches every active ad set when none is chosen', () => {
    expect(check({ adSets: [] }).part?.target).toMatchObject({ adSetIds: [] });
  });

  it('needs a Facebook account, then an ad account; refuses a spend cap share outside the catalogue', () => {
    expect(check({ connectionId: '', account: null }).errors).toEqual({
      'target.connectionId': META_CONNECTION_NEEDED_MESSAGE,
    });
    expect(check({ account: null }).errors).toEqual({ 'target.accountId': AD_ACCOUNT_NEEDED_MESSAGE });
    expect(
      check({}, (c) => {
        c.spend_cap = { enabled: true, percent: 20 };
      }).errors['conditions.spend_cap.percent'],
    ).toMatch(/50 to 100/);
  });

  it('refuses more ad sets than a monitor watches', () => {
    const adSets = Array.from({ length: 51 }, (_, n) => ({
      adSetId: String(n + 1),
      name: `S${n}`,
      campaignName: 'C',
    }));
    expect(check({ adSets }).errors['target.adSetIds']).toBe('Choose at most 50 ad sets for one monitor.');
  });

  it('maps the server’s target paths onto its fields', () => {
    const fieldOf = metaAdsService.formFieldOf!;
    expect(fieldOf('target')).toBe('target.connectionId');
    expect(fieldOf('target.accountId')).toBe('target.accountId');
    expect(fieldOf('target.adSetIds.2')).toBe('target.adSetIds');
    expect(fieldOf('target.linkedMonitorId')).toBe('target.linkedMonitorId');
  });
});

describe('meta ads formatting', () => {
  it('says an account’s status in words, with the disable reason when not active', () => {
    expect(accountStatusWords(aFacebookAccount(1))).toBe('Active');
    expect(
      accountStatusWords(
        aFacebookAccount(2, { accountStatus: 2, statusLabel: 'disabled', disableReason: 1 }),
      ),
    ).toBe('Disabled: ads integrity policy');
    expect(
      accountStatusWords(aFacebookAccount(3, { accountStatus: 9, statusLabel: 'in a grace period' })),
    ).toBe('In a grace period');
  });

  it('formats spend, cap and budgets in the account’s currency', () => {
    expect(spendWords(aFacebookAccount(1))).toBe('Spent $1,234.56 of a $5,000.00 spend cap');
    expect(spendWords(aFacebookAccount(1, { spendCap: null, currency: 'EUR' }))).toBe(
      'Spent €1,234.56 · no spend cap',
    );
    expect(budgetWords({ dailyBudget: '60.00', lifetimeBudget: null }, 'USD')).toBe('Daily budget $60.00');
    expect(budgetWords({ dailyBudget: null, lifetimeBudget: '900' }, 'USD')).toBe('Lifetime budget $900.00');
    expect(budgetWords({ dailyBudget: null, lifetimeBudget: null }, 'USD')).toBe(
      'Budget set on the campaign',
    );
    expect(adSetStatusBadge('WITH_ISSUES')).toEqual({ label: 'With issues', tone: 'red' });
  });
});
