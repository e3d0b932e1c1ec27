import type { ShopifyTarget } from '@vigil/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { ConnectionRepository, ConnectionRow } from '../../modules/connections/connection.repository.ts';
import { tokenContext } from '../../modules/connections/connection.service.ts';
import { ShopifyError } from './shopify.client.ts';
import type { ShopApi, VariantState } from './shopify-api.ts';

/**
 * How long a variant's state read from a shop is current. Shorter than the shortest interval (30 s), so every
 * interval reads afresh; a webhook saying the shop's data changed (`data_changed_at`) ends it at once.
 */
export const VARIANT_STATE_TTL_MS = 20_000;
/** Reads asked for within this window are one read (one query per 250 variants). */
const COALESCE_MS = 5;
/**
 * The longest one read waits for the shop's rate-limit bucket, for variants never read. A shop whose budget
 * cannot pay for all its watched variants every interval is read as far as the budget goes; the rest keep
 * their last known state.
 */
const READ_WAIT_MS = 10_000;

/** A variant as last read: its state, or null when the shop no longer has it. */
interface Entry {
  state: VariantState | null;
  at: number;
}

interface ShopCache {
  entries: Map<string, Entry>;
  /** The next background read of stale variants, when the budget left some for later. */
  topUp: NodeJS.Timeout | undefined;
  /** Every variant the shop's running monitors watch, as of `at`. */
  watched: { ids: string[]; at: number } | null;
  pending: { ids: Set<string>; done: Promise<ShopifyError | null> } | null;
}

export interface ShopRead {
  /** Per watched variant: its last known state, null when deleted; absent when never read. */
  states: Map<string, VariantState | null>;
  /** Why the read did not finish, when it did not; the states are then partly older. */
  error: ShopifyError | null;
}

/**
 * Reads the state of watched variants from shops, and keeps each variant's last state. Monitors of one shop
 * come due together (their slots share the shop's grid), so the first check of a slot asks for its variants
 * and the checks that follow within a few ms join the same read; the read also takes, while the shop's bucket
 * pays for them without waiting, the other variants the shop's monitors watch. One Admin API query per shop
 * (per 250 variants) per interval, however many monitors watch it, and a shop too big for its budget is read
 * as far as the budget goes: nothing read is thrown away.
 */
export function createShopReader(deps: {
  connections: Pick<ConnectionRepository, 'watchedTargets' | 'setStatus'>;
  cipher: TokenCipher;
  api: ShopApi;
  log: Pick<FastifyBaseLogger, 'warn'>;
  now: () => number;
}) {
  const { connections, cipher, api, log, now } = deps;
  const shops = new Map<string, ShopCache>();

  const isCurrent = (entry: Entry | undefined, since: number) =>
    entry !== undefined && entry.at > since && now() - entry.at < VARIANT_STATE_TTL_MS;

  async function watchedIds(row: ConnectionRow, cache: ShopCache): Promise<string[]> {
    if (cache.watched && now() - cache.watched.at < VARIANT_STATE_TTL_MS) return cache.watched.ids;
    const ids = new Set<string>();
    for (const target of (await connections.watchedTargets(row.id)) as ShopifyTarget[]) {
      for (const product of target.products ?? []) {
        for (const variant of product.variants) ids.add(variant.variantId);
      }
    }
    cache.watched = { ids: [...ids], at: now() };
    return cache.watched.ids;
  }

  /**
   * Reads what is stale of `asked`, then of the shop's other watched variants, as far as the bucket pays without
   * waiting; variants never read are waited for (up to READ_WAIT_MS).
   */
  async function read(row: ConnectionRow, cache: ShopCache, asked: string[], since: number) {
    const token = cipher.open(row.tokenCiphertext!, tokenContext(row));
    const signal = AbortSignal.timeout(READ_WAIT_MS);
    const others = (await watchedIds(row, cache)).filter(
      (id) => !asked.includes(id) && !isCurrent(cache.entries.get(id), since),
    );
    const queue = [...asked, ...others];
    for (let i = 0; i < queue.length; i += api.variantsPerQuery) {
      const chunk = queue.slice(i, i + api.variantsPerQuery);
      // Only variants never read are worth waiting for the bucket: the others keep their last known state
      // until the budget pays for them, so a check never waits to refresh what it already knows.
      const neverRead = chunk.some((id) => asked.includes(id) && !cache.entries.has(id));
      if (!neverRead && !api.affords(row.account, api.variantReadCost(chunk.length))) continue;
      const states = await api.variantStates(row.account, token, chunk, signal);
      const at = now();
      for (const id of chunk) cache.entries.set(id, { state: states.get(id) ?? null, at });
    }
    scheduleTopUp(row, cache, since);
  }

  /**
   * Reads the shop's stale watched variants in the background, oldest first, one query as soon as the bucket
   * holds its cost: a shop whose budget cannot pay for all its variants at once spends it across the interval,
   * so every variant is refreshed as often as the budget allows (5,000 variants on the standard plan: every
   * 2.5 minutes) while checks use the last known states and never wait for them.
   */
  function scheduleTopUp(row: ConnectionRow, cache: ShopCache, since: number) {
    if (cache.topUp || !cache.watched) return;
    const stale = cache.watched.ids
      .filter((id) => !isCurrent(cache.entries.get(id), since))
      .sort((a, b) => (cache.entries.get(a)?.at ?? 0) - (cache.entries.get(b)?.at ?? 0))
      .slice(0, api.variantsPerQuery);
    if (stale.length === 0) return;
    const wait = api.budgetWaitMs(row.account, api.variantReadCost(stale.length));
    cache.topUp = setTimeout(
      () => {
        cache.topUp = undefined;
        void (async () => {
          const token = cipher.open(row.tokenCiphertext!, tokenContext(row));
          const states = await api.variantStates(
            row.account,
            token,
            stale,
            AbortSignal.timeout(READ_WAIT_MS),
          );
          const at = now();
          for (const id of stale) cache.entries.set(id, { state: states.get(id) ?? null, at });
          scheduleTopUp(row, cache, since);
        })().catch((error: unknown) => {
          log.warn(
            { shop: row.account, err: error },
            'shopify background read stopped; the next check resumes it',
          );
        });
      },
      Math.max(wait, 50),
    );
    cache.topUp.unref();
  }

  function cacheOf(connectionId: string): ShopCache {
    let cache = shops.get(connectionId);
    if (!cache) {
      cache = { entries: new Map(), topUp: undefined, watched: null, pending: null };
      shops.set(connectionId, cache);
    }
    return cache;
  }

  return {
    /** The variants' states, read now where the last read is not current. Never throws for Shopify's errors. */
    async variants(row: ConnectionRow, ids: string[]): Promise<ShopRead> {
      const cache = cacheOf(row.id);
      const since = row.dataChangedAt?.getTime() ?? 0;
      const stale = ids.filter((id) => !isCurrent(cache.entries.get(id), since));
      let error: ShopifyError | null = null;
      if (stale.length > 0) {
        let pending = cache.pending;
        if (!pending) {
          const asked = new Set<string>();
          const done = new Promise<void>((resolve) => setTimeout(resolve, COALESCE_MS)).then(async () => {
            cache.pending = null;
            try {
              await read(row, cache, [...asked], since);
              return null;
            } catch (failure) {
              if (!(failure instanceof ShopifyError)) throw failure;
              if (failure.kind === 'auth') {
                await connections.setStatus([row.id], 'lost', failure.message, new Date(now()));
              } else {
                log.warn({ shop: row.account, err: failure }, 'shopify check could not read the whole shop');
              }
              return failure;
            }
          });
          pending = { ids: asked, done };
          cache.pending = pending;
        }
        for (const id of stale) pending.ids.add(id);
        error = await pending.done;
      }
      const states = new Map<string, VariantState | null>();
      for (const id of ids) {
        const entry = cache.entries.get(id);
        if (entry) states.set(id, entry.state);
      }
      return { states, error };
    },

    /** Drops what is kept of connections no monitor checked for a while (a day), so memory stays bounded. */
    forgetIdle(): void {
      for (const [id, cache] of shops) {
        const newest = Math.max(0, ...[...cache.entries.values()].map((entry) => entry.at));
        if (!cache.pending && now() - newest > 24 * 3600 * 1000) {
          clearTimeout(cache.topUp);
          shops.delete(id);
        }
      }
    },
  };
}
export type ShopReader = ReturnType<typeof createShopReader>;
