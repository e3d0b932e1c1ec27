import { describe, expect, it } from 'vitest';
import {
  aGoogleAdsMonitor,
  catalogue,
  connectionId,
  googleConnection,
  googleCustomers,
} from '../../../../test/monitor-fixtures.ts';
import { checkConditions, defaultConditions } from '../conditions.ts';
import {
  ADS_NEEDED_MESSAGE,
  CUSTOMER_NEEDED_MESSAGE,
  GOOGLE_CONNECTION_NEEDED_MESSAGE,
  googleAdsService,
  type ChosenAd,
  type GoogleAdsTargetValues,
} from './index.ts';
import {
  advertisableCustomers,
  approvalBadge,
  customerTitle,
  primaryStatusBadge,
  watchedSummary,
} from './google-ads-format.ts';

const definition = catalogue.list.find((entry) => entry.service === 'google_ads')!;
const hoodieCo = {
  resourceName: 'customers/2223334444',
  customerId: '2223334444',
  name: 'Hoodie Co',
  currency: 'USD',
};
const anAd = (n: number): ChosenAd => ({
  resourceName: `customers/2223334444/adGroupAds/401~${500 + n}`,
  adId: String(500 + n),
  name: `Ad ${n}`,
  adGroupName: 'Zip hoodies',
  campaignId: '301',
  campaignName: 'Hoodies — search',
});
const base: GoogleAdsTargetValues = {
  connectionId: googleConnection.connectionId,
  customer: hoodieCo,
  watch: 'chosen',
  campaigns: [],
  ads: [anAd(1), anAd(2)],
  linkedMonitorId: null,
};

function check(target: Partial<GoogleAdsTargetValues>) {
  const values = defaultConditions(definition);
  const errors: Record<string, string> = {};
  const conditions = checkConditions(errors, definition, values);
  const checked = googleAdsService.check({ ...base, ...target }, conditions);
  return { errors: { ...errors, ...checked.errors }, part: checked.part };
}

describe('google ads service', () => {
  it('starts empty, or from the monitor’s account, campaigns and ads', () => {
    expect(googleAdsService.initialTarget()).toEqual({
      connectionId: '',
      customer: null,
      watch: 'account',
      campaigns: [],
      ads: [],
      linkedMonitorId: null,
    });
    const monitor = aGoogleAdsMonitor({
      target: { ...aGoogleAdsMonitor().target, linkedMonitorId: '11111111-1111-4111-8111-111111111111' },
    });
    expect(googleAdsService.initialTarget(monitor)).toEqual({
      connectionId: googleConnection.connectionId,
      customer: hoodieCo,
      watch: 'chosen',
      campaigns: [],
      ads: monitor.target.ads,
      linkedMonitorId: '11111111-1111-4111-8111-111111111111',
    });
    const whole = aGoogleAdsMonitor({ target: { ...monitor.target, ads: [] } });
    expect(googleAdsService.initialTarget(whole).watch).toBe('account');
  });

  it('sends the connection, the customer’s resource name and the chosen ads with the conditions', () => {
    const { errors, part } = check({ linkedMonitorId: '11111111-1111-4111-8111-111111111111' });
    expect(errors).toEqual({});
    expect(part).toEqual({
      service: 'google_ads',
      target: {
        connectionId: googleConnection.connectionId,
        customer: 'customers/2223334444',
        campaignIds: [],
        adIds: [anAd(1).resourceName, anAd(2).resourceName],
        linkedMonitorId: '11111111-1111-4111-8111-111111111111',
      },
      conditions: {
        account_not_enabled: { enabled: true },
        ad_disapproved: { enabled: true },
        campaign_not_eligible: { enabled: true },
        zero_impressions: { enabled: true },
        spend_anomaly: { enabled: true, changePercent: 50 },
        connection_lost: { enabled: true },
        shop_cannot_sell: { enabled: true },
      },
    });
  });

  it('watches the whole account with no campaigns or ads, keeping the choice in the form', () => {
    const { part } = check({ watch: 'account', campaigns: [{ campaignId: '301', name: 'x' }] });
    expect(part?.target).toMatchObject({ campaignIds: [], adIds: [] });
  });

  it('needs a Google account, then a customer, then something chosen', () => {
    expect(check({ connectionId: '', customer: null }).errors).toEqual({
      'target.connectionId': GOOGLE_CONNECTION_NEEDED_MESSAGE,
    });
    expect(check({ customer: null }).errors).toEqual({ 'target.customer': CUSTOMER_NEEDED_MESSAGE });
    expect(check({ ads: [] }).errors).toEqual({ 'target.adIds': ADS_NEEDED_MESSAGE });
  });

  it('refuses more ads or campaigns than a monitor watches', () => {
    const ads = Array.from({ length: 51 }, (_, n) => anAd(n));
    expect(check({ ads }).errors['target.adIds']).toBe('Choose at most 50 ads for one monitor.');
    const campaigns = Array.from({ length: 51 }, (_, n) => ({ campaignId: String(n + 1), name: `C${n}` }));
    expect(check({ campaigns }).errors['target.campaignIds']).toBe(
      'Choose at most 50 campaigns for one monitor.',
    );
  });

  it('maps the server’s target paths onto its fields', () => {
    const fieldOf = googleAdsService.formFieldOf!;
    expect(fieldOf('target')).toBe('target.connectionId');
    expect(fieldOf('target.customer')).toBe('target.customer');
    expect(fieldOf('target.adIds.3')).toBe('target.adIds');
    expect(fieldOf('target.campaignIds.0')).toBe('target.campaignIds');
    expect(fieldOf('target.linkedMonitorId')).toBe('target.linkedMonitorId');
    expect(googleAdsService.shownErrors.test('target.adIds')).toBe(true);
  });

  it('keeps the choice for the same Google account, and starts afresh on another', () => {
    expect(googleAdsService.withConnection!(base, googleConnection)).toBe(base);
    expect(
      googleAdsService.withConnection!(
        { ...base, linkedMonitorId: 'm' },
        { ...googleConnection, connectionId: connectionId(13) },
      ),
    ).toEqual({
      connectionId: connectionId(13),
      customer: null,
      watch: 'account',
      campaigns: [],
      ads: [],
      linkedMonitorId: 'm',
    });
  });
});

describe('google ads formatting', () => {
  it('names accounts and what is watched', () => {
    expect(customerTitle(hoodieCo)).toBe('Hoodie Co (222-333-4444)');
    expect(watchedSummary(0, 0)).toBe('The whole account');
    expect(watchedSummary(0, 2)).toBe('2 ads');
    expect(watchedSummary(1, 1)).toBe('1 campaign and 1 ad');
  });

  it('words statuses as badges', () => {
    expect(approvalBadge('DISAPPROVED')).toEqual({ label: 'Disapproved', tone: 'red' });
    expect(approvalBadge('APPROVED_LIMITED')).toEqual({ label: 'Approved (limited)', tone: 'yellow' });
    expect(primaryStatusBadge('NOT_ELIGIBLE')).toEqual({ label: 'Not eligible', tone: 'red' });
    expect(primaryStatusBadge('PAUSED')).toEqual({ label: 'Paused', tone: 'gray' });
  });

  it('lists the advertisable accounts: a manager’s clients, not the manager', () => {
    expect(advertisableCustomers(googleCustomers).map((customer) => customer.name)).toEqual([
      'Hoodie Co',
      'Sock Shop',
      'Own Shop',
    ]);
  });
});
