import { describe, expect, it } from 'vitest';
import {
  dateRange,
  dateToDay,
  dayToDate,
  seedOf,
  type AdsAd,
  type AdsCampaign,
  type AdsCustomer,
  type LocalClock,
} from './google-catalogue.ts';
import { GaqlError, parseGaql, runGaql } from './google-gaql.ts';

/** A customer in UTC with two campaigns (one never served) and three ads, built by hand. */
function fixture(): AdsCustomer {
  const customer: AdsCustomer = {
    id: '123',
    descriptiveName: 'Fixture',
    currencyCode: 'USD',
    timeZone: 'UTC',
    status: 'ENABLED',
    manager: false,
    testAccount: false,
    managerId: null,
    clientIds: [],
    campaigns: [],
    campaignsById: new Map(),
    adGroups: [],
    ads: [],
    adsById: new Map(),
    todayFactor: 1,
  };
  const specs = [
    { id: '11', name: 'Brand search', daily: 2400, ads: ['Brand ad one', 'Brand ad two'] },
    { id: '12', name: 'Paused display', daily: 0, ads: ['Display ad'] },
  ];
  let adId = 100;
  for (const spec of specs) {
    const campaign: AdsCampaign = {
      id: spec.id,
      customer,
      name: spec.name,
      status: spec.daily ? 'ENABLED' : 'PAUSED',
      primaryStatus: spec.daily ? 'ELIGIBLE' : 'PAUSED',
      primaryStatusReasons: spec.daily ? [] : ['CAMPAIGN_PAUSED'],
      channelType: spec.daily ? 'SEARCH' : 'DISPLAY',
      dailyImpressions: spec.daily,
      ctr: 0.05,
      cpcMicros: 500_000,
      adGroups: [],
      ads: [],
      adWeight: 0,
      seed: seedOf(spec.name),
    };
    const adGroup = {
      id: `2${spec.id}`,
      campaign,
      name: `${spec.name} group`,
      status: 'ENABLED' as const,
      ads: [] as AdsAd[],
    };
    for (const name of spec.ads) {
      const ad: AdsAd = {
        id: String(adId++),
        adGroup,
        name,
        type: 'RESPONSIVE_SEARCH_AD',
        finalUrls: [`https://shop.example/${adId}`],
        status: 'ENABLED',
        approvalStatus: name === 'Display ad' ? 'DISAPPROVED' : 'APPROVED',
        reviewStatus: 'REVIEWED',
        policyTopics: name === 'Display ad' ? [{ topic: 'MALWARE', type: 'PROHIBITED' }] : [],
        weight: 2,
      };
      adGroup.ads.push(ad);
      campaign.ads.push(ad);
      campaign.adWeight += ad.weight;
      customer.ads.push(ad);
      customer.adsById.set(ad.id, ad);
    }
    campaign.adGroups.push(adGroup);
    customer.adGroups.push(adGroup);
    customer.campaigns.push(campaign);
    customer.campaignsById.set(campaign.id, campaign);
  }
  return customer;
}

/** Wednesday 2026-11-25, 12:30 UTC. */
const clock: LocalClock = { today: dateToDay('2026-11-25')!, hour: 12, hourFraction: 0.5 };

function run(query: string, customer = fixture()) {
  return runGaql(parseGaql(query), { customer, findCustomer: () => undefined, clock }).rows as Record<
    string,
    Record<string, unknown>
  >[];
}

function errorOf(query: string): string {
  try {
    run(query);
  } catch (error) {
    if (error instanceof GaqlError) return error.code;
    throw error;
  }
  return 'no error';
}

describe('parseGaql', () => {
  it('reads every clause, keywords in any case, strings in either quote', () => {
    const query = parseGaql(
      `select campaign.id, campaign.name from campaign
       where campaign.status IN (ENABLED, 'PAUSED') and campaign.name != "Brand \\"x\\"" and segments.date during LAST_7_DAYS
       order by campaign.name desc, campaign.id LIMIT 10 PARAMETERS include_drafts = true`,
    );
    expect(query.select.map((f) => f.name)).toEqual(['campaign.id', 'campaign.name']);
    expect(query.from).toBe('campaign');
    expect(query.where.map((c) => [c.field.name, c.operator, c.values])).toEqual([
      ['campaign.status', 'IN', ['ENABLED', 'PAUSED']],
      ['campaign.name', '!=', ['Brand "x"']],
      ['segments.date', 'DURING', ['LAST_7_DAYS']],
    ]);
    expect(query.orderBy.map((o) => [o.field.name, o.descending])).toEqual([
      ['campaign.name', true],
      ['campaign.id', false],
    ]);
    expect(query.limit).toBe(10);
  });

  it.each([
    ['campaign.id FROM campaign', 'EXPECTED_SELECT'],
    ['SELECT campaign.id', 'EXPECTED_FROM'],
    ['SELECT campaign.id FROM', 'UNEXPECTED_END_OF_QUERY'],
    ["SELECT campaign.id FROM campaign WHERE campaign.name = 'a' OR campaign.name = 'b'", 'UNEXPECTED_INPUT'],
    ['SELECT campaign.id FROM campaign ORDER campaign.id', 'EXPECTED_BY'],
    ['SELECT campaign.id FROM campaign LIMIT ten', 'BAD_LIMIT_VALUE'],
    ['SELECT campaign.id FROM campaign LIMIT 0', 'LIMIT_VALUE_TOO_LOW'],
    ["SELECT campaign.id FROM campaign WHERE campaign.name = 'open", 'STRING_NOT_TERMINATED'],
    ['SELECT campaign.id FROM campaign WHERE campaign.id ≥ 1', 'BAD_SYMBOL'],
    ['SELECT campaign.id FROM campaign WHERE campaign.id EQUALS 1', 'BAD_OPERATOR'],
    ['SELECT campaign.id FROM campaign WHERE campaign.id IN 1', 'EXPECTED_LIST'],
    ['SELECT campaign.id FROM campaign WHERE campaign.id IN ()', 'PROHIBITED_EMPTY_LIST_IN_CONDITION'],
    [
      "SELECT campaign.id FROM campaign WHERE segments.date BETWEEN '2026-11-01' '2026-11-02'",
      'EXPECTED_AND',
    ],
    ["SELECT campaign.id FROM campaign WHERE segments.date = '25/11/2026'", 'INVALID_DATE_FORMAT'],
    [
      'SELECT campaign.id FROM campaign WHERE segments.date DURING LAST_3_DAYS',
      'INVALID_VALUE_WITH_DURING_OPERATOR',
    ],
    ['SELECT campaign.id FROM campaign WHERE campaign.id DURING TODAY', 'OPERATOR_FIELD_MISMATCH'],
    ["SELECT campaign.id FROM campaign WHERE campaign.id LIKE '1%'", 'OPERATOR_FIELD_MISMATCH'],
    [
      "SELECT campaign.id FROM campaign WHERE campaign.primary_status_reasons = 'BUDGET_CONSTRAINED'",
      'OPERATOR_FIELD_MISMATCH',
    ],
    ['SELECT campaign.id FROM campaign WHERE campaign.name = Brand', 'INVALID_STRING_VALUE'],
    ['SELECT campaign.id FROM campaign WHERE campaign.id = abc', 'BAD_NUMBER'],
    [
      'SELECT campaign.id FROM campaign ORDER BY campaign.primary_status_reasons',
      'PROHIBITED_FIELD_IN_ORDER_BY_CLAUSE',
    ],
    ['SELECT campaign.id FROM campaign PARAMETERS fast = true', 'BAD_PARAMETER_NAME'],
    ['SELECT campaign.id FROM campaign PARAMETERS include_drafts = maybe', 'BAD_PARAMETER_VALUE'],
    ['SELECT campaign.name, ad_group.name FROM campaign', 'PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE'],
    [
      "SELECT campaign.name FROM campaign WHERE ad_group.name = 'x'",
      'PROHIBITED_RESOURCE_TYPE_IN_WHERE_CLAUSE',
    ],
    ['SELECT segments.date FROM customer_client', 'PROHIBITED_SEGMENT_IN_SELECT_OR_WHERE_CLAUSE'],
    ['SELECT campaign.budget FROM campaign', 'UNRECOGNIZED_FIELD'],
    ['SELECT campaign.id FROM campaigns', 'BAD_RESOURCE_TYPE_IN_FROM_CLAUSE'],
    [
      "SELECT segments.date FROM campaign WHERE segments.date >= '2026-11-01'",
      'EXPECTED_FILTERS_ON_DATE_RANGE',
    ],
  ])('%s → %s', (query, code) => {
    expect(errorOf(query)).toBe(code);
  });
});

describe('runGaql', () => {
  it('selects attributed resources from a child resource, with their resource names', () => {
    const rows = run(
      'SELECT customer.status, campaign.primary_status, ad_group_ad.ad.name FROM ad_group_ad LIMIT 1',
    );
    expect(rows).toEqual([
      {
        customer: { resourceName: 'customers/123', status: 'ENABLED' },
        campaign: { resourceName: 'customers/123/campaigns/11', primaryStatus: 'ELIGIBLE' },
        adGroupAd: {
          resourceName: 'customers/123/adGroupAds/211~100',
          ad: { resourceName: 'customers/123/ads/100', name: 'Brand ad one' },
        },
      },
    ]);
    const bare = run(
      'SELECT ad_group_ad.ad.name FROM ad_group_ad LIMIT 1 PARAMETERS omit_unselected_resource_names = true',
    );
    expect(bare).toEqual([{ adGroupAd: { ad: { name: 'Brand ad one' } } }]);
  });

  it('filters with IN, NOT IN, LIKE, NOT LIKE, REGEXP_MATCH, comparisons and IS NULL', () => {
    const names = (where: string) =>
      run(`SELECT ad_group_ad.ad.name FROM ad_group_ad WHERE ${where}`).map(
        (r) => (r.adGroupAd!.ad as { name: string }).name,
      );
    expect(names("ad_group_ad.policy_summary.approval_status IN ('DISAPPROVED')")).toEqual(['Display ad']);
    expect(names('ad_group_ad.policy_summary.approval_status NOT IN (DISAPPROVED)')).toHaveLength(2);
    expect(names("ad_group_ad.ad.name LIKE 'Brand%two'")).toEqual(['Brand ad two']);
    expect(names("ad_group_ad.ad.name NOT LIKE 'Brand%'")).toEqual(['Display ad']);
    expect(names("ad_group_ad.ad.name REGEXP_MATCH '.*ad (one|two)'")).toHaveLength(2);
    expect(names('ad_group_ad.ad.id > 100 AND ad_group_ad.ad.id <= 102')).toEqual([
      'Brand ad two',
      'Display ad',
    ]);
    expect(names('campaign.id = 12')).toEqual(['Display ad']);
    expect(names("ad_group_ad.ad.final_urls CONTAINS ANY ('https://shop.example/101')")).toEqual([
      'Brand ad one',
    ]);
    const reasons = run('SELECT campaign.name FROM campaign WHERE campaign.primary_status_reasons IS NULL');
    expect(reasons.map((r) => r.campaign!.name)).toEqual(['Brand search']);
  });

  it('orders by several fields and limits', () => {
    const rows = run(
      'SELECT campaign.id, ad_group_ad.ad.id FROM ad_group_ad ORDER BY campaign.id DESC, ad_group_ad.ad.id DESC LIMIT 2',
    );
    expect(rows.map((r) => (r.adGroupAd!.ad as { id: string }).id)).toEqual(['102', '101']);
  });

  it('breaks metrics down by date and hour, up to now, leaving out hours with nothing', () => {
    const rows = run(
      'SELECT segments.date, segments.hour, metrics.impressions FROM campaign WHERE segments.date DURING TODAY ORDER BY segments.hour',
    );
    expect(rows.map((r) => r.segments!.hour)).toEqual([0, 6, 7, 8, 9, 10, 11, 12]);
    expect(rows.every((r) => r.segments!.date === '2026-11-25' && Number(r.metrics!.impressions) > 0)).toBe(
      true,
    );
    expect(rows.every((r) => r.campaign!.resourceName === 'customers/123/campaigns/11')).toBe(true);
  });

  it('sums metrics over the days and hours the segment conditions leave, and filters on metrics', () => {
    const hourly = run(
      'SELECT segments.hour, metrics.clicks FROM customer WHERE segments.date DURING LAST_7_DAYS AND segments.hour BETWEEN 9 AND 10',
    );
    expect(hourly.map((r) => r.segments!.hour)).toEqual([9, 10]);
    const total = run(
      'SELECT metrics.clicks FROM customer WHERE segments.date DURING LAST_7_DAYS AND segments.hour BETWEEN 9 AND 10',
    );
    expect(Number(total[0]!.metrics!.clicks)).toBe(
      hourly.reduce((sum, r) => sum + Number(r.metrics!.clicks), 0),
    );
    const serving = run(
      'SELECT campaign.name, metrics.impressions FROM campaign WHERE segments.date DURING YESTERDAY AND metrics.impressions > 0',
    );
    expect(serving.map((r) => r.campaign!.name)).toEqual(['Brand search']);
    const both = run(
      'SELECT campaign.name, metrics.impressions FROM campaign WHERE segments.date DURING YESTERDAY',
    );
    expect(both.map((r) => r.metrics!.impressions)).toContain('0');
  });

  it('counts today scaled by the account’s factor, and nothing before its 35 days of history', () => {
    const customer = fixture();
    customer.todayFactor = 0;
    expect(
      run('SELECT metrics.impressions FROM customer WHERE segments.date DURING TODAY', customer),
    ).toEqual([{ customer: { resourceName: 'customers/123' }, metrics: { impressions: '0' } }]);
    const old = run(
      "SELECT segments.date, metrics.impressions FROM customer WHERE segments.date BETWEEN '2026-01-01' AND '2026-10-21'",
    );
    expect(old).toEqual([]);
    const earliest = run(
      "SELECT segments.date, metrics.impressions FROM customer WHERE segments.date BETWEEN '2026-01-01' AND '2026-10-22'",
    );
    expect(earliest.map((r) => r.segments!.date)).toEqual(['2026-10-22']);
  });
});

describe('dateRange', () => {
  const today = dateToDay('2026-11-25')!; // a Wednesday
  it.each([
    ['TODAY', '2026-11-25', '2026-11-25'],
    ['YESTERDAY', '2026-11-24', '2026-11-24'],
    ['LAST_7_DAYS', '2026-11-18', '2026-11-24'],
    ['LAST_30_DAYS', '2026-10-26', '2026-11-24'],
    ['THIS_MONTH', '2026-11-01', '2026-11-25'],
    ['LAST_MONTH', '2026-10-01', '2026-10-31'],
    ['THIS_WEEK_MON_TODAY', '2026-11-23', '2026-11-25'],
    ['THIS_WEEK_SUN_TODAY', '2026-11-22', '2026-11-25'],
    ['LAST_WEEK_MON_SUN', '2026-11-16', '2026-11-22'],
    ['LAST_WEEK_SUN_SAT', '2026-11-15', '2026-11-21'],
    ['LAST_BUSINESS_WEEK', '2026-11-16', '2026-11-20'],
  ])('%s is %s to %s', (range, start, end) => {
    expect(dateRange(range, today).map(dayToDate)).toEqual([start, end]);
  });
});
