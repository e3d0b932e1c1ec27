import { describe, expect, it } from 'vitest';
import { aShopifyMonitor, catalogue, connectionId, productId } from '../../../../test/monitor-fixtures.ts';
import { checkConditions, defaultConditions } from '../conditions.ts';
import { PRODUCTS_NEEDED_MESSAGE, SHOP_NEEDED_MESSAGE, shopifyService, type ChosenProduct } from './index.ts';
import { connectionProblem, formatPriceRange, formatStock, productStatusBadges } from './shopify-format.ts';

const definition = catalogue.list.find((entry) => entry.service === 'shopify')!;
const hoodie: ChosenProduct = { productId: productId(1), title: 'Hoodie 1', imageUrl: null };

function check(
  target: { connectionId: string; products: ChosenProduct[] },
  change: (c: ReturnType<typeof defaultConditions>) => void = () => {},
) {
  const values = defaultConditions(definition);
  change(values);
  const errors: Record<string, string> = {};
  const conditions = checkConditions(errors, definition, values);
  const checked = shopifyService.check(target, conditions);
  return { errors: { ...errors, ...checked.errors }, part: checked.part };
}

describe('shopify service', () => {
  it('sends the connection and the chosen products’ ids with the conditions', () => {
    const { errors, part } = check({ connectionId: connectionId(1), products: [hoodie] }, (c) => {
      c.product_out_of_stock = { enabled: true, threshold: 3 };
    });
    expect(errors).toEqual({});
    expect(part).toEqual({
      service: 'shopify',
      target: { connectionId: connectionId(1), productIds: [productId(1)] },
      conditions: {
        storefront_down: { enabled: true },
        checkout_broken: { enabled: false },
        product_out_of_stock: { enabled: true, threshold: 3 },
        product_unpublished: { enabled: true },
        product_price_changed: { enabled: false },
        app_uninstalled: { enabled: true },
      },
    });
  });

  it('needs a shop', () => {
    const { errors, part } = check({ connectionId: '', products: [] }, (c) => {
      c.product_out_of_stock!.enabled = false;
      c.product_unpublished!.enabled = false;
    });
    expect(part).toBeNull();
    expect(errors).toEqual({ 'target.connectionId': SHOP_NEEDED_MESSAGE });
  });

  it.each(['checkout_broken', 'product_out_of_stock', 'product_unpublished', 'product_price_changed'])(
    'needs a product while %s is on',
    (key) => {
      const { errors } = check({ connectionId: connectionId(1), products: [] }, (c) => {
        for (const condition of Object.values(c)) condition.enabled = false;
        c.storefront_down!.enabled = true;
        c[key]!.enabled = true;
      });
      expect(errors).toEqual({ 'target.products': PRODUCTS_NEEDED_MESSAGE });
    },
  );

  it('watches the storefront and the connection alone without products', () => {
    const { errors, part } = check({ connectionId: connectionId(1), products: [] }, (c) => {
      c.product_out_of_stock!.enabled = false;
      c.product_unpublished!.enabled = false;
    });
    expect(errors).toEqual({});
    expect(part?.target).toEqual({ connectionId: connectionId(1), productIds: [] });
  });

  it('refuses more than 50 products, and a stock threshold outside the catalogue', () => {
    const many = Array.from({ length: 51 }, (_, n) => ({ ...hoodie, productId: productId(n) }));
    expect(check({ connectionId: connectionId(1), products: many }).errors['target.products']).toBe(
      'Choose at most 50 products for one monitor.',
    );
    const { errors } = check({ connectionId: connectionId(1), products: [hoodie] }, (c) => {
      c.product_out_of_stock = { enabled: true, threshold: -1 };
    });
    expect(errors['conditions.product_out_of_stock.threshold']).toBe(
      'Enter a whole number from 0 to 10,000.',
    );
  });

  it('maps the server’s target paths onto its fields', () => {
    expect(shopifyService.formFieldOf?.('target.productIds.3')).toBe('target.products');
    expect(shopifyService.formFieldOf?.('target')).toBe('target.connectionId');
    expect(shopifyService.formFieldOf?.('target.connectionId')).toBe('target.connectionId');
  });
});

describe('shopify formatting', () => {
  it('shows a price, or a range, in the shop’s currency', () => {
    expect(formatPriceRange('39.00', '39.00', 'USD')).toBe('$39.00');
    expect(formatPriceRange('10', '24.5', 'EUR')).toBe('€10.00–€24.50');
    expect(formatPriceRange('5', '5', 'XYZ1')).toBe('5.00 XYZ1');
  });

  it('says the stock and the statuses that keep a product off the storefront', () => {
    expect(formatStock(null)).toBe('Stock not tracked');
    expect(formatStock(0)).toBe('Out of stock');
    expect(formatStock(1500)).toBe('1,500 in stock');
    expect(productStatusBadges({ status: 'DRAFT', publishedOnline: false })).toEqual(['Draft']);
    expect(productStatusBadges({ status: 'ARCHIVED', publishedOnline: true })).toEqual(['Archived']);
    expect(productStatusBadges({ status: 'ACTIVE', publishedOnline: false })).toEqual([
      'Not on the online store',
    ]);
    expect(productStatusBadges({ status: 'ACTIVE', publishedOnline: true })).toEqual([]);
  });

  it('reports a monitor whose connection does not work, with the reason', () => {
    expect(connectionProblem(aShopifyMonitor())).toBeNull();
    const lost = aShopifyMonitor({
      connection: {
        ...aShopifyMonitor().connection!,
        status: 'lost',
        statusReason: 'The app was uninstalled.',
      },
    });
    expect(connectionProblem(lost)).toEqual({ reason: 'The app was uninstalled.' });
    expect(connectionProblem(aShopifyMonitor({ connection: null }))).toEqual({
      reason: 'The shop is no longer connected to Vigil.',
    });
  });
});
