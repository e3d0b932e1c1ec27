import type { FacebookAccount, FacebookAdSet, MetaAdsTarget, MetaAdsTargetInput } from '@vigil/contracts';
import type { Store } from '../../db/store.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { ConnectionRow } from '../../modules/connections/connection.repository.ts';
import { tokenContext } from '../../modules/connections/connection.service.ts';
import type { TargetPreparer } from '../../modules/monitors/target-preparer.ts';
import type { AuthSession } from '../../modules/sessions/session.service.ts';
import type { MetaApi } from './meta-ads.api.ts';
import { MetaError } from './meta-ads.client.ts';

/** Pages of ad sets read at most to find the chosen ones (200 a page). */
const MAX_ADSET_PAGES = 10;

const connectionNotFound = () =>
  new AppError('NOT_FOUND', 'That Facebook account connection does not exist.');
const monitorNotFound = () => new AppError('NOT_FOUND', 'That monitor does not exist.');
const unreachable = (accountId: string) =>
  new AppError(
    'INVALID',
    `The ad account act_${accountId} cannot be reached through this Facebook account. Choose one from the list.`,
    { details: [{ path: 'account_id', message: 'Choose an ad account from the list.' }] },
  );

/** A lost or disconnected Facebook account can be read again only after reconnecting. */
function assertActive(row: ConnectionRow): void {
  if (row.status !== 'active' || !row.tokenCiphertext) {
    throw new AppError(
      'CONFLICT',
      `Vigil has no access to ${row.name}'s ad accounts any more${row.statusReason ? ` (${row.statusReason})` : ''}. Reconnect the Facebook account.`,
    );
  }
}

interface PickerQuery {
  monitor_id?: string | undefined;
  connectionId?: string | undefined;
  after?: string | undefined;
  limit: number;
}

/**
 * What the API does with a Facebook account: list its ad accounts and their ad sets for the pickers, and turn
 * what a person chose into what a monitor keeps (the account and the ad sets, named). Every id is checked to be
 * the caller's before Meta is called with that connection's token; a token Meta refuses (190) marks the
 * connection lost.
 */
export function createMetaAdsService(deps: {
  store: Store;
  clock: Clock;
  cipher: TokenCipher;
  api: MetaApi;
}): TargetPreparer<MetaAdsTargetInput, MetaAdsTarget> & {
  accounts(
    session: AuthSession,
    query: PickerQuery,
  ): Promise<{ list: FacebookAccount[]; paging: { after: string | null; before: string | null } }>;
  adSets(
    session: AuthSession,
    query: PickerQuery & { account_id: string },
  ): Promise<{
    account: Pick<FacebookAccount, 'accountId' | 'name' | 'currency' | 'timeZone'>;
    list: FacebookAdSet[];
    paging: { after: string | null; before: string | null };
  }>;
} {
  const { store, clock, cipher, api } = deps;

  const tokenOf = (row: ConnectionRow) => cipher.open(row.tokenCiphertext!, tokenContext(row));

  /** Calls Meta with the connection's token; Meta's errors become what the person is told. */
  async function asked<T>(
    row: ConnectionRow,
    work: (token: string) => Promise<T>,
    accountId?: string,
  ): Promise<T> {
    assertActive(row);
    try {
      return await work(tokenOf(row));
    } catch (error) {
      if (!(error instanceof MetaError)) throw error;
      if (error.kind === 'auth') {
        await store.connections.setStatus([row.id], 'lost', error.message, clock.now());
        throw new AppError('CONFLICT', `${error.message} Reconnect the Facebook account.`);
      }
      if (error.kind === 'refused') {
        if (accountId) throw unreachable(accountId);
        throw new AppError('INVALID', error.message);
      }
      const wait = error.details.retryAt
        ? Math.max(1, Math.ceil((error.details.retryAt - clock.now().getTime()) / 1000))
        : 30;
      throw new AppError(
        'UNAVAILABLE',
        `${error.message} Try again ${wait > 90 ? `in ${Math.ceil(wait / 60)} minutes` : 'in a minute'}.`,
        { retryAfterSeconds: wait },
      );
    }
  }

  async function ownedConnection(userId: string, connectionId: string): Promise<ConnectionRow> {
    const found = await store.connections.findOwned(userId, connectionId);
    if (!found || found.row.provider !== 'meta') throw connectionNotFound();
    return found.row;
  }

  /** The connection a picker reads through: the monitor's (the caller's facebook_ads monitor) or the one named. */
  async function connectionOf(session: AuthSession, query: PickerQuery): Promise<ConnectionRow> {
    if (query.monitor_id) {
      const monitor = await store.monitors.findOwned(session.userId, query.monitor_id);
      if (!monitor || monitor.service !== 'facebook_ads') throw monitorNotFound();
      if (!monitor.connectionId) {
        throw new AppError('CONFLICT', 'This monitor’s Facebook account is not connected. Reconnect it.');
      }
      return ownedConnection(session.userId, monitor.connectionId);
    }
    return ownedConnection(session.userId, query.connectionId!);
  }

  return {
    async accounts(session, query) {
      const row = await connectionOf(session, query);
      const page = await asked(row, (token) =>
        api.adAccounts(token, { after: query.after, limit: query.limit }),
      );
      return { list: page.data, paging: { after: page.after, before: page.before } };
    },

    async adSets(session, query) {
      const row = await connectionOf(session, query);
      const accountId = query.account_id;
      const { account, adSets } = await asked(
        row,
        (token) => api.accountWithAdSets(token, accountId, { after: query.after, limit: query.limit }),
        accountId,
      );
      return {
        account: {
          accountId: account.accountId,
          name: account.name,
          currency: account.currency,
          timeZone: account.timeZone,
        },
        list: adSets.data,
        paging: { after: adSets.after, before: adSets.before },
      };
    },

    /** The monitor's stored target: the account and the chosen ad sets as they are now, each one in that account. */
    async prepareTarget(userId, input, existing) {
      const found = await store.connections.findOwned(userId, input.connectionId);
      if (!found || found.row.provider !== 'meta') {
        throw new AppError('INVALID', 'Connect a Facebook account first: that connection does not exist.', {
          details: [{ path: 'target.connectionId', message: 'Connect a Facebook account first.' }],
        });
      }
      const row = found.row;
      const ids = [...new Set(input.adSetIds)];
      const unchanged =
        existing?.connectionId === row.id &&
        existing.account.accountId === input.accountId &&
        existing.adSets.length === ids.length &&
        existing.adSets.every((adSet) => ids.includes(adSet.adSetId));
      // Alert settings stay editable while the account is disconnected, as long as what is watched stays the same.
      if (unchanged && row.status !== 'active') {
        return { connectionId: row.id, target: { ...existing, linkedMonitorId: input.linkedMonitorId } };
      }
      const { account, adSets } = await asked(
        row,
        async (token) => {
          const first = await api.accountWithAdSets(token, input.accountId, { limit: 200 });
          const seen = [...first.adSets.data];
          let after = first.adSets.after;
          const missing = () => ids.filter((id) => !seen.some((adSet) => adSet.adSetId === id));
          for (let pages = 1; after && missing().length > 0 && pages < MAX_ADSET_PAGES; pages++) {
            const next = await api.adSetsPage(token, input.accountId, first.account.currency, after, 200);
            seen.push(...next.data);
            after = next.after;
          }
          return { account: first.account, adSets: seen };
        },
        input.accountId,
      ).catch((error: unknown) => {
        if (error instanceof AppError && error.details?.[0]?.path === 'account_id') {
          throw new AppError('INVALID', error.message, {
            details: [{ path: 'target.accountId', message: 'Choose an ad account from the list.' }],
          });
        }
        throw error;
      });
      const chosen = ids.map((id) => adSets.find((adSet) => adSet.adSetId === id));
      const missing = chosen.filter((adSet) => !adSet).length;
      if (missing > 0) {
        throw new AppError(
          'INVALID',
          `${missing === 1 ? 'One chosen ad set is' : `${missing} chosen ad sets are`} not in ${account.name}. Choose the ad sets again.`,
          { details: [{ path: 'target.adSetIds', message: 'Choose the ad sets again.' }] },
        );
      }
      return {
        connectionId: row.id,
        target: {
          connectionId: row.id,
          account: {
            accountId: account.accountId,
            name: account.name,
            currency: account.currency,
            timeZone: account.timeZone,
          },
          adSets: chosen.map((adSet) => ({
            adSetId: adSet!.adSetId,
            name: adSet!.name,
            campaignName: adSet!.campaignName,
          })),
          linkedMonitorId: input.linkedMonitorId,
        },
      };
    },
  };
}
export type MetaAdsService = ReturnType<typeof createMetaAdsService>;
