import type { GoogleCampaign, GoogleCustomer } from '@vigil/contracts';
import type { HourFigures } from '../ads/baseline.ts';
import { buildQuery, date, enumValue, eq, int, isIn, ne } from './gaql.ts';
import { GoogleAdsError, type GoogleAdsClient, type GoogleAuth } from './google-ads.client.ts';

/** Ads the picker lists at most for one account (campaigns → ad groups → ads). */
export const MAX_PICKER_ADS = 2000;
/** Ads one state read takes at most: beyond this an account is judged on the first ones read. */
export const MAX_STATE_ADS = 10_000;

/** How a customer is reached: its id, and the manager whose access reaches it (or null: directly). */
export interface CustomerAccess {
  customerId: string;
  loginCustomerId: string | null;
}

interface CustomerFields {
  id?: string;
  descriptiveName?: string;
  currencyCode?: string;
  timeZone?: string;
  status?: string;
  manager?: boolean;
}

/** One ad as the state read sees it, with its ad group and campaign. */
export interface AdState {
  resourceName: string;
  adId: string;
  name: string;
  status: string;
  approvalStatus: string;
  policyTopics: string[];
  adGroup: { adGroupId: string; name: string; status: string };
  campaign: { campaignId: string; name: string; status: string; primaryStatus: string; reasons: string[] };
}

/** An account's serving state in one read. */
export interface AccountState {
  name: string;
  status: string;
  ads: AdState[];
  /** More ads than one read takes: the conditions are judged on the first MAX_STATE_ADS. */
  truncated: boolean;
}

interface AdRow {
  customer?: CustomerFields;
  campaign?: {
    id?: string;
    name?: string;
    status?: string;
    primaryStatus?: string;
    primaryStatusReasons?: string[];
  };
  adGroup?: { id?: string; name?: string; status?: string };
  adGroupAd?: {
    resourceName?: string;
    status?: string;
    ad?: { id?: string; name?: string; type?: string };
    policySummary?: { approvalStatus?: string; policyTopicEntries?: { topic?: string; type?: string }[] };
  };
}

const CUSTOMER_FIELDS = [
  'customer.id',
  'customer.descriptive_name',
  'customer.currency_code',
  'customer.time_zone',
  'customer.status',
  'customer.manager',
];

const AD_FIELDS = [
  'customer.status',
  'customer.descriptive_name',
  'campaign.id',
  'campaign.name',
  'campaign.status',
  'campaign.primary_status',
  'campaign.primary_status_reasons',
  'ad_group.id',
  'ad_group.name',
  'ad_group.status',
  'ad_group_ad.resource_name',
  'ad_group_ad.status',
  'ad_group_ad.ad.id',
  'ad_group_ad.ad.name',
  'ad_group_ad.ad.type',
  'ad_group_ad.policy_summary.approval_status',
  'ad_group_ad.policy_summary.policy_topic_entries',
];

/** Every ad of an account that is not removed: its state, its ad group's and its campaign's. */
export const STATE_QUERY = buildQuery({
  select: AD_FIELDS,
  from: 'ad_group_ad',
  where: [ne('ad_group_ad.status', enumValue('REMOVED'))],
});

const CUSTOMER_QUERY = buildQuery({ select: CUSTOMER_FIELDS, from: 'customer' });

const CLIENTS_QUERY = buildQuery({
  select: [
    'customer_client.client_customer',
    'customer_client.id',
    'customer_client.descriptive_name',
    'customer_client.currency_code',
    'customer_client.time_zone',
    'customer_client.status',
    'customer_client.manager',
    'customer_client.level',
  ],
  from: 'customer_client',
  where: [eq('customer_client.level', int(1))],
});

/** The account's impressions and spend per hour of its own time zone, on these dates. */
/** Customers read at the same time while listing what a Google account reaches. */
const CUSTOMER_READS_AT_ONCE = 6;

export function metricsQuery(dates: readonly string[]): string {
  return buildQuery({
    select: ['segments.date', 'segments.hour', 'metrics.impressions', 'metrics.cost_micros'],
    from: 'customer',
    where: [isIn('segments.date', dates.map(date))],
  });
}

const digitsOf = (resourceName: string) => resourceName.replace(/^customers\//, '');

/** An ad's name as people see it: its own name, else its type and id ("Responsive search ad 7001"). */
export function adName(ad: { id?: string; name?: string; type?: string } | undefined): string {
  if (ad?.name) return ad.name;
  const type = ad?.type ? ad.type.toLowerCase().replaceAll('_', ' ') : 'ad';
  return `${type.charAt(0).toUpperCase()}${type.slice(1)} ${ad?.id ?? ''}`.trim();
}

function adState(row: AdRow): AdState {
  const ad = row.adGroupAd ?? {};
  return {
    resourceName: ad.resourceName ?? '',
    adId: ad.ad?.id ?? '',
    name: adName(ad.ad),
    status: ad.status ?? 'UNKNOWN',
    approvalStatus: ad.policySummary?.approvalStatus ?? 'UNKNOWN',
    policyTopics: (ad.policySummary?.policyTopicEntries ?? []).map((entry) => entry.topic ?? 'UNKNOWN'),
    adGroup: {
      adGroupId: row.adGroup?.id ?? '',
      name: row.adGroup?.name ?? '',
      status: row.adGroup?.status ?? 'UNKNOWN',
    },
    campaign: {
      campaignId: row.campaign?.id ?? '',
      name: row.campaign?.name ?? '',
      status: row.campaign?.status ?? 'UNKNOWN',
      primaryStatus: row.campaign?.primaryStatus ?? 'UNKNOWN',
      reasons: row.campaign?.primaryStatusReasons ?? [],
    },
  };
}

/**
 * The operations Vigil runs on a Google Ads account: the accounts a Google account reaches (directly, and a
 * manager's clients), an account's campaigns, ad groups and ads, its serving state and its hourly figures.
 */
export function createGoogleAdsApi(client: GoogleAdsClient) {
  async function customer(auth: GoogleAuth, access: CustomerAccess, signal?: AbortSignal) {
    const { rows } = await client.search<{ customer?: CustomerFields }>(
      auth,
      access.customerId,
      CUSTOMER_QUERY,
      {
        loginCustomerId: access.loginCustomerId,
        signal,
      },
    );
    const found = rows[0]?.customer;
    if (!found)
      throw new GoogleAdsError(
        `Google Ads answered nothing for customer ${access.customerId}.`,
        'refused',
        200,
      );
    return found;
  }

  return {
    client,

    /**
     * The customers the Google account was invited to, each read directly; a manager with its clients (level 1),
     * reached with the manager's id as `login-customer-id`. A customer Google will not read (cancelled, closed)
     * is listed with what is known of it.
     */
    async customers(auth: GoogleAuth, signal?: AbortSignal): Promise<GoogleCustomer[]> {
      const names = await client.listAccessibleCustomers(auth, signal);
      const list: GoogleCustomer[] = new Array(names.length);
      // A few at a time: an agency reaching dozens of accounts directly is listed in seconds, not minutes.
      let next = 0;
      const readEach = async () => {
        while (next < names.length) {
          const index = next++;
          list[index] = await readCustomer(names[index]!);
        }
      };
      await Promise.all(Array.from({ length: Math.min(CUSTOMER_READS_AT_ONCE, names.length) }, readEach));
      return list;

      async function readCustomer(resourceName: string): Promise<GoogleCustomer> {
        const customerId = digitsOf(resourceName);
        let fields: CustomerFields;
        try {
          fields = await customer(auth, { customerId, loginCustomerId: null }, signal);
        } catch (error) {
          if (!(error instanceof GoogleAdsError) || error.kind !== 'refused') throw error;
          fields = { id: customerId, status: error.has('CUSTOMER_NOT_ENABLED') ? 'CANCELED' : 'UNKNOWN' };
        }
        const manager = fields.manager === true;
        const clients: GoogleCustomer['clients'] = [];
        if (manager && fields.status === 'ENABLED') {
          const { rows } = await client.search<{
            customerClient?: CustomerFields & { clientCustomer?: string };
          }>(auth, customerId, CLIENTS_QUERY, { loginCustomerId: customerId, signal });
          for (const row of rows) {
            const c = row.customerClient ?? {};
            const id = c.id ?? digitsOf(c.clientCustomer ?? '');
            clients.push({
              resourceName: `customers/${id}`,
              customerId: id,
              name: c.descriptiveName || id,
              currency: c.currencyCode ?? '',
              timeZone: c.timeZone ?? 'UTC',
              loginCustomerId: customerId,
              status: c.status ?? 'UNKNOWN',
              manager: c.manager === true,
            });
          }
        }
        return {
          resourceName: `customers/${customerId}`,
          customerId,
          name: fields.descriptiveName || customerId,
          currency: fields.currencyCode ?? '',
          timeZone: fields.timeZone ?? 'UTC',
          loginCustomerId: null,
          status: fields.status ?? 'UNKNOWN',
          manager,
          clients,
        };
      }
    },

    customer,

    /** Campaigns → ad groups → ads of an account (not removed), at most `maxAds` ads. */
    async adTree(
      auth: GoogleAuth,
      access: CustomerAccess,
      signal?: AbortSignal,
      maxAds = MAX_PICKER_ADS,
    ): Promise<{ campaigns: GoogleCampaign[]; truncated: boolean }> {
      const query = buildQuery({
        select: AD_FIELDS,
        from: 'ad_group_ad',
        where: [
          ne('ad_group_ad.status', enumValue('REMOVED')),
          ne('ad_group.status', enumValue('REMOVED')),
          ne('campaign.status', enumValue('REMOVED')),
        ],
        orderBy: [{ field: 'campaign.name' }, { field: 'ad_group.name' }, { field: 'ad_group_ad.ad.id' }],
      });
      const { rows, truncated } = await client.search<AdRow>(auth, access.customerId, query, {
        loginCustomerId: access.loginCustomerId,
        signal,
        maxRows: maxAds,
      });
      const campaigns = new Map<string, GoogleCampaign>();
      const groups = new Map<string, GoogleCampaign['adGroups'][number]>();
      for (const row of rows) {
        const ad = adState(row);
        let campaign = campaigns.get(ad.campaign.campaignId);
        if (!campaign) {
          campaign = {
            campaignId: ad.campaign.campaignId,
            name: ad.campaign.name,
            status: ad.campaign.status,
            primaryStatus: ad.campaign.primaryStatus,
            primaryStatusReasons: ad.campaign.reasons,
            adGroups: [],
          };
          campaigns.set(campaign.campaignId, campaign);
        }
        let group = groups.get(ad.adGroup.adGroupId);
        if (!group) {
          group = { ...ad.adGroup, ads: [] };
          groups.set(group.adGroupId, group);
          campaign.adGroups.push(group);
        }
        group.ads.push({
          resourceName: ad.resourceName,
          adId: ad.adId,
          name: ad.name,
          status: ad.status,
          approvalStatus: ad.approvalStatus,
          policyTopics: ad.policyTopics,
        });
      }
      return { campaigns: [...campaigns.values()], truncated };
    },

    /** The account's status and every ad not removed, in one search (plus one when it has no ads). */
    async accountState(
      auth: GoogleAuth,
      access: CustomerAccess,
      signal?: AbortSignal,
    ): Promise<AccountState> {
      const { rows, truncated } = await client.search<AdRow>(auth, access.customerId, STATE_QUERY, {
        loginCustomerId: access.loginCustomerId,
        signal,
        maxRows: MAX_STATE_ADS,
      });
      const first = rows[0]?.customer;
      // An account with no ads answers no rows, and so no status: that takes one more (small) search.
      const about = first?.status ? first : await customer(auth, access, signal);
      return {
        name: about.descriptiveName ?? access.customerId,
        status: about.status ?? 'UNKNOWN',
        ads: rows.map(adState),
        truncated,
      };
    },

    /** Impressions and spend per local hour on `dates` (the account's time zone), in one search. */
    async hourlyFigures(
      auth: GoogleAuth,
      access: CustomerAccess,
      dates: readonly string[],
      signal?: AbortSignal,
    ): Promise<HourFigures[]> {
      const { rows } = await client.search<{
        segments?: { date?: string; hour?: number };
        metrics?: { impressions?: string; costMicros?: string };
      }>(auth, access.customerId, metricsQuery(dates), { loginCustomerId: access.loginCustomerId, signal });
      return rows.map((row) => ({
        date: row.segments?.date ?? '',
        hour: Number(row.segments?.hour ?? 0),
        impressions: Number(row.metrics?.impressions ?? 0),
        spend: Number(row.metrics?.costMicros ?? 0) / 1_000_000,
      }));
    },
  };
}
export type GoogleAdsApi = ReturnType<typeof createGoogleAdsApi>;
