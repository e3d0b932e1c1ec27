import type { InventoryPolicy, ProductStatus } from './shopify-shop.ts';

/** A product to add to a shop; everything but the title has a default. */
export interface ProductInput {
  title: string;
  /** Default: the title, slugified (made unique within the shop). */
  handle?: string;
  /** Default ACTIVE. */
  status?: ProductStatus;
  /** Published on the Online Store. Default true. */
  published?: boolean;
  vendor?: string;
  productType?: string;
  description?: string;
  /** Whether it has a featured image. Default true. */
  image?: boolean;
  /** The option the variants differ by ("Size"); absent for a product with one default variant. */
  optionName?: string;
  /** Default: one variant with `price` (default "10.00") and `inventoryQuantity` (default 10). */
  variants?: VariantInput[];
  price?: string;
  inventoryQuantity?: number;
}

export interface VariantInput {
  /** The option value ("M"); "Default Title" for the default variant. */
  title?: string;
  price: string;
  sku?: string;
  inventoryQuantity?: number;
  /** Default DENY: stops selling at zero. */
  inventoryPolicy?: InventoryPolicy;
  /** Default true. */
  tracked?: boolean;
}

export const DEMO_SHOP = {
  name: 'Vigil Demo Outfitters',
  domain: 'vigil-demo.myshopify.com',
  currency: 'USD',
  email: 'owner@vigil-demo.example',
  city: 'Portland',
  province: 'Oregon',
  provinceCode: 'OR',
  country: 'United States',
  countryCode: 'US',
};

const sized = (
  price: string,
  stock: Record<string, number>,
  extra: Partial<VariantInput> = {},
): Pick<ProductInput, 'optionName' | 'variants'> => ({
  optionName: 'Size',
  variants: Object.entries(stock).map(([size, inventoryQuantity]) => ({
    title: size,
    price,
    inventoryQuantity,
    ...extra,
  })),
});

/**
 * The demo shop's catalogue: 26 products (three pages of ten), sized apparel with tracked stock that stops
 * selling at zero (one size of the Blue hoodie is sold out), a beanie that keeps selling when out of stock, an
 * untracked gift card, a draft, an archived product and one active product not on the Online Store.
 */
export const DEMO_PRODUCTS: ProductInput[] = [
  {
    title: 'Blue hoodie',
    productType: 'Hoodies',
    description: 'Heavyweight cotton fleece hoodie in a washed indigo.',
    ...sized('49.00', { S: 12, M: 0, L: 7 }),
  },
  {
    title: 'Grey crewneck sweatshirt',
    productType: 'Sweatshirts',
    ...sized('45.00', { S: 8, M: 14, L: 5 }),
  },
  {
    title: 'Classic white tee',
    productType: 'T-shirts',
    ...sized('19.00', { S: 30, M: 42, L: 25, XL: 11 }),
  },
  { title: 'Black logo tee', productType: 'T-shirts', price: '22.00', inventoryQuantity: 37 },
  { title: 'Canvas tote bag', productType: 'Bags', price: '18.00', inventoryQuantity: 64 },
  { title: 'Trail running cap', productType: 'Hats', price: '24.00', inventoryQuantity: 19 },
  {
    title: 'Wool beanie',
    productType: 'Hats',
    description: 'Made to order: keeps selling when the shelf is empty.',
    variants: [{ price: '21.00', inventoryQuantity: 0, inventoryPolicy: 'CONTINUE' }],
  },
  { title: 'Merino hiking socks', productType: 'Socks', ...sized('16.00', { M: 40, L: 33 }) },
  { title: 'Waterproof rain jacket', productType: 'Jackets', ...sized('129.00', { S: 4, M: 6, L: 3 }) },
  { title: 'Insulated water bottle 750 ml', productType: 'Gear', price: '32.00', inventoryQuantity: 51 },
  { title: 'Leather card wallet', productType: 'Accessories', price: '39.00', inventoryQuantity: 2 },
  {
    title: 'Gift card',
    productType: 'Gift cards',
    image: false,
    description: 'Delivered by email; never runs out.',
    variants: [{ price: '25.00', inventoryQuantity: 0, tracked: false }],
  },
  { title: 'Organic cotton joggers', productType: 'Trousers', ...sized('59.00', { S: 9, M: 12, L: 10 }) },
  { title: 'Packable down vest', productType: 'Jackets', ...sized('95.00', { S: 3, M: 5, L: 2 }) },
  { title: 'Polarised sunglasses', productType: 'Accessories', price: '65.00', inventoryQuantity: 15 },
  { title: 'Enamel camp mug', productType: 'Gear', price: '14.00', inventoryQuantity: 88 },
  { title: 'Ripstop daypack 20 L', productType: 'Bags', price: '79.00', inventoryQuantity: 13 },
  { title: 'Fleece quarter-zip', productType: 'Sweatshirts', ...sized('69.00', { S: 6, M: 11, L: 8 }) },
  { title: 'Linen button-up shirt', productType: 'Shirts', ...sized('62.00', { S: 5, M: 7, L: 4 }) },
  { title: 'Denim trucker jacket', productType: 'Jackets', ...sized('110.00', { S: 2, M: 4, L: 3 }) },
  { title: 'Reflective running vest', productType: 'Gear', price: '29.00', inventoryQuantity: 21 },
  { title: 'Bamboo sunglasses case', productType: 'Accessories', price: '12.00', inventoryQuantity: 46 },
  {
    title: 'Winter parka',
    productType: 'Jackets',
    status: 'DRAFT',
    published: false,
    ...sized('249.00', { S: 0, M: 0, L: 0 }),
  },
  {
    title: 'Vintage windbreaker',
    productType: 'Jackets',
    status: 'ARCHIVED',
    published: false,
    price: '85.00',
    inventoryQuantity: 1,
  },
  {
    title: 'Trail map poster',
    productType: 'Prints',
    published: false,
    description: 'Sold at the shop counter only: not on the Online Store.',
    price: '19.00',
    inventoryQuantity: 30,
  },
  { title: 'Sticker pack', productType: 'Accessories', image: false, price: '6.00', inventoryQuantity: 120 },
];

const ADJECTIVES = [
  'Classic',
  'Everyday',
  'Heritage',
  'Lightweight',
  'Organic',
  'Recycled',
  'Rugged',
  'Soft',
];
const NOUNS = ['tee', 'hoodie', 'cap', 'tote', 'mug', 'beanie', 'jacket', 'backpack', 'scarf', 'bottle'];

/** `count` simple products, named and priced in a cycle, for benchmarks that need many. */
export function generatedProducts(count: number, startAt = 1): ProductInput[] {
  const products: ProductInput[] = [];
  for (let n = startAt; n < startAt + count; n += 1) {
    products.push({
      title: `${ADJECTIVES[n % ADJECTIVES.length]} ${NOUNS[n % NOUNS.length]} ${n}`,
      price: `${10 + (n % 90)}.00`,
      inventoryQuantity: n % 25,
    });
  }
  return products;
}
