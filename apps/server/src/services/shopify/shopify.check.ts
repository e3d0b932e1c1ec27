import type { ShopifyConditions, ShopifyTarget, WatchedProduct } from '@vigil/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Checker, CheckOutcome, CheckRequest, ConditionResult } from '../../checks/checker.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { ConnectionRepository } from '../../modules/connections/connection.repository.ts';
import type { ShopApi, VariantState } from './shopify-api.ts';
import { createShopReader } from './shop-reader.ts';
import type { CartAttempt, Storefront, StorefrontState } from './storefront.ts';
import { createBatchLoader } from '../../lib/batch-loader.ts';

/** Storefront pages and add-to-cart tries of one shop within this long serve every monitor of the shop. */
export const STOREFRONT_TTL_MS = 20_000;
/** Connection rows asked for in the same moment are read with one statement. */
const CONNECTION_BATCH_MS = 5;
const FORGET_EVERY_MS = 10 * 60_000;

export interface ShopifyCheckerDeps {
  connections: Pick<ConnectionRepository, 'findMany' | 'watchedTargets' | 'setStatus'>;
  cipher: TokenCipher;
  api: ShopApi;
  storefront: Storefront;
  log: Pick<FastifyBaseLogger, 'warn'>;
  now?: () => number;
}

interface Cached<T> {
  at: number;
  value: Promise<T>;
}

/** A watched variant's last known state: null when the shop no longer has it, absent when never read. */
type States = Map<string, VariantState | null>;

const variantName = (product: { title: string }, variant: { title: string }) =>
  variant.title && variant.title !== 'Default Title' ? `${product.title} (${variant.title})` : product.title;

/** "Blue hoodie (M)", "Blue hoodie (M) and Cap", "Blue hoodie (M) and 2 more". */
function listNames(names: string[]): string {
  if (names.length <= 2) return names.join(' and ');
  return `${names[0]} and ${names.length - 1} more`;
}

const amount = (price: string) => Number.parseFloat(price);

export function createShopifyChecker(deps: ShopifyCheckerDeps): Checker {
  const { connections, cipher, api, storefront, log } = deps;
  const now = deps.now ?? Date.now;
  const reader = createShopReader({ connections, cipher, api, log, now });
  let lastForget = now();
  const homes = new Map<string, Cached<StorefrontState>>();
  const carts = new Map<string, Cached<CartAttempt>>();

  const loadConnection = createBatchLoader(
    async (ids) => new Map((await connections.findMany(ids)).map((row) => [row.id, row])),
    CONNECTION_BATCH_MS,
  );

  function cached<T>(cache: Map<string, Cached<T>>, key: string, since: number, load: () => Promise<T>) {
    const hit = cache.get(key);
    if (hit && hit.at > since && now() - hit.at < STOREFRONT_TTL_MS) return hit.value;
    const value = load();
    cache.set(key, { at: now(), value });
    // Forget failures at once, and everything after its time, so the maps hold only live shops.
    value.then(
      () => setTimeout(() => cache.get(key)?.value === value && cache.delete(key), STOREFRONT_TTL_MS).unref(),
      () => cache.get(key)?.value === value && cache.delete(key),
    );
    return value;
  }

  return {
    service: 'shopify',
    slotGroup: (target) => (target as ShopifyTarget).connectionId ?? null,

    async check(request: CheckRequest): Promise<CheckOutcome> {
      const target = request.target as ShopifyTarget;
      const conditions = request.conditions as ShopifyConditions;
      const row = await loadConnection(target.connectionId);
      const active = row?.status === 'active' && row.tokenCiphertext !== null;
      const ownIds = target.products.flatMap((product) =>
        product.variants.map((variant) => variant.variantId),
      );
      const [home, read] = await Promise.all([
        conditions.storefront_down.enabled
          ? cached(homes, target.shop, 0, () => storefront.home(target.storefrontUrl, request.signal))
          : Promise.resolve(null),
        active ? reader.variants(row, ownIds) : Promise.resolve(null),
      ]);
      if (now() - lastForget > FORGET_EVERY_MS) {
        lastForget = now();
        reader.forgetIdle();
      }
      const lostBy = !row
        ? 'The shop’s connection was removed.'
        : !active
          ? (row.statusReason ?? `The connection is ${row.status}.`)
          : read?.error?.kind === 'auth'
            ? read.error.message
            : null;

      const results: ConditionResult[] = [];
      if (conditions.app_uninstalled.enabled) {
        results.push(
          lostBy
            ? {
                key: 'app_uninstalled',
                ok: false,
                confirmed: true,
                summary: `Vigil lost access to ${target.shop}. ${lostBy}`,
              }
            : { key: 'app_uninstalled', ok: true, summary: `Vigil can read ${target.shop}` },
        );
      }
      if (home) results.push(judgeStorefront(target.shop, home));

      // Judged on what is known: a shop too big for its budget is judged on the variants' last known states.
      const known = read && !lostBy && ownIds.some((id) => read.states.has(id)) ? read.states : null;
      const cannotRead = lostBy
        ? `Vigil cannot read ${target.shop}’s products without access`
        : read?.error
          ? `${read.error.message} The products will be checked again at the next interval.`
          : `${target.shop}’s products could not be read`;
      const variants = known;
      const judge = (key: keyof ShopifyConditions, judgeWith: (states: States) => ConditionResult) => {
        if (!conditions[key].enabled) return;
        results.push(variants ? judgeWith(variants) : { key, ok: null, summary: cannotRead });
      };
      judge('product_out_of_stock', (states) =>
        judgeStock(target, states, conditions.product_out_of_stock.threshold),
      );
      judge('product_unpublished', (states) => judgeUnpublished(target, states));
      judge('product_price_changed', (states) => judgePrice(target, states));
      if (conditions.checkout_broken.enabled) {
        results.push(
          variants
            ? await judgeCart(target, variants, (variantId) =>
                cached(carts, `${target.shop} ${variantId}`, 0, () =>
                  storefront.addToCart(target.storefrontUrl, variantId, request.signal),
                ),
              )
            : { key: 'checkout_broken', ok: null, summary: cannotRead },
        );
      }
      return { responseMs: home?.responseMs ?? null, statusCode: home?.status ?? null, conditions: results };
    },
  };
}

export function judgeStorefront(shop: string, home: StorefrontState): ConditionResult {
  if (!home.up)
    return {
      key: 'storefront_down',
      ok: false,
      summary: `The storefront of ${shop} is down: ${home.problem}`,
    };
  if (home.passwordProtected) {
    return {
      key: 'storefront_down',
      ok: false,
      summary: `The storefront of ${shop} shows its password page: shoppers cannot buy`,
    };
  }
  return {
    key: 'storefront_down',
    ok: true,
    summary: `The storefront of ${shop} answered in ${home.responseMs} ms`,
  };
}

function eachVariant(
  target: ShopifyTarget,
  visit: (product: WatchedProduct, variant: WatchedProduct['variants'][number]) => void,
) {
  for (const product of target.products) for (const variant of product.variants) visit(product, variant);
}

export function judgeStock(target: ShopifyTarget, states: States, threshold: number): ConditionResult {
  const out: string[] = [];
  eachVariant(target, (product, variant) => {
    const state = states.get(variant.variantId);
    if (!state || !state.tracked || state.inventoryPolicy === 'CONTINUE') return;
    if ((state.inventoryQuantity ?? 0) <= threshold) out.push(variantName(product, state));
  });
  if (out.length === 0) {
    return {
      key: 'product_out_of_stock',
      ok: true,
      summary: `The watched products are in stock on ${target.shop}`,
    };
  }
  const verb = out.length === 1 ? 'is' : 'are';
  const state = threshold === 0 ? 'out of stock' : `at or under ${threshold} in stock`;
  return {
    key: 'product_out_of_stock',
    ok: false,
    confirmed: true,
    summary: `${listNames(out)} ${verb} ${state} on ${target.shop}`,
  };
}

export function judgeUnpublished(target: ShopifyTarget, states: States): ConditionResult {
  const problems: string[] = [];
  for (const product of target.products) {
    const read = product.variants.filter((variant) => states.has(variant.variantId));
    // Not read yet (a shop too big for its budget): nothing to say about it this time.
    if (read.length === 0) continue;
    const state = read.map((variant) => states.get(variant.variantId)).find(Boolean);
    if (!state) problems.push(`${product.title} was deleted`);
    else if (state.product.status === 'ARCHIVED') problems.push(`${state.product.title} is archived`);
    else if (state.product.status === 'DRAFT') problems.push(`${state.product.title} is a draft`);
    else if (state.product.onlineStoreUrl === null)
      problems.push(`${state.product.title} is not on the online store`);
  }
  if (problems.length === 0) {
    return {
      key: 'product_unpublished',
      ok: true,
      summary: `The watched products are on sale on ${target.shop}`,
    };
  }
  const summary =
    problems.length <= 2
      ? problems.join('; ')
      : `${problems[0]}, and ${problems.length - 1} more products cannot be bought`;
  return { key: 'product_unpublished', ok: false, confirmed: true, summary: `${summary} (${target.shop})` };
}

export function judgePrice(target: ShopifyTarget, states: States): ConditionResult {
  const changes: string[] = [];
  eachVariant(target, (product, variant) => {
    const state = states.get(variant.variantId);
    if (!state || amount(state.price) === amount(variant.price)) return;
    changes.push(
      `${variantName(product, state)} costs ${state.price} ${target.currency}, was ${variant.price}`,
    );
  });
  if (changes.length === 0) {
    return {
      key: 'product_price_changed',
      ok: true,
      summary: `The watched prices are unchanged on ${target.shop}`,
    };
  }
  const summary =
    changes.length <= 2 ? changes.join('; ') : `${changes[0]}; ${changes.length - 1} more prices changed`;
  return { key: 'product_price_changed', ok: false, confirmed: true, summary: `${summary} (${target.shop})` };
}

export async function judgeCart(
  target: ShopifyTarget,
  states: States,
  addToCart: (variantId: string) => Promise<CartAttempt>,
): Promise<ConditionResult> {
  let tried: { name: string; variantId: string } | undefined;
  eachVariant(target, (product, variant) => {
    const state = states.get(variant.variantId);
    if (
      !tried &&
      state?.availableForSale &&
      state.product.status === 'ACTIVE' &&
      state.product.onlineStoreUrl
    ) {
      tried = { name: variantName(product, state), variantId: variant.variantId };
    }
  });
  if (!tried) {
    return {
      key: 'checkout_broken',
      ok: null,
      summary: 'No watched product is for sale to try adding to the cart',
    };
  }
  const attempt = await addToCart(tried.variantId);
  if (attempt.ok)
    return {
      key: 'checkout_broken',
      ok: true,
      summary: `${tried.name} can be added to the cart on ${target.shop}`,
    };
  return {
    key: 'checkout_broken',
    ok: false,
    summary: `Adding ${tried.name} to the cart failed on ${target.shop}: ${attempt.problem}`,
  };
}
