import type { ServiceDefinition } from '@vigil/contracts';

/** The `shopify` service's catalogue entry: its conditions with their defaults and bounds (contracts' `shopifyConditions`). */
export const SHOPIFY_SERVICE: ServiceDefinition = {
  service: 'shopify',
  name: 'Shopify store',
  description: 'Your Shopify shop and the products you choose, through the Vigil app.',
  available: true,
  unavailableReason: null,
  targetLabel: 'Shop (connect with Shopify)',
  conditions: [
    {
      key: 'storefront_down',
      label: 'Storefront down',
      description: 'The storefront does not load, or shows its password page so shoppers cannot buy.',
      enabledByDefault: true,
      params: [],
    },
    {
      key: 'checkout_broken',
      label: 'Add to cart broken',
      description: 'Adding a watched product that is in stock to the cart fails on the storefront.',
      enabledByDefault: true,
      params: [],
    },
    {
      key: 'product_out_of_stock',
      label: 'Product out of stock',
      description:
        'A watched product’s tracked stock falls to this many or fewer (products that keep selling when out of stock are left alone).',
      enabledByDefault: true,
      params: [
        {
          key: 'threshold',
          label: 'Alert at or under',
          type: 'number',
          unit: 'in stock',
          default: 0,
          min: 0,
          max: 10_000,
        },
      ],
    },
    {
      key: 'product_unpublished',
      label: 'Product unavailable',
      description: 'A watched product is archived, set to draft, deleted or taken off the online store.',
      enabledByDefault: true,
      params: [],
    },
    {
      key: 'product_price_changed',
      label: 'Price changed',
      description: 'A watched product’s price differs from its price when you chose it.',
      enabledByDefault: false,
      params: [],
    },
    {
      key: 'app_uninstalled',
      label: 'Connection lost',
      description: 'The Vigil app was uninstalled or its access revoked, so the shop is no longer watched.',
      enabledByDefault: true,
      params: [],
    },
  ],
};
