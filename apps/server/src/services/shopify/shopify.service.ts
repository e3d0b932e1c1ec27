import type { ShopifyProductsPage, ShopifyTarget, ShopifyTargetInput } from '@vigil/contracts';
import type { Store } from '../../db/store.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { ConnectionRow } from '../../modules/connections/connection.repository.ts';
import { tokenContext } from '../../modules/connections/connection.service.ts';
import type { AuthSession } from '../../modules/sessions/session.service.ts';
import { ShopifyError } from './shopify.client.ts';
import type { ShopApi } from './shopify-api.ts';

const connectionNotFound = () => new AppError('NOT_FOUND', 'That shop connection does not exist.');

/** A lost or disconnected shop can be read again only after reconnecting. */
function assertActive(row: ConnectionRow): void {
  if (row.status !== 'active' || !row.tokenCiphertext) {
    throw new AppError(
      'CONFLICT',
      `Vigil has no access to ${row.account} any more${row.statusReason ? ` (${row.statusReason})` : ''}. Reconnect the shop.`,
    );
  }
}

/**
 * What the API does with a shop: list its products for the picker, and turn the products a person chose into
 * what a monitor keeps (titles, variants and their prices at that moment). Errors from Shopify are told as
 * they are: a token refused marks the connection lost.
 */
export function createShopifyService(deps: {
  store: Store;
  clock: Clock;
  cipher: TokenCipher;
  api: ShopApi;
}) {
  const { store, clock, cipher, api } = deps;

  const tokenOf = (row: ConnectionRow) => cipher.open(row.tokenCiphertext!, tokenContext(row));

  async function asked<T>(row: ConnectionRow, work: (token: string) => Promise<T>): Promise<T> {
    assertActive(row);
    try {
      return await work(tokenOf(row));
    } catch (error) {
      if (!(error instanceof ShopifyError)) throw error;
      if (error.kind === 'auth') {
        await store.connections.setStatus([row.id], 'lost', error.message, clock.now());
        throw new AppError('CONFLICT', `${error.message} Reconnect the shop.`);
      }
      if (error.kind === 'refused') throw new AppError('INVALID', error.message);
      throw new AppError('UNAVAILABLE', `${error.message} Try again in a minute.`, { retryAfterSeconds: 30 });
    }
  }

  async function ownedConnection(userId: string, connectionId: string): Promise<ConnectionRow> {
    const found = await store.connections.findOwned(userId, connectionId);
    if (!found || found.row.provider !== 'shopify') throw connectionNotFound();
    return found.row;
  }

  return {
    async products(
      session: AuthSession,
      query: {
        monitorId?: string | undefined;
        connectionId?: string | undefined;
        limit: number;
        cursor?: string | undefined;
        direction: 'next' | 'previous';
        query?: string | undefined;
      },
    ): Promise<ShopifyProductsPage> {
      let connectionId = query.connectionId;
      if (query.monitorId) {
        const monitor = await store.monitors.findOwned(session.userId, query.monitorId);
        if (!monitor || monitor.service !== 'shopify') {
          throw new AppError('NOT_FOUND', 'That monitor does not exist.');
        }
        connectionId = monitor.connectionId ?? undefined;
        if (!connectionId)
          throw new AppError('CONFLICT', 'This monitor’s shop is not connected. Reconnect it.');
      }
      const row = await ownedConnection(session.userId, connectionId!);
      const page = await asked(row, (token) =>
        api.products(row.account, token, {
          limit: query.limit,
          cursor: query.cursor,
          direction: query.direction,
          search: query.query || undefined,
        }),
      );
      return { ...page, shop: row.account };
    },

    /** The monitor's stored target: the products as they are now, each one checked to be in that shop. */
    async prepareTarget(
      userId: string,
      input: ShopifyTargetInput,
      /** The monitor's target before this change, kept as it is while the shop cannot be read. */
      existing?: ShopifyTarget,
    ): Promise<{ target: ShopifyTarget; connectionId: string }> {
      const row = await store.connections.findOwned(userId, input.connectionId);
      if (!row || row.row.provider !== 'shopify') {
        throw new AppError('INVALID', 'Connect the shop first: that connection does not exist.', {
          details: [{ path: 'target.connectionId', message: 'Connect the shop first.' }],
        });
      }
      const ids = [...new Set(input.productIds)];
      const unchanged =
        existing?.connectionId === row.row.id &&
        existing.products.length === ids.length &&
        existing.products.every((product) => ids.includes(product.productId));
      // Alert settings stay editable while the shop is disconnected, as long as the products stay the same.
      if (unchanged && row.row.status !== 'active') return { target: existing, connectionId: row.row.id };
      const { products, missing } = ids.length
        ? await asked(row.row, (token) => api.chosenProducts(row.row.account, token, ids))
        : { products: [], missing: [] };
      if (missing.length > 0) {
        throw new AppError(
          'INVALID',
          `${missing.length === 1 ? 'One chosen product is' : `${missing.length} chosen products are`} no longer in ${row.row.account}. Choose the products again.`,
          { details: [{ path: 'target.productIds', message: 'Choose the products again.' }] },
        );
      }
      const details = row.row.details as { currency?: string };
      return {
        connectionId: row.row.id,
        target: {
          connectionId: row.row.id,
          shop: row.row.account,
          storefrontUrl: api.client.shopBase(row.row.account),
          currency: details.currency ?? 'USD',
          products,
        },
      };
    },
  };
}
export type ShopifyService = ReturnType<typeof createShopifyService>;
