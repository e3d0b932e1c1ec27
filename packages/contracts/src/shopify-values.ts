/**
 * The Shopify contract's plain values, apart from its zod schemas (shopify.ts): the web app's first pages
 * import these without loading zod.
 */

/** Products one Shopify monitor watches at most (one `nodes(ids:)` query covers 250). */
export const SHOPIFY_MAX_PRODUCTS = 50;

/** The spec's page of shop products. */
export const SHOPIFY_PRODUCTS_PAGE = 10;
