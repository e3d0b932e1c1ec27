import type { ShopifyProduct, ShopifyProductsPage, WatchedProduct } from '@vigil/contracts';
import { type QueryCost, ShopifyError, type ShopifyClient, type ThrottleStatus } from './shopify.client.ts';

/** Most ids one `nodes` query takes, as Shopify allows. */
const NODES_PER_QUERY = 250;
/** Products per query when reading chosen products with their variants (≈51 points each). */
const PRODUCTS_PER_QUERY = 15;
const VARIANTS_PER_PRODUCT = 25;

const PRODUCT_FIELDS = `
  id title handle status onlineStoreUrl totalInventory tracksInventory
  featuredImage { url altText }
  priceRangeV2 { minVariantPrice { amount currencyCode } maxVariantPrice { amount currencyCode } }
  variants(first: 20) {
    nodes { id title price inventoryQuantity inventoryPolicy availableForSale inventoryItem { id tracked } }
  }`;

const PRODUCTS_QUERY = `query Products($first: Int, $after: String, $last: Int, $before: String, $query: String) {
  products(first: $first, after: $after, last: $last, before: $before, query: $query, sortKey: TITLE) {
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    nodes { ${PRODUCT_FIELDS} }
  }
}`;

const CHOSEN_QUERY = `query Chosen($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on Product {
      id title handle
      featuredImage { url }
      variants(first: ${VARIANTS_PER_PRODUCT}) { nodes { id title price inventoryItem { id } } }
    }
  }
}`;

const WATCH_QUERY = `query Watch($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on ProductVariant {
      id title price inventoryQuantity inventoryPolicy availableForSale
      inventoryItem { id tracked }
      product { id title status onlineStoreUrl }
    }
  }
}`;

const SHOP_QUERY = `query Shop { shop { name myshopifyDomain currencyCode primaryDomain { url } } }`;

const WEBHOOK_MUTATION = `mutation Subscribe($topic: WebhookSubscriptionTopic!, $callbackUrl: URL!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: { callbackUrl: $callbackUrl, format: JSON }) {
    webhookSubscription { id }
    userErrors { field message }
  }
}`;

/** The webhooks Vigil subscribes to on install, with the path each one is sent to. */
export const SUBSCRIBED_TOPICS = [
  { topic: 'PRODUCTS_UPDATE', path: 'products/update' },
  { topic: 'INVENTORY_LEVELS_UPDATE', path: 'inventory_levels/update' },
  { topic: 'APP_UNINSTALLED', path: 'app/uninstalled' },
] as const;

interface Money {
  amount: string;
  currencyCode: string;
}
interface ProductNode {
  id: string;
  title: string;
  handle: string;
  status: ShopifyProduct['status'];
  onlineStoreUrl: string | null;
  totalInventory: number | null;
  tracksInventory: boolean;
  featuredImage: { url: string; altText: string | null } | null;
  priceRangeV2: { minVariantPrice: Money; maxVariantPrice: Money };
  variants: {
    nodes: {
      id: string;
      title: string;
      price: string;
      inventoryQuantity: number | null;
      inventoryPolicy: 'DENY' | 'CONTINUE';
      availableForSale: boolean;
      inventoryItem: { id: string; tracked: boolean } | null;
    }[];
  };
}

/** A watched variant as a check reads it. */
export interface VariantState {
  variantId: string;
  title: string;
  price: string;
  inventoryQuantity: number | null;
  inventoryPolicy: 'DENY' | 'CONTINUE';
  availableForSale: boolean;
  tracked: boolean;
  product: { productId: string; title: string; status: string; onlineStoreUrl: string | null };
}

export interface ShopApiStats {
  queries: number;
  /** Points Shopify charged (actual cost). */
  cost: number;
  throttled: number;
}

/**
 * The Admin GraphQL operations Vigil uses, over one client, keeping each shop's rate-limit bucket: a query
 * waits until the bucket (as Shopify last reported it, refilled at its restore rate) holds its estimated cost,
 * and a THROTTLED or 429 answer waits the time the cost extension implies and tries again until the caller's
 * signal gives up. Waiting is never silent: the error that ends it says the shop throttled Vigil.
 */
export function createShopApi(client: ShopifyClient, now: () => number = Date.now) {
  const buckets = new Map<string, { status: ThrottleStatus; at: number }>();
  const stats: ShopApiStats = { queries: 0, cost: 0, throttled: 0 };

  function remember(shop: string, cost: QueryCost | null) {
    if (!cost) return;
    buckets.set(shop, { status: cost.throttleStatus, at: now() });
    stats.cost += cost.actualQueryCost ?? 0;
  }

  /** Milliseconds until the shop's bucket holds `points`, as far as Vigil knows. */
  function waitForBudget(shop: string, points: number): number {
    const bucket = buckets.get(shop);
    if (!bucket) return 0;
    const { maximumAvailable, currentlyAvailable, restoreRate } = bucket.status;
    const available = Math.min(
      maximumAvailable,
      currentlyAvailable + ((now() - bucket.at) / 1000) * restoreRate,
    );
    if (available >= Math.min(points, maximumAvailable)) return 0;
    return Math.ceil(((points - available) / Math.max(restoreRate, 1)) * 1000);
  }

  async function query<T>(
    shop: string,
    token: string,
    text: string,
    variables: Record<string, unknown>,
    estimatedCost: number,
    signal?: AbortSignal,
  ): Promise<T> {
    for (;;) {
      const wait = waitForBudget(shop, estimatedCost);
      if (wait > 0) await sleep(wait, signal, shop);
      try {
        stats.queries += 1;
        const result = await client.graphql<T>(shop, token, text, variables, signal);
        remember(shop, result.cost);
        return result.data;
      } catch (error) {
        if (!(error instanceof ShopifyError) || error.kind !== 'throttled') throw error;
        stats.throttled += 1;
        await sleep(error.retryAfterMs, signal, shop);
      }
    }
  }

  /**
   * `nodes(ids:)` in chunks of `perQuery` ids, `costPerNode` points each: the found nodes by id (ids the shop
   * does not have answer null and are left out).
   */
  async function nodesById<T extends { id?: string }>(
    shop: string,
    token: string,
    text: string,
    ids: string[],
    cost: { perQuery: number; perNode: number },
    signal?: AbortSignal,
  ): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    for (let i = 0; i < ids.length; i += cost.perQuery) {
      const chunk = ids.slice(i, i + cost.perQuery);
      const data = await query<{ nodes: (T | null)[] }>(
        shop,
        token,
        text,
        { ids: chunk },
        chunk.length * cost.perNode + 1,
        signal,
      );
      for (const node of data.nodes) if (node?.id) found.set(node.id, node);
    }
    return found;
  }

  return {
    stats,
    client,

    /** Whether the shop's bucket holds `points` now, as far as Vigil knows: a query that would not wait. */
    affords: (shop: string, points: number) => waitForBudget(shop, points) === 0,

    /** Milliseconds until the shop's bucket holds `points`, as far as Vigil knows. */
    budgetWaitMs: (shop: string, points: number) => waitForBudget(shop, points),

    /** The cost Vigil estimates for reading `count` variants by id. */
    variantReadCost: (count: number) => count * 3 + 1,

    async shopInfo(shop: string, token: string, signal?: AbortSignal) {
      const data = await query<{
        shop: {
          name: string;
          myshopifyDomain: string;
          currencyCode: string;
          primaryDomain: { url: string } | null;
        };
      }>(shop, token, SHOP_QUERY, {}, 2, signal);
      return data.shop;
    },

    /** Subscribes the shop's webhooks to `${publicUrl}/webhooks/shopify/<topic>`; resolves with the ones refused. */
    async subscribeWebhooks(shop: string, token: string, publicUrl: string): Promise<string[]> {
      const refused: string[] = [];
      for (const { topic, path } of SUBSCRIBED_TOPICS) {
        const data = await query<{
          webhookSubscriptionCreate: { userErrors: { message: string }[] };
        }>(
          shop,
          token,
          WEBHOOK_MUTATION,
          { topic, callbackUrl: `${publicUrl}/webhooks/shopify/${path}` },
          10,
        );
        const errors = data.webhookSubscriptionCreate.userErrors;
        // Subscribing again to the same address is refused as taken: the subscription exists, as wanted.
        if (errors.length > 0 && !errors.every((error) => /taken|already/i.test(error.message))) {
          refused.push(`${topic}: ${errors.map((error) => error.message).join('; ')}`);
        }
      }
      return refused;
    },

    /** One page of the shop's products by cursor, with a title search. */
    async products(
      shop: string,
      token: string,
      page: { limit: number; cursor?: string; direction: 'next' | 'previous'; search?: string },
      signal?: AbortSignal,
    ): Promise<Omit<ShopifyProductsPage, 'shop'>> {
      const backwards = page.direction === 'previous' && page.cursor !== undefined;
      const variables = {
        first: backwards ? null : page.limit,
        after: backwards ? null : (page.cursor ?? null),
        last: backwards ? page.limit : null,
        before: backwards ? page.cursor : null,
        query: page.search ? titleSearch(page.search) : null,
      };
      const data = await query<{
        products: { pageInfo: ShopifyProductsPage['pageInfo']; nodes: ProductNode[] };
      }>(shop, token, PRODUCTS_QUERY, variables, page.limit * 45 + 2, signal);
      return { list: data.products.nodes.map(toProduct), pageInfo: data.products.pageInfo };
    },

    /** The chosen products as a monitor keeps them; ids the shop does not have are listed in `missing`. */
    async chosenProducts(shop: string, token: string, ids: string[], signal?: AbortSignal) {
      const found = await nodesById<{
        id: string;
        title: string;
        handle: string;
        featuredImage: { url: string } | null;
        variants: {
          nodes: { id: string; title: string; price: string; inventoryItem: { id: string } | null }[];
        };
      }>(
        shop,
        token,
        CHOSEN_QUERY,
        ids,
        { perQuery: PRODUCTS_PER_QUERY, perNode: VARIANTS_PER_PRODUCT * 2 + 2 },
        signal,
      );
      const products: WatchedProduct[] = [];
      for (const id of ids) {
        const node = found.get(id);
        if (!node) continue;
        products.push({
          productId: node.id,
          title: node.title,
          handle: node.handle,
          imageUrl: node.featuredImage?.url ?? null,
          variants: node.variants.nodes.map((variant) => ({
            variantId: variant.id,
            title: variant.title,
            price: variant.price,
            inventoryItemId: variant.inventoryItem?.id ?? null,
          })),
        });
      }
      return { products, missing: ids.filter((id) => !found.has(id)) };
    },

    /** Most variants one read by id takes. */
    variantsPerQuery: NODES_PER_QUERY,

    /** The current state of watched variants: one query per 250 (≈3 points each). Unknown ids are left out. */
    async variantStates(shop: string, token: string, ids: string[], signal?: AbortSignal) {
      const found = await nodesById<{
        id: string;
        title: string;
        price: string;
        inventoryQuantity: number | null;
        inventoryPolicy: 'DENY' | 'CONTINUE';
        availableForSale: boolean;
        inventoryItem: { id: string; tracked: boolean } | null;
        product: { id: string; title: string; status: string; onlineStoreUrl: string | null };
      }>(shop, token, WATCH_QUERY, ids, { perQuery: NODES_PER_QUERY, perNode: 3 }, signal);
      const states = new Map<string, VariantState>();
      for (const [id, node] of found) {
        states.set(id, {
          variantId: node.id,
          title: node.title,
          price: node.price,
          inventoryQuantity: node.inventoryQuantity,
          inventoryPolicy: node.inventoryPolicy,
          availableForSale: node.availableForSale,
          tracked: node.inventoryItem?.tracked ?? false,
          product: {
            productId: node.product.id,
            title: node.product.title,
            status: node.product.status,
            onlineStoreUrl: node.product.onlineStoreUrl,
          },
        });
      }
      return states;
    },
  };
}
export type ShopApi = ReturnType<typeof createShopApi>;

/** Shopify's search syntax: each word must appear in the title. */
function titleSearch(text: string): string {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => `title:*${word.replace(/[\\:"'()*]/g, '')}*`)
    .join(' AND ');
}

function toProduct(node: ProductNode): ShopifyProduct {
  const tracked = node.variants.nodes.filter((variant) => variant.inventoryItem?.tracked);
  return {
    productId: node.id,
    title: node.title,
    handle: node.handle,
    status: node.status,
    publishedOnline: node.onlineStoreUrl !== null,
    imageUrl: node.featuredImage?.url ?? null,
    imageAlt: node.featuredImage?.altText ?? null,
    priceMin: node.priceRangeV2.minVariantPrice.amount,
    priceMax: node.priceRangeV2.maxVariantPrice.amount,
    currency: node.priceRangeV2.minVariantPrice.currencyCode,
    totalInventory: tracked.length > 0 ? node.totalInventory : null,
    variants: node.variants.nodes.map((variant) => ({
      variantId: variant.id,
      title: variant.title,
      price: variant.price,
      inventoryQuantity: variant.inventoryItem?.tracked ? variant.inventoryQuantity : null,
      inventoryPolicy: variant.inventoryPolicy,
      availableForSale: variant.availableForSale,
    })),
  };
}

function sleep(ms: number, signal: AbortSignal | undefined, shop: string): Promise<void> {
  if (signal?.aborted) return Promise.reject(throttledOut(shop));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      reject(throttledOut(shop));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function throttledOut(shop: string) {
  return new ShopifyError(
    `${shop} kept Vigil waiting for its API rate limit longer than the check may take.`,
    429,
    'throttled',
  );
}
