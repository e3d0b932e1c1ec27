import type {
  GoogleAdsTarget,
  GoogleAdsTargetInput,
  GoogleCustomer,
  GoogleCustomerAds,
} from '@vigil/contracts';
import type { Store } from '../../db/store.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { ConnectionRow } from '../../modules/connections/connection.repository.ts';
import { tokenContext } from '../../modules/connections/connection.service.ts';
import type { TargetPreparer } from '../../modules/monitors/target-preparer.ts';
import type { AuthSession } from '../../modules/sessions/session.service.ts';
import { buildQuery, enumValue, int, isIn, ne, text } from './gaql.ts';
import { adName, type GoogleAdsApi } from './google-ads-api.ts';
import { GoogleAdsError, type GoogleAuth } from './google-ads.client.ts';

/** The customers a connection reaches are read once for the picker's few calls in a row. */
const CUSTOMERS_TTL_MS = 60_000;

const connectionNotFound = () => new AppError('NOT_FOUND', 'That Google connection does not exist.');
const monitorNotFound = () => new AppError('NOT_FOUND', 'That monitor does not exist.');

type CustomerRef = GoogleAdsTarget['customer'] & { status: string };

/** A Google account's name in messages: its email, else its Google id. */
export const accountOf = (row: Pick<ConnectionRow, 'name' | 'account'>) => row.name || row.account;

/** A lost or disconnected Google account can be read again only after reconnecting. */
function assertActive(row: ConnectionRow): void {
  if (row.status !== 'active' || !row.tokenCiphertext) {
    throw new AppError(
      'CONFLICT',
      `Vigil has no access to ${accountOf(row)} any more${row.statusReason ? ` (${row.statusReason})` : ''}. Reconnect the Google account.`,
    );
  }
}

/** Every customer a connection reaches, direct ones first (so a customer reached both ways is read directly). */
function flatten(list: GoogleCustomer[]): CustomerRef[] {
  const refs: CustomerRef[] = [];
  const seen = new Set<string>();
  const add = (ref: CustomerRef) => {
    if (seen.has(ref.customerId)) return;
    seen.add(ref.customerId);
    refs.push(ref);
  };
  for (const { clients: _clients, manager: _manager, ...customer } of list) add(customer);
  for (const customer of list) for (const { manager: _manager, ...client } of customer.clients) add(client);
  return refs;
}

const refOf = ({ status: _status, ...ref }: CustomerRef): GoogleAdsTarget['customer'] => ref;

/**
 * What the API does with a Google account: list the Ads accounts it reaches and an account's campaigns and ads
 * for the pickers, and turn what a person chose into what a monitor keeps. Every id is checked against the
 * caller first, so no call ever goes to Google with another person's token. Google's errors are told as they
 * are: a grant Google refuses marks the connection lost.
 */
export function createGoogleAdsService(deps: {
  store: Store;
  clock: Clock;
  cipher: TokenCipher;
  api: GoogleAdsApi;
}): TargetPreparer<GoogleAdsTargetInput, GoogleAdsTarget> & {
  customers(
    session: AuthSession,
    query: { monitor_id?: string | undefined; connectionId?: string | undefined },
  ): Promise<{ list: GoogleCustomer[] }>;
  customerAds(
    session: AuthSession,
    query: { monitor_id?: string | undefined; connectionId?: string | undefined; resource_name: string },
  ): Promise<GoogleCustomerAds>;
} {
  const { store, clock, cipher, api } = deps;
  const customerLists = new Map<string, { at: number; value: Promise<GoogleCustomer[]> }>();

  const authOf = (row: ConnectionRow): GoogleAuth => ({
    connectionId: row.id,
    refreshToken: cipher.open(row.tokenCiphertext!, tokenContext(row)),
  });

  async function asked<T>(row: ConnectionRow, work: (auth: GoogleAuth) => Promise<T>): Promise<T> {
    assertActive(row);
    try {
      return await work(authOf(row));
    } catch (error) {
      if (!(error instanceof GoogleAdsError)) throw error;
      if (error.kind === 'auth') {
        api.client.forget(row.id);
        customerLists.delete(row.id);
        await store.connections.setStatus([row.id], 'lost', error.message, clock.now());
        throw new AppError('CONFLICT', `${error.message} Reconnect the Google account.`);
      }
      if (error.kind === 'refused') throw new AppError('INVALID', error.message);
      const seconds = Math.max(1, Math.ceil((error.retryAfterMs || 30_000) / 1000));
      throw new AppError(
        'UNAVAILABLE',
        `${error.message.replace(/\.$/, '')}. Try again in ${seconds} seconds.`,
        {
          retryAfterSeconds: seconds,
        },
      );
    }
  }

  function customersOf(row: ConnectionRow): Promise<GoogleCustomer[]> {
    const hit = customerLists.get(row.id);
    const now = clock.now().getTime();
    if (hit && now - hit.at < CUSTOMERS_TTL_MS) return hit.value;
    for (const [id, entry] of customerLists) if (now - entry.at >= CUSTOMERS_TTL_MS) customerLists.delete(id);
    const value = asked(row, (auth) => api.customers(auth));
    customerLists.set(row.id, { at: now, value });
    value.catch(() => customerLists.get(row.id)?.value === value && customerLists.delete(row.id));
    return value;
  }

  /** The caller's Google connection, named directly or through one of the caller's google_ads monitors. */
  async function connectionFor(
    userId: string,
    query: { monitor_id?: string | undefined; connectionId?: string | undefined },
  ): Promise<ConnectionRow> {
    let connectionId = query.connectionId;
    if (query.monitor_id) {
      const monitor = await store.monitors.findOwned(userId, query.monitor_id);
      if (!monitor || monitor.service !== 'google_ads') throw monitorNotFound();
      if (!monitor.connectionId) {
        throw new AppError('CONFLICT', 'This monitor’s Google account is not connected. Reconnect it.');
      }
      connectionId = monitor.connectionId;
    }
    const found = connectionId ? await store.connections.findOwned(userId, connectionId) : undefined;
    if (!found || found.row.provider !== 'google') throw connectionNotFound();
    return found.row;
  }

  async function reachable(row: ConnectionRow, resourceName: string): Promise<CustomerRef | undefined> {
    return flatten(await customersOf(row)).find((customer) => customer.resourceName === resourceName);
  }

  return {
    async customers(session, query) {
      const row = await connectionFor(session.userId, query);
      return { list: await customersOf(row) };
    },

    async customerAds(session, query) {
      const row = await connectionFor(session.userId, query);
      const customer = await reachable(row, query.resource_name);
      if (!customer) {
        throw new AppError(
          'INVALID',
          `${accountOf(row)} cannot reach the Google Ads account ${query.resource_name}.`,
          {
            details: [{ path: 'resource_name', message: 'Choose an account from the list.' }],
          },
        );
      }
      const { campaigns } = await asked(row, (auth) => api.adTree(auth, customer));
      return { customer, campaigns };
    },

    async prepareTarget(userId, input, existing) {
      const found = await store.connections.findOwned(userId, input.connectionId);
      if (!found || found.row.provider !== 'google') {
        throw new AppError('INVALID', 'Connect a Google account first: that connection does not exist.', {
          details: [{ path: 'target.connectionId', message: 'Connect a Google account first.' }],
        });
      }
      const row = found.row;
      const campaignIds = [...new Set(input.campaignIds)];
      const adIds = [...new Set(input.adIds)];
      const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((id) => b.includes(id));
      const unchanged =
        existing?.connectionId === row.id &&
        existing.customer.resourceName === input.customer &&
        sameSet(
          existing.campaigns.map((c) => c.campaignId),
          campaignIds,
        ) &&
        sameSet(
          existing.ads.map((a) => a.resourceName),
          adIds,
        );
      // Alert settings stay editable while the account is disconnected, as long as what is watched stays.
      if (unchanged && row.status !== 'active') {
        return { target: { ...existing, linkedMonitorId: input.linkedMonitorId }, connectionId: row.id };
      }
      const customer = await reachable(row, input.customer);
      if (!customer) {
        throw new AppError(
          'INVALID',
          `${accountOf(row)} cannot reach the Google Ads account ${input.customer}.`,
          {
            details: [{ path: 'target.customer', message: 'Choose a Google Ads account from the list.' }],
          },
        );
      }
      const { campaigns, ads } = await asked(row, async (auth) => {
        const search = <Row>(query: string) =>
          api.client.search<Row>(auth, customer.customerId, query, {
            loginCustomerId: customer.loginCustomerId,
          });
        const campaignRows = campaignIds.length
          ? (
              await search<{ campaign?: { id?: string; name?: string } }>(
                buildQuery({
                  select: ['campaign.id', 'campaign.name'],
                  from: 'campaign',
                  where: [
                    isIn('campaign.id', campaignIds.map(int)),
                    ne('campaign.status', enumValue('REMOVED')),
                  ],
                }),
              )
            ).rows
          : [];
        const ownAds = adIds.filter((id) => id.startsWith(`${customer.resourceName}/`));
        const adRows = ownAds.length
          ? (
              await search<{
                campaign?: { id?: string; name?: string };
                adGroup?: { name?: string };
                adGroupAd?: { resourceName?: string; ad?: { id?: string; name?: string; type?: string } };
              }>(
                buildQuery({
                  select: [
                    'campaign.id',
                    'campaign.name',
                    'ad_group.name',
                    'ad_group_ad.resource_name',
                    'ad_group_ad.ad.id',
                    'ad_group_ad.ad.name',
                    'ad_group_ad.ad.type',
                  ],
                  from: 'ad_group_ad',
                  where: [
                    isIn('ad_group_ad.resource_name', ownAds.map(text)),
                    ne('ad_group_ad.status', enumValue('REMOVED')),
                  ],
                }),
              )
            ).rows
          : [];
        return {
          campaigns: campaignRows.map((r) => ({
            campaignId: r.campaign?.id ?? '',
            name: r.campaign?.name ?? '',
          })),
          ads: adRows.map((r) => ({
            resourceName: r.adGroupAd?.resourceName ?? '',
            adId: r.adGroupAd?.ad?.id ?? '',
            name: adName(r.adGroupAd?.ad),
            adGroupName: r.adGroup?.name ?? '',
            campaignId: r.campaign?.id ?? '',
            campaignName: r.campaign?.name ?? '',
          })),
        };
      });
      const missingCampaigns = campaignIds.filter((id) => !campaigns.some((c) => c.campaignId === id));
      if (missingCampaigns.length) {
        throw new AppError(
          'INVALID',
          `${missingCampaigns.length === 1 ? 'One chosen campaign is' : `${missingCampaigns.length} chosen campaigns are`} not in ${customer.name}. Choose the campaigns again.`,
          { details: [{ path: 'target.campaignIds', message: 'Choose the campaigns again.' }] },
        );
      }
      const missingAds = adIds.filter((id) => !ads.some((a) => a.resourceName === id));
      if (missingAds.length) {
        throw new AppError(
          'INVALID',
          `${missingAds.length === 1 ? 'One chosen ad is' : `${missingAds.length} chosen ads are`} not in ${customer.name}. Choose the ads again.`,
          { details: [{ path: 'target.adIds', message: 'Choose the ads again.' }] },
        );
      }
      const byCampaign = new Map(campaigns.map((c) => [c.campaignId, c]));
      const byAd = new Map(ads.map((a) => [a.resourceName, a]));
      return {
        connectionId: row.id,
        target: {
          connectionId: row.id,
          customer: refOf(customer),
          campaigns: campaignIds.map((id) => byCampaign.get(id)!),
          ads: adIds.map((id) => byAd.get(id)!),
          linkedMonitorId: input.linkedMonitorId,
        },
      };
    },
  };
}
export type GoogleAdsService = ReturnType<typeof createGoogleAdsService>;
