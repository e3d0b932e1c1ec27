import { z } from 'zod';
import { envelope } from './envelope.ts';
import { SHOPIFY_MAX_PRODUCTS, SHOPIFY_PRODUCTS_PAGE } from './shopify-values.ts';

const onOff = z.object({ enabled: z.boolean() });

/** Each on/off with its thresholds, as the catalogue lists them. */
export const shopifyConditions = z.object({
  /** The storefront does not load, or shows its password page. */
  storefront_down: onOff,
  /** A real `POST /cart/add.js` of a watched variant in stock fails. */
  checkout_broken: onOff,
  /** A watched variant's tracked inventory is at or under `threshold` (and it does not keep selling). */
  product_out_of_stock: onOff.extend({ threshold: z.number().int().min(0).max(10_000) }),
  /** A watched product is no longer active, or not published on the online store. */
  product_unpublished: onOff,
  /** A watched variant's price differs from its price when the product was chosen. */
  product_price_changed: onOff,
  /** The app was uninstalled or its access revoked, so Vigil can no longer read the shop. */
  app_uninstalled: onOff,
});
export type ShopifyConditions = z.infer<typeof shopifyConditions>;
export type ShopifyConditionKey = keyof ShopifyConditions;

const productGid = z
  .string()
  .regex(/^gid:\/\/shopify\/Product\/\d+$/, 'Choose products from the shop’s list.')
  .max(100);

/** What the form sends: the connection (the shop) and the chosen products; the server reads the rest. */
export const shopifyTargetInput = z.object({
  connectionId: z.uuid({ error: 'Connect the shop first.' }),
  productIds: z
    .array(productGid)
    .max(SHOPIFY_MAX_PRODUCTS, `Choose at most ${SHOPIFY_MAX_PRODUCTS} products for one monitor.`)
    .default([]),
});
export type ShopifyTargetInput = z.infer<typeof shopifyTargetInput>;

/** A watched variant as it was when chosen: the price-change condition compares with `price`. */
export const watchedVariant = z.object({
  variantId: z.string(),
  title: z.string(),
  price: z.string(),
  inventoryItemId: z.string().nullable(),
});

export const watchedProduct = z.object({
  productId: z.string(),
  title: z.string(),
  handle: z.string(),
  imageUrl: z.string().nullable(),
  variants: z.array(watchedVariant),
});
export type WatchedProduct = z.infer<typeof watchedProduct>;

/** What a Shopify monitor stores and answers: the shop and what the chosen products were when chosen. */
export const shopifyTarget = z.object({
  connectionId: z.string(),
  /** The shop's myshopify domain. */
  shop: z.string(),
  /** The storefront's address (the shop's primary domain). */
  storefrontUrl: z.string(),
  currency: z.string(),
  products: z.array(watchedProduct),
});
export type ShopifyTarget = z.infer<typeof shopifyTarget>;

// ---- `GET /monitor-bff/monitor/shopify-products`: the shop's products, 10 a page by cursor. ----
export const shopifyProductsQuery = z
  .object({
    /** The spec's parameter: the monitor whose shop to list. */
    monitorId: z.uuid({ error: 'That monitor does not exist.' }).optional(),
    /** For a monitor being created: the connection (shop) chosen in the form. */
    connectionId: z.uuid({ error: 'That connection does not exist.' }).optional(),
    limit: z.coerce.number().int().min(1).max(50).default(SHOPIFY_PRODUCTS_PAGE),
    /** `pageInfo.endCursor` of the previous page (next) or `startCursor` with `direction=previous`. */
    cursor: z.string().max(500).optional(),
    direction: z.enum(['next', 'previous']).default('next'),
    /** Title search. */
    query: z.string().trim().max(100).optional(),
  })
  .refine((query) => query.monitorId !== undefined || query.connectionId !== undefined, {
    message: 'Name the monitor (monitorId) or the shop connection (connectionId).',
    path: ['monitorId'],
  });

export const shopifyVariant = z.object({
  variantId: z.string(),
  title: z.string(),
  price: z.string(),
  /** Null when the variant's inventory is not tracked. */
  inventoryQuantity: z.number().int().nullable(),
  /** CONTINUE: keeps selling when out of stock. */
  inventoryPolicy: z.enum(['DENY', 'CONTINUE']),
  availableForSale: z.boolean(),
});

export const shopifyProduct = z.object({
  productId: z.string(),
  title: z.string(),
  handle: z.string(),
  status: z.enum(['ACTIVE', 'ARCHIVED', 'DRAFT']),
  /** Published on the online store (it has a storefront address). */
  publishedOnline: z.boolean(),
  imageUrl: z.string().nullable(),
  imageAlt: z.string().nullable(),
  priceMin: z.string(),
  priceMax: z.string(),
  currency: z.string(),
  /** Sum over tracked variants; null when no variant is tracked. */
  totalInventory: z.number().int().nullable(),
  variants: z.array(shopifyVariant),
});
export type ShopifyProduct = z.infer<typeof shopifyProduct>;

export const shopifyProductsResponse = envelope(
  z.object({
    list: z.array(shopifyProduct),
    pageInfo: z.object({
      hasNextPage: z.boolean(),
      hasPreviousPage: z.boolean(),
      startCursor: z.string().nullable(),
      endCursor: z.string().nullable(),
    }),
    shop: z.string(),
  }),
);
export type ShopifyProductsPage = z.infer<typeof shopifyProductsResponse>['data'];
