/**
 * The shops the Shopify stand-in plays, as plain objects: what the Admin API, the storefront, the webhooks and
 * the control page read. Kept lean (numbers and short strings, maps by id) so a benchmark can hold a thousand
 * shops, or one shop with thousands of products.
 */
export type ProductStatus = 'ACTIVE' | 'ARCHIVED' | 'DRAFT';
export const PRODUCT_STATUSES: readonly ProductStatus[] = ['ACTIVE', 'ARCHIVED', 'DRAFT'];
export type InventoryPolicy = 'DENY' | 'CONTINUE';
/** The currencies a sandbox shop may use (a subset of Shopify's CurrencyCode enum). */
export const CURRENCY_CODES = [
  'AED',
  'AUD',
  'BRL',
  'CAD',
  'CHF',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'GBP',
  'HKD',
  'INR',
  'JPY',
  'KRW',
  'MXN',
  'NOK',
  'NZD',
  'PLN',
  'SEK',
  'SGD',
  'USD',
  'ZAR',
] as const;

export interface Variant {
  readonly kind: 'ProductVariant';
  readonly id: number;
  readonly productId: number;
  readonly inventoryItemId: number;
  title: string;
  /** Shopify's Money: a decimal string with two places, "49.00". */
  price: string;
  sku: string;
  inventoryQuantity: number;
  inventoryPolicy: InventoryPolicy;
  /** Whether Shopify tracks the inventory (InventoryItem.tracked). */
  tracked: boolean;
  position: number;
  createdAt: string;
  updatedAt: string;
}

export interface Product {
  readonly kind: 'Product';
  readonly id: number;
  title: string;
  handle: string;
  status: ProductStatus;
  vendor: string;
  productType: string;
  description: string;
  /** When it was published on the Online Store; null when it is not. */
  publishedAt: string | null;
  /** The featured image's alt text; null for a product without an image. */
  imageAlt: string | null;
  /** The option the variants differ by ("Size"), null for a product with only the default variant. */
  optionName: string | null;
  variants: Variant[];
  createdAt: string;
  updatedAt: string;
}

export interface WebhookSubscription {
  readonly kind: 'WebhookSubscription';
  readonly id: number;
  /** The GraphQL enum value, PRODUCTS_UPDATE. */
  topic: string;
  callbackUrl: string;
  format: 'JSON' | 'XML';
  /** The Admin API version the subscription was created with; webhooks are serialized for it. */
  apiVersion: string;
  includeFields: string[];
  metafieldNamespaces: string[];
  filter: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The Vigil app on one shop. One offline token is valid at a time; uninstalling revokes it. */
export interface Installation {
  scopes: string[];
  /** The valid offline access token, null once revoked. */
  token: string | null;
  subscriptions: WebhookSubscription[];
  installedAt: string;
  uninstalledAt: string | null;
}

/** Shopify's leaky bucket for one app on one shop, in calculated-cost points. */
export interface Bucket {
  maximumAvailable: number;
  restoreRate: number;
  available: number;
  /** When `available` was last brought up to date (ms since the epoch). */
  at: number;
}

export interface ApiFault {
  status: number;
  remaining: number;
}

export interface Shop {
  readonly kind: 'Shop';
  readonly id: number;
  /** The myshopify domain, vigil-demo.myshopify.com. */
  readonly domain: string;
  name: string;
  currency: string;
  email: string;
  city: string;
  province: string;
  provinceCode: string;
  country: string;
  countryCode: string;
  readonly locationId: number;
  createdAt: string;
  /** The storefront is locked behind /password. */
  passwordEnabled: boolean;
  storefrontPassword: string;
  /** Add to cart answers 500, like a broken theme or app. */
  cartBroken: boolean;
  /** In id order (ids only grow), which is also the Admin API's default sort. */
  products: Product[];
  productsById: Map<number, Product>;
  productsByHandle: Map<string, Product>;
  variantsById: Map<number, Variant>;
  variantsByInventoryItem: Map<number, Variant>;
  installation: Installation | null;
  bucket: Bucket;
  calls: { requests: number; cost: number; throttled: number };
  faults: ApiFault[];
}

export function gid(type: string, id: number): string {
  return `gid://shopify/${type}/${id}`;
}

/** `gid://shopify/Product/123` → { type: 'Product', id: 123 }; null for anything else. */
export function parseGid(value: string): { type: string; id: number } | null {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d{1,16})(?:\?.*)?$/.exec(value);
  return match ? { type: match[1]!, id: Number(match[2]) } : null;
}

/** A number, a numeric string or a gid of the given type → the numeric id; null otherwise. */
export function idOf(value: unknown, type: string): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (typeof value !== 'string') return null;
  if (/^\d{1,16}$/.test(value)) return Number(value);
  const parsed = parseGid(value);
  return parsed?.type === type ? parsed.id : null;
}

/** Price as Shopify keeps it: "49" and "49.5" become "49.00" and "49.50"; null when it is not a price. */
export function normalizePrice(value: unknown): string | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(text)) return null;
  return Number(text).toFixed(2);
}

export function cents(price: string): number {
  return Math.round(Number(price) * 100);
}

export function slugify(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'shop'
  );
}

/** Published on the Online Store and active: it has a storefront page. */
export function isOnlineStoreVisible(product: Product): boolean {
  return product.status === 'ACTIVE' && product.publishedAt !== null;
}

/** Whether a customer can buy the variant now: untracked, keeps selling, or has stock. */
export function variantAvailable(variant: Variant): boolean {
  return !variant.tracked || variant.inventoryPolicy === 'CONTINUE' || variant.inventoryQuantity > 0;
}

/** Shopify's totalInventory: the sum over the variants whose inventory is tracked. */
export function totalInventory(product: Product): number {
  let total = 0;
  for (const variant of product.variants) if (variant.tracked) total += variant.inventoryQuantity;
  return total;
}

export function tracksInventory(product: Product): boolean {
  return product.variants.some((variant) => variant.tracked);
}

export function hasOnlyDefaultVariant(product: Product): boolean {
  return product.optionName === null;
}

/** "Blue hoodie - M", or the product title for the default variant (Shopify's variant name). */
export function variantName(product: Product, variant: Variant): string {
  return hasOnlyDefaultVariant(product) ? product.title : `${product.title} - ${variant.title}`;
}
