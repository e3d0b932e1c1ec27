import {
  cents,
  gid,
  hasOnlyDefaultVariant,
  isOnlineStoreVisible,
  variantAvailable,
  variantName,
  type Product,
  type Shop,
  type Variant,
} from './shopify-shop.ts';

/**
 * The JSON Shopify sends and serves outside GraphQL, in its REST shapes (snake_case, numeric ids beside
 * `admin_graphql_api_id`): webhook payloads, and the storefront's Ajax API (`/products/{handle}.js`,
 * `/cart/add.js`) and `/meta.json`. Ajax prices are integers in the currency's minor unit.
 */
export interface PayloadUrls {
  /** The shop's storefront base (Shopify's https://{shop}). */
  shop: string;
  image(product: Product): string;
}

const MONEY_FORMATS: Record<string, string> = {
  USD: '${{amount}}',
  CAD: '${{amount}}',
  AUD: '${{amount}}',
  NZD: '${{amount}}',
  EUR: '€{{amount_with_comma_separator}}',
  GBP: '£{{amount}}',
  JPY: '¥{{amount_no_decimals}}',
};

export function moneyFormat(currency: string): string {
  return MONEY_FORMATS[currency] ?? `{{amount}} ${currency}`;
}

const moneyFormatters = new Map<string, Intl.NumberFormat>();

/** A price for people, in the shop's currency (one formatter per currency: making one is costly). */
export function formatMoney(amount: string, currency: string): string {
  let formatter = moneyFormatters.get(currency);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    moneyFormatters.set(currency, formatter);
  }
  return formatter.format(Number(amount));
}

function optionId(product: Product): number {
  return product.id * 10 + 1;
}

function productImage(product: Product, urls: PayloadUrls) {
  if (product.imageAlt === null) return null;
  return {
    id: product.id,
    alt: product.imageAlt || null,
    position: 1,
    product_id: product.id,
    created_at: product.createdAt,
    updated_at: product.updatedAt,
    admin_graphql_api_id: gid('ProductImage', product.id),
    width: 600,
    height: 600,
    src: urls.image(product),
    variant_ids: [],
  };
}

function restVariant(variant: Variant) {
  return {
    admin_graphql_api_id: gid('ProductVariant', variant.id),
    barcode: null,
    compare_at_price: null,
    created_at: variant.createdAt,
    id: variant.id,
    inventory_policy: variant.inventoryPolicy.toLowerCase(),
    position: variant.position,
    price: variant.price,
    product_id: variant.productId,
    sku: variant.sku,
    taxable: true,
    title: variant.title,
    updated_at: variant.updatedAt,
    option1: variant.title,
    option2: null,
    option3: null,
    image_id: null,
    inventory_item_id: variant.inventoryItemId,
    inventory_quantity: variant.inventoryQuantity,
    old_inventory_quantity: variant.inventoryQuantity,
    inventory_management: variant.tracked ? 'shopify' : null,
  };
}

/** The `products/update` payload: the REST product resource. */
export function productWebhookPayload(product: Product, urls: PayloadUrls) {
  const image = productImage(product, urls);
  return {
    admin_graphql_api_id: gid('Product', product.id),
    body_html: product.description,
    created_at: product.createdAt,
    handle: product.handle,
    id: product.id,
    product_type: product.productType,
    published_at: product.publishedAt,
    template_suffix: null,
    title: product.title,
    updated_at: product.updatedAt,
    vendor: product.vendor,
    status: product.status.toLowerCase(),
    published_scope: 'web',
    tags: '',
    variants: product.variants.map(restVariant),
    options: [
      {
        name: product.optionName ?? 'Title',
        id: optionId(product),
        product_id: product.id,
        position: 1,
        values: product.variants.map((v) => v.title),
      },
    ],
    images: image ? [image] : [],
    image,
    media: [],
    variant_gids: product.variants.map((v) => ({
      admin_graphql_api_id: gid('ProductVariant', v.id),
      updated_at: v.updatedAt,
    })),
    has_variants_that_requires_components: false,
    category: null,
  };
}

/** The `inventory_levels/update` payload: the level of one inventory item at the shop's location. */
export function inventoryLevelPayload(shop: Shop, variant: Variant, updatedAt: string) {
  return {
    inventory_item_id: variant.inventoryItemId,
    location_id: shop.locationId,
    available: variant.inventoryQuantity,
    updated_at: updatedAt,
    admin_graphql_api_id: `gid://shopify/InventoryLevel/${shop.locationId}?inventory_item_id=${variant.inventoryItemId}`,
  };
}

/** The `app/uninstalled` payload: the REST shop resource. */
export function shopPayload(shop: Shop, urls: PayloadUrls) {
  const format = moneyFormat(shop.currency);
  return {
    id: shop.id,
    name: shop.name,
    email: shop.email,
    domain: new URL(urls.shop).host,
    province: shop.province,
    country: shop.countryCode,
    address1: '',
    zip: '',
    city: shop.city,
    source: null,
    phone: '',
    latitude: null,
    longitude: null,
    primary_locale: 'en',
    address2: null,
    created_at: shop.createdAt,
    updated_at: shop.createdAt,
    country_code: shop.countryCode,
    country_name: shop.country,
    currency: shop.currency,
    customer_email: shop.email,
    timezone: '(GMT-08:00) Pacific Time (US & Canada)',
    iana_timezone: 'America/Los_Angeles',
    shop_owner: `${shop.name} owner`,
    money_format: format,
    money_with_currency_format: `${format} ${shop.currency}`,
    weight_unit: 'kg',
    province_code: shop.provinceCode,
    taxes_included: false,
    auto_configure_tax_inclusivity: null,
    tax_shipping: null,
    county_taxes: true,
    plan_display_name: 'Basic',
    plan_name: 'basic',
    has_discounts: false,
    has_gift_cards: false,
    myshopify_domain: shop.domain,
    google_apps_domain: null,
    google_apps_login_enabled: null,
    money_in_emails_format: format,
    money_with_currency_in_emails_format: `${format} ${shop.currency}`,
    eligible_for_payments: true,
    requires_extra_payments_agreement: false,
    password_enabled: shop.passwordEnabled,
    has_storefront: true,
    finances: true,
    primary_location_id: shop.locationId,
    checkout_api_supported: true,
    multi_location_enabled: true,
    setup_required: false,
    pre_launch_enabled: false,
    enabled_presentment_currencies: [shop.currency],
    transactional_sms_disabled: false,
    marketing_sms_consent_enabled_at_checkout: false,
  };
}

export const COMPLIANCE_TOPICS = ['customers/data_request', 'customers/redact', 'shop/redact'] as const;
export type ComplianceTopic = (typeof COMPLIANCE_TOPICS)[number];

export interface ComplianceCustomer {
  id: number;
  email: string;
  phone: string;
}

/** The mandatory compliance webhooks' payloads (a data request's and a redaction's ids are made up). */
export function compliancePayload(
  topic: ComplianceTopic,
  shop: Shop,
  customer: ComplianceCustomer,
  orders: number[],
  requestId: number,
) {
  const base = { shop_id: shop.id, shop_domain: shop.domain };
  switch (topic) {
    case 'customers/data_request':
      return { ...base, orders_requested: orders, customer, data_request: { id: requestId } };
    case 'customers/redact':
      return { ...base, customer, orders_to_redact: orders };
    case 'shop/redact':
      return base;
  }
}

// ---- The storefront's Ajax API and /meta.json. ----

export function productPath(product: Product): string {
  return `/products/${product.handle}`;
}

/** `GET /products/{handle}.js`. */
export function ajaxProduct(product: Product, urls: PayloadUrls) {
  const prices = product.variants.map((v) => cents(v.price));
  const image = product.imageAlt === null ? null : urls.image(product);
  const defaultOnly = hasOnlyDefaultVariant(product);
  return {
    id: product.id,
    title: product.title,
    handle: product.handle,
    description: product.description ? `<p>${product.description}</p>` : '',
    published_at: product.publishedAt,
    created_at: product.createdAt,
    vendor: product.vendor,
    type: product.productType,
    tags: [],
    price: Math.min(...prices),
    price_min: Math.min(...prices),
    price_max: Math.max(...prices),
    available: product.variants.some(variantAvailable),
    price_varies: Math.min(...prices) !== Math.max(...prices),
    compare_at_price: null,
    compare_at_price_min: 0,
    compare_at_price_max: 0,
    compare_at_price_varies: false,
    variants: product.variants.map((v) => ({
      id: v.id,
      title: v.title,
      option1: v.title,
      option2: null,
      option3: null,
      sku: v.sku,
      requires_shipping: true,
      taxable: true,
      featured_image: null,
      available: variantAvailable(v),
      name: variantName(product, v),
      public_title: defaultOnly ? null : v.title,
      options: [v.title],
      price: cents(v.price),
      weight: 0,
      compare_at_price: null,
      inventory_management: v.tracked ? 'shopify' : null,
      barcode: null,
      requires_selling_plan: false,
      selling_plan_allocations: [],
    })),
    images: image ? [image] : [],
    featured_image: image,
    options: [
      { name: product.optionName ?? 'Title', position: 1, values: product.variants.map((v) => v.title) },
    ],
    url: productPath(product),
    media: [],
    requires_selling_plan: false,
    selling_plan_groups: [],
  };
}

/** One line of `POST /cart/add.js`'s answer; `quantity` is the line's quantity after adding. */
export function cartLineItem(product: Product, variant: Variant, quantity: number, urls: PayloadUrls) {
  const price = cents(variant.price);
  const image = product.imageAlt === null ? null : urls.image(product);
  const defaultOnly = hasOnlyDefaultVariant(product);
  return {
    id: variant.id,
    properties: {},
    quantity,
    variant_id: variant.id,
    key: `${variant.id}:${variant.inventoryItemId.toString(16)}`,
    title: variantName(product, variant),
    price,
    original_price: price,
    presentment_price: Number(variant.price),
    discounted_price: price,
    line_price: price * quantity,
    original_line_price: price * quantity,
    total_discount: 0,
    discounts: [],
    sku: variant.sku,
    grams: 0,
    vendor: product.vendor,
    taxable: true,
    product_id: product.id,
    product_has_only_default_variant: defaultOnly,
    gift_card: false,
    final_price: price,
    final_line_price: price * quantity,
    url: `${productPath(product)}?variant=${variant.id}`,
    featured_image: image
      ? { aspect_ratio: 1, alt: product.imageAlt || product.title, height: 600, url: image, width: 600 }
      : null,
    image,
    handle: product.handle,
    requires_shipping: true,
    product_type: product.productType,
    product_title: product.title,
    product_description: product.description,
    variant_title: defaultOnly ? null : variant.title,
    variant_options: [variant.title],
    options_with_values: [{ name: product.optionName ?? 'Title', value: variant.title }],
    line_level_discount_allocations: [],
    line_level_total_discount: 0,
    has_components: false,
  };
}

/** `GET /meta.json`. */
export function metaJson(shop: Shop, urls: PayloadUrls) {
  return {
    id: shop.id,
    name: shop.name,
    city: shop.city,
    province: shop.province,
    country: shop.countryCode,
    currency: shop.currency,
    domain: new URL(urls.shop).host,
    url: urls.shop,
    myshopify_domain: shop.domain,
    description: '',
    ships_to_countries: [shop.countryCode],
    money_format: moneyFormat(shop.currency),
    published_collections_count: 0,
    published_products_count: shop.products.filter(isOnlineStoreVisible).length,
    shopify_pay_enabled_card_brands: [],
    offers_shop_pay_installments: false,
  };
}
