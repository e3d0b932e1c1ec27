import { describe, expect, it } from 'vitest';
import {
  aConnection,
  aMonitor,
  aShopifyMonitor,
  catalogue,
  connectionId,
  freePlan,
  productId,
} from '../../../test/monitor-fixtures.ts';
import { initialFormValues, isCreatable, switchService, withConnection } from '../monitor-form.ts';
import { serviceModule, serviceModuleOfProvider } from './index.ts';

const limits = { catalogue, plan: freePlan };

describe('the service registry', () => {
  it('maps each service this app can create to its module, and nothing else', () => {
    expect(serviceModule('website')?.service).toBe('website');
    expect(serviceModule('shopify')?.service).toBe('shopify');
    expect(serviceModule('google_ads')?.service).toBe('google_ads');
    expect(serviceModule('facebook_ads')?.service).toBe('facebook_ads');
    expect(serviceModule('tiktok_ads')).toBeUndefined();
    expect(serviceModule('toString')).toBeUndefined();
    expect(serviceModuleOfProvider('shopify')?.service).toBe('shopify');
    expect(serviceModuleOfProvider('google')?.service).toBe('google_ads');
    expect(serviceModuleOfProvider('meta')?.service).toBe('facebook_ads');
  });

  it('offers a service when the catalogue has it available and the app has its module', () => {
    const byId = (id: string) => catalogue.list.find((entry) => entry.service === id)!;
    expect(isCreatable(byId('website'))).toBe(true);
    expect(isCreatable(byId('shopify'))).toBe(true);
    expect(isCreatable(byId('google_ads'))).toBe(true);
    expect(isCreatable(byId('facebook_ads'))).toBe(true);
    expect(isCreatable({ ...byId('facebook_ads'), available: false })).toBe(false);
    expect(isCreatable({ ...byId('website'), service: 'tiktok_ads' } as never)).toBe(false);
  });

  it("starts a new monitor on the catalogue's first creatable service, an edit on the monitor's", () => {
    expect(initialFormValues(limits).target).toEqual({ url: '' });
    const shopify = initialFormValues(limits, aShopifyMonitor());
    expect(shopify.service).toBe('shopify');
    expect(shopify.target).toEqual({
      connectionId: connectionId(1),
      products: [{ productId: productId(1), title: 'Hoodie 1', imageUrl: null }],
    });
    expect(shopify.conditions.product_out_of_stock).toEqual({ enabled: true, threshold: 0 });
  });

  it("switching service empties the section and takes the new service's default checks, keeping the rest", () => {
    const values = { ...initialFormValues(limits), name: 'Mine' };
    const switched = switchService(values, catalogue, 'shopify');
    expect(switched).toMatchObject({
      service: 'shopify',
      name: 'Mine',
      target: { connectionId: '', products: [] },
    });
    expect(Object.keys(switched.conditions)).toEqual([
      'storefront_down',
      'checkout_broken',
      'product_out_of_stock',
      'product_unpublished',
      'product_price_changed',
      'app_uninstalled',
    ]);
  });

  it('chooses a connection just made, on the Shopify service, keeping the other values', () => {
    const website = { ...initialFormValues(limits, aMonitor()), name: 'Kept' };
    const connected = withConnection(website, catalogue, aConnection({ connectionId: connectionId(2) }));
    expect(connected).toMatchObject({
      service: 'shopify',
      name: 'Kept',
      target: { connectionId: connectionId(2), products: [] },
    });
    // The same shop again keeps its products; another shop starts without.
    const editing = initialFormValues(limits, aShopifyMonitor());
    expect(withConnection(editing, catalogue, aConnection()).target).toEqual(editing.target);
    expect(withConnection(editing, catalogue, aConnection({ connectionId: connectionId(3) })).target).toEqual(
      {
        connectionId: connectionId(3),
        products: [],
      },
    );
  });
});
