import {
  SHOPIFY_MAX_PRODUCTS,
  shopifyConditions,
  shopifyTargetInput,
  type ShopifyConditionKey,
} from '@vigil/contracts';
import { parseConditions } from '../conditions.ts';
import type { ServiceModule } from '../types.ts';
import { ShopifySection } from './shopify-section.tsx';

/** A chosen product as the form keeps it: its id, and its title and image for the chips. */
export type ChosenProduct = { productId: string; title: string; imageUrl: string | null };

export type ShopifyTargetValues = { connectionId: string; products: ChosenProduct[] };

/** The checks that look at the chosen products: each needs at least one. */
export const PRODUCT_CONDITIONS: readonly ShopifyConditionKey[] = [
  'checkout_broken',
  'product_out_of_stock',
  'product_unpublished',
  'product_price_changed',
];

/**
 * Checkout, stock, publication and price are checked on the products the monitor watches; with none chosen
 * those checks would watch nothing and never alert, so the form asks for one (or for the checks to be off).
 */
export const PRODUCTS_NEEDED_MESSAGE =
  'Choose at least one product: the checkout, out-of-stock, unpublished and price checks watch the products you choose. Or turn those checks off.';

export const SHOP_NEEDED_MESSAGE = 'Choose the shop to watch, or connect one.';

/** A Shopify shop, through its connection: the storefront, checkout and the chosen products. */
export const shopifyService: ServiceModule<ShopifyTargetValues> = {
  service: 'shopify',
  provider: 'shopify',
  initialTarget: (monitor) =>
    monitor?.service === 'shopify'
      ? {
          connectionId: monitor.target.connectionId,
          products: monitor.target.products.map(({ productId, title, imageUrl }) => ({
            productId,
            title,
            imageUrl,
          })),
        }
      : { connectionId: '', products: [] },
  // Products belong to a shop: another shop starts with none chosen.
  withConnection: (target, connection) => ({
    connectionId: connection.connectionId,
    products: connection.connectionId === target.connectionId ? target.products : [],
  }),
  check(target, values) {
    const errors: Record<string, string> = {};
    const productIds = target.products.map((product) => product.productId);
    if (!target.connectionId) errors['target.connectionId'] = SHOP_NEEDED_MESSAGE;
    if (productIds.length > SHOPIFY_MAX_PRODUCTS) {
      errors['target.products'] = `Choose at most ${SHOPIFY_MAX_PRODUCTS} products for one monitor.`;
    } else if (productIds.length === 0 && PRODUCT_CONDITIONS.some((key) => values[key]?.enabled)) {
      errors['target.products'] = PRODUCTS_NEEDED_MESSAGE;
    }
    const parsed = shopifyTargetInput.safeParse({ connectionId: target.connectionId, productIds });
    if (!parsed.success && Object.keys(errors).length === 0) {
      const issue = parsed.error.issues[0];
      errors[issue?.path[0] === 'productIds' ? 'target.products' : 'target.connectionId'] =
        issue?.message ?? SHOP_NEEDED_MESSAGE;
    }
    const conditions = parseConditions(errors, shopifyConditions, values);
    if (!parsed.success || !conditions || Object.keys(errors).length > 0) return { errors, part: null };
    return { errors, part: { service: 'shopify', target: parsed.data, conditions } };
  },
  formFieldOf: (path) => {
    if (path === 'target') return 'target.connectionId';
    if (path.startsWith('target.productIds')) return 'target.products';
    return path;
  },
  shownErrors: /^target\.(connectionId|products)$/,
  Section: ShopifySection,
};
