import {
  buildSchema,
  defaultFieldResolver,
  execute,
  getArgumentValues,
  getNamedType,
  getVariableValues,
  GraphQLError,
  isAbstractType,
  isCompositeType,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLSchema,
  type NamedTypeNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { productFilter } from './shopify-search.ts';
import {
  CURRENCY_CODES,
  gid,
  hasOnlyDefaultVariant,
  isOnlineStoreVisible,
  parseGid,
  totalInventory,
  tracksInventory,
  variantAvailable,
  variantName,
  type Installation,
  type Product,
  type Shop,
  type Variant,
  type WebhookSubscription,
} from './shopify-shop.ts';

/**
 * A subset of Shopify's GraphQL Admin API (2025-01 names and types), executed for real with graphql-js over
 * the in-memory shop, with Shopify's calculated query cost and leaky-bucket throttling: every answer carries
 * `extensions.cost`; a query the bucket cannot pay is answered `Throttled` and charged nothing.
 */
const SDL = /* GraphQL */ `
  scalar DateTime
  scalar Decimal
  scalar Money
  scalar URL
  scalar UnsignedInt64

  enum CurrencyCode { ${CURRENCY_CODES.join(' ')} }
  enum ProductStatus { ACTIVE ARCHIVED DRAFT }
  enum ProductVariantInventoryPolicy { CONTINUE DENY }
  enum ProductSortKeys { CREATED_AT ID INVENTORY_TOTAL PRODUCT_TYPE PUBLISHED_AT RELEVANCE TITLE UPDATED_AT VENDOR }
  enum ProductVariantSortKeys { ID POSITION SKU TITLE }
  enum CountPrecision { AT_LEAST EXACT }
  enum WebhookSubscriptionTopic {
    APP_UNINSTALLED INVENTORY_LEVELS_UPDATE PRODUCTS_CREATE PRODUCTS_UPDATE SHOP_UPDATE
  }
  enum WebhookSubscriptionFormat { JSON XML }
  enum WebhookSubscriptionSortKeys { CREATED_AT ID RELEVANCE }

  interface Node { id: ID! }

  type Query {
    shop: Shop!
    products(first: Int, after: String, last: Int, before: String, query: String,
      sortKey: ProductSortKeys = ID, reverse: Boolean = false): ProductConnection!
    product(id: ID!): Product
    productVariant(id: ID!): ProductVariant
    node(id: ID!): Node
    nodes(ids: [ID!]!): [Node]!
    webhookSubscriptions(first: Int, after: String, last: Int, before: String,
      topics: [WebhookSubscriptionTopic!], callbackUrl: URL, format: WebhookSubscriptionFormat,
      sortKey: WebhookSubscriptionSortKeys = CREATED_AT, reverse: Boolean = false): WebhookSubscriptionConnection!
    webhookSubscription(id: ID!): WebhookSubscription
  }

  type Mutation {
    webhookSubscriptionCreate(topic: WebhookSubscriptionTopic!,
      webhookSubscription: WebhookSubscriptionInput!): WebhookSubscriptionCreatePayload
    webhookSubscriptionDelete(id: ID!): WebhookSubscriptionDeletePayload
  }

  type Shop implements Node {
    id: ID!
    name: String!
    email: String!
    myshopifyDomain: String!
    currencyCode: CurrencyCode!
    primaryDomain: Domain!
    url: URL!
  }

  type Domain implements Node { id: ID! host: String! url: URL! sslEnabled: Boolean! }

  type Image { id: ID url: URL! altText: String width: Int height: Int }
  type MoneyV2 { amount: Decimal! currencyCode: CurrencyCode! }
  type ProductPriceRangeV2 { minVariantPrice: MoneyV2! maxVariantPrice: MoneyV2! }
  type Count { count: Int! precision: CountPrecision! }
  type SelectedOption { name: String! value: String! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }

  type Product implements Node {
    id: ID!
    legacyResourceId: UnsignedInt64!
    title: String!
    handle: String!
    status: ProductStatus!
    vendor: String!
    productType: String!
    description: String!
    featuredImage: Image
    priceRangeV2: ProductPriceRangeV2!
    totalInventory: Int!
    tracksInventory: Boolean!
    hasOnlyDefaultVariant: Boolean!
    onlineStoreUrl: URL
    onlineStorePreviewUrl: URL
    publishedAt: DateTime
    createdAt: DateTime!
    updatedAt: DateTime!
    variants(first: Int, after: String, last: Int, before: String, reverse: Boolean = false,
      sortKey: ProductVariantSortKeys = POSITION): ProductVariantConnection!
    variantsCount: Count
  }
  type ProductConnection { edges: [ProductEdge!]! nodes: [Product!]! pageInfo: PageInfo! }
  type ProductEdge { cursor: String! node: Product! }

  type ProductVariant implements Node {
    id: ID!
    legacyResourceId: UnsignedInt64!
    title: String!
    displayName: String!
    price: Money!
    compareAtPrice: Money
    sku: String
    position: Int!
    inventoryQuantity: Int
    inventoryPolicy: ProductVariantInventoryPolicy!
    availableForSale: Boolean!
    inventoryItem: InventoryItem!
    product: Product!
    selectedOptions: [SelectedOption!]!
    createdAt: DateTime!
    updatedAt: DateTime!
  }
  type ProductVariantConnection { edges: [ProductVariantEdge!]! nodes: [ProductVariant!]! pageInfo: PageInfo! }
  type ProductVariantEdge { cursor: String! node: ProductVariant! }

  type InventoryItem implements Node {
    id: ID!
    legacyResourceId: UnsignedInt64!
    tracked: Boolean!
    sku: String
    variant: ProductVariant!
  }

  type ApiVersion { handle: String! displayName: String! supported: Boolean! }
  type WebhookHttpEndpoint { callbackUrl: URL! }
  union WebhookSubscriptionEndpoint = WebhookHttpEndpoint
  type WebhookSubscription implements Node {
    id: ID!
    legacyResourceId: UnsignedInt64!
    topic: WebhookSubscriptionTopic!
    format: WebhookSubscriptionFormat!
    callbackUrl: URL!
    uri: String!
    endpoint: WebhookSubscriptionEndpoint!
    apiVersion: ApiVersion!
    includeFields: [String!]!
    metafieldNamespaces: [String!]!
    filter: String
    createdAt: DateTime!
    updatedAt: DateTime!
  }
  type WebhookSubscriptionConnection {
    edges: [WebhookSubscriptionEdge!]!
    nodes: [WebhookSubscription!]!
    pageInfo: PageInfo!
  }
  type WebhookSubscriptionEdge { cursor: String! node: WebhookSubscription! }

  input WebhookSubscriptionInput {
    callbackUrl: URL
    uri: String
    format: WebhookSubscriptionFormat
    includeFields: [String!]
    metafieldNamespaces: [String!]
    filter: String
  }
  type UserError { field: [String!] message: String! }
  type WebhookSubscriptionCreatePayload { userErrors: [UserError!]! webhookSubscription: WebhookSubscription }
  type WebhookSubscriptionDeletePayload { deletedWebhookSubscriptionId: ID userErrors: [UserError!]! }
`;

/** Shopify's figures: the most a single query may request, and the most ids an input array may carry. */
export const SINGLE_QUERY_MAX_COST = 1000;
const MAX_INPUT_ARRAY = 250;
const MAX_PAGE_SIZE = 250;
const RATE_LIMITS_DOC = 'https://shopify.dev/api/usage/rate-limits';

export interface UserError {
  field: string[] | null;
  message: string;
}

/** What the resolvers need from the sandbox beyond the shop itself. */
export interface GraphqlHost {
  shopUrl(shop: Shop): string;
  imageUrl(shop: Shop, product: Product): string;
  createSubscription(
    installation: Installation,
    apiVersion: string,
    topic: string,
    input: Record<string, unknown>,
  ): { webhookSubscription: WebhookSubscription | null; userErrors: UserError[] };
  deleteSubscription(installation: Installation, id: number): boolean;
}

interface Context {
  host: GraphqlHost;
  shop: Shop;
  installation: Installation;
  apiVersion: string;
  mutation: boolean;
  /** The calculated cost of what was resolved so far. */
  actual: number;
}

let cachedSchema: GraphQLSchema | undefined;
function schema(): GraphQLSchema {
  cachedSchema ??= buildSchema(SDL);
  return cachedSchema;
}

// ---- Connections: Shopify's opaque cursors (base64 of {last_id, last_value}), pages of at most 250. ----

type SortValue = string | number;
type Key = readonly [SortValue, number];

interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  reverse?: boolean | null;
}

interface Connection<T> {
  nodes: T[];
  edges: () => { cursor: string; node: T }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
  /** Set once the nodes are paid for, so selecting both edges and nodes costs them once. */
  charged: boolean;
}

function encodeCursor(key: Key): string {
  return Buffer.from(JSON.stringify({ last_id: key[1], last_value: key[0] })).toString('base64');
}

function decodeCursor(cursor: string): Key {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as {
      last_id?: unknown;
      last_value?: unknown;
    };
    if (
      typeof value.last_id === 'number' &&
      (typeof value.last_value === 'string' || typeof value.last_value === 'number')
    ) {
      return [value.last_value, value.last_id];
    }
  } catch {
    // Falls through to the error below.
  }
  throw new GraphQLError('Invalid cursor for current pagination sort.', {
    extensions: { code: 'BAD_REQUEST' },
  });
}

function compareKeys(a: Key, b: Key): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] - b[1];
}

/** The first index whose key is above (or, with `inclusive`, at or above) the cursor; the list is sorted. */
function boundary(keys: Key[], cursor: Key, inclusive: boolean, sign: number): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    const order = sign * compareKeys(keys[mid]!, cursor);
    if (order > 0 || (inclusive && order === 0)) high = mid;
    else low = mid + 1;
  }
  return low;
}

function pageSize(args: ConnectionArgs): { size: number; fromEnd: boolean } {
  const { first, last } = args;
  if (first == null && last == null) {
    throw new GraphQLError('you must provide one of first or last', { extensions: { code: 'BAD_REQUEST' } });
  }
  const size = first ?? last!;
  if (size < 0 || size > MAX_PAGE_SIZE) {
    throw new GraphQLError(`The page size must be between 0 and ${MAX_PAGE_SIZE}, got ${size}.`, {
      extensions: { code: 'BAD_REQUEST' },
    });
  }
  return { size, fromEnd: first == null };
}

/** A page of `items` (already in ascending key order) by Relay's first/after and last/before. */
function connection<T>(items: T[], keyOf: (item: T) => Key, args: ConnectionArgs): Connection<T> {
  const { size, fromEnd } = pageSize(args);
  const sign = args.reverse ? -1 : 1;
  const ordered = args.reverse ? [...items].reverse() : items;
  const keys = ordered.map(keyOf);
  let start = 0;
  let end = ordered.length;
  if (args.after) start = boundary(keys, decodeCursor(args.after), false, sign);
  if (args.before) end = Math.max(start, boundary(keys, decodeCursor(args.before), true, sign));
  if (fromEnd) start = Math.max(start, end - size);
  else end = Math.min(end, start + size);
  const nodes = ordered.slice(start, end);
  const cursors = keys.slice(start, end).map(encodeCursor);
  return {
    nodes,
    edges: () => nodes.map((node, i) => ({ cursor: cursors[i]!, node })),
    pageInfo: {
      hasNextPage: end < ordered.length,
      hasPreviousPage: start > 0,
      startCursor: cursors[0] ?? null,
      endCursor: cursors.at(-1) ?? null,
    },
    charged: false,
  };
}

const PRODUCT_SORT: Record<string, (p: Product) => SortValue> = {
  CREATED_AT: (p) => p.createdAt,
  UPDATED_AT: (p) => p.updatedAt,
  PUBLISHED_AT: (p) => p.publishedAt ?? '',
  TITLE: (p) => p.title.toLowerCase(),
  INVENTORY_TOTAL: totalInventory,
  PRODUCT_TYPE: (p) => p.productType.toLowerCase(),
  VENDOR: (p) => p.vendor.toLowerCase(),
};

function productConnection(shop: Shop, args: ConnectionArgs & { query?: string | null; sortKey?: string }) {
  const filter = productFilter(args.query);
  const matching = filter ? shop.products.filter(filter) : shop.products;
  const sortValue = PRODUCT_SORT[args.sortKey ?? 'ID'];
  if (!sortValue) return connection(matching, (p) => [p.id, p.id] as const, args);
  const keyed = matching.map((p) => ({ p, key: [sortValue(p), p.id] as const }));
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  const keys = new Map(keyed.map(({ p, key }) => [p, key]));
  return connection(
    keyed.map(({ p }) => p),
    (p) => keys.get(p)!,
    args,
  );
}

// ---- Resolvers, by type and field; fields without one read the property of the same name. ----

type Resolver = (source: never, args: Record<string, unknown>, ctx: Context) => unknown;

function canReadProducts(ctx: Context): boolean {
  return ctx.installation.scopes.some((scope) => scope === 'read_products' || scope === 'write_products');
}

function requireProducts(ctx: Context, field: string): void {
  if (canReadProducts(ctx)) return;
  throw new GraphQLError(
    `Access denied for ${field} field. Required access: \`read_products\` access scope.`,
    {
      extensions: {
        code: 'ACCESS_DENIED',
        documentation: 'https://shopify.dev/api/usage/access-scopes',
        requiredAccess: '`read_products` access scope.',
      },
    },
  );
}

/** Any node of this shop by its gid; null when there is none (or the app may not read it). */
function nodeById(ctx: Context, id: string): unknown {
  const parsed = parseGid(id);
  if (!parsed) return null;
  const { shop } = ctx;
  const products = canReadProducts(ctx);
  switch (parsed.type) {
    case 'Product':
      return products ? (shop.productsById.get(parsed.id) ?? null) : null;
    case 'ProductVariant':
      return products ? (shop.variantsById.get(parsed.id) ?? null) : null;
    case 'InventoryItem': {
      const variant = products ? shop.variantsByInventoryItem.get(parsed.id) : undefined;
      return variant ? { kind: 'InventoryItem', variant } : null;
    }
    case 'WebhookSubscription':
      return ctx.installation.subscriptions.find((s) => s.id === parsed.id) ?? null;
    case 'Shop':
      return parsed.id === shop.id ? shop : null;
    case 'Domain':
      return parsed.id === shop.id ? { kind: 'Domain', shop } : null;
    default:
      return null;
  }
}

function money(amount: string, currencyCode: string) {
  return { amount, currencyCode };
}

const RESOLVERS: Record<string, Record<string, Resolver>> = {
  Query: {
    shop: (_s, _a, ctx) => ctx.shop,
    products: (_s, args, ctx) => {
      requireProducts(ctx, 'products');
      return productConnection(ctx.shop, args);
    },
    product: (_s, args, ctx) => {
      requireProducts(ctx, 'product');
      const parsed = parseGid(String(args.id));
      return parsed?.type === 'Product' ? (ctx.shop.productsById.get(parsed.id) ?? null) : null;
    },
    productVariant: (_s, args, ctx) => {
      requireProducts(ctx, 'productVariant');
      const parsed = parseGid(String(args.id));
      return parsed?.type === 'ProductVariant' ? (ctx.shop.variantsById.get(parsed.id) ?? null) : null;
    },
    node: (_s, args, ctx) => nodeById(ctx, String(args.id)),
    nodes: (_s, args, ctx) => {
      const ids = args.ids as string[];
      if (ids.length > MAX_INPUT_ARRAY) {
        throw new GraphQLError(
          `The input array size of ${ids.length} is greater than the maximum allowed of ${MAX_INPUT_ARRAY}.`,
          { extensions: { code: 'MAX_INPUT_SIZE_EXCEEDED' } },
        );
      }
      return ids.map((id) => nodeById(ctx, id));
    },
    webhookSubscriptions: (_s, args, ctx) => {
      const topics = args.topics as string[] | null | undefined;
      const matching = ctx.installation.subscriptions.filter(
        (s) =>
          (!topics?.length || topics.includes(s.topic)) &&
          (args.callbackUrl == null || s.callbackUrl === args.callbackUrl) &&
          (args.format == null || s.format === args.format),
      );
      return connection(matching, (s) => [s.id, s.id] as const, args);
    },
    webhookSubscription: (_s, args, ctx) => {
      const parsed = parseGid(String(args.id));
      return parsed?.type === 'WebhookSubscription'
        ? (ctx.installation.subscriptions.find((s) => s.id === parsed.id) ?? null)
        : null;
    },
  },
  Mutation: {
    webhookSubscriptionCreate: (_s, args, ctx) =>
      ctx.host.createSubscription(
        ctx.installation,
        ctx.apiVersion,
        String(args.topic),
        args.webhookSubscription as Record<string, unknown>,
      ),
    webhookSubscriptionDelete: (_s, args, ctx) => {
      const parsed = parseGid(String(args.id));
      const deleted =
        parsed?.type === 'WebhookSubscription' && ctx.host.deleteSubscription(ctx.installation, parsed.id);
      return deleted
        ? { deletedWebhookSubscriptionId: String(args.id), userErrors: [] }
        : {
            deletedWebhookSubscriptionId: null,
            userErrors: [{ field: ['id'], message: 'Webhook subscription does not exist' }],
          };
    },
  },
  Shop: {
    id: (shop: Shop) => gid('Shop', shop.id),
    myshopifyDomain: (shop: Shop) => shop.domain,
    currencyCode: (shop: Shop) => shop.currency,
    url: (shop: Shop, _a, ctx) => ctx.host.shopUrl(shop),
    primaryDomain: (shop: Shop) => ({ kind: 'Domain', shop }),
  },
  Domain: {
    id: ({ shop }: { shop: Shop }) => gid('Domain', shop.id),
    url: ({ shop }: { shop: Shop }, _a, ctx) => ctx.host.shopUrl(shop),
    host: ({ shop }: { shop: Shop }, _a, ctx) => new URL(ctx.host.shopUrl(shop)).host,
    sslEnabled: ({ shop }: { shop: Shop }, _a, ctx) => ctx.host.shopUrl(shop).startsWith('https:'),
  },
  Product: {
    id: (p: Product) => gid('Product', p.id),
    legacyResourceId: (p: Product) => String(p.id),
    featuredImage: (p: Product, _a, ctx) =>
      p.imageAlt === null
        ? null
        : {
            id: gid('ProductImage', p.id),
            url: ctx.host.imageUrl(ctx.shop, p),
            altText: p.imageAlt || null,
            width: 600,
            height: 600,
          },
    priceRangeV2: (p: Product, _a, ctx) => {
      const prices = p.variants.map((v) => Number(v.price));
      const min = p.variants[prices.indexOf(Math.min(...prices))]!.price;
      const max = p.variants[prices.indexOf(Math.max(...prices))]!.price;
      return {
        minVariantPrice: money(min, ctx.shop.currency),
        maxVariantPrice: money(max, ctx.shop.currency),
      };
    },
    totalInventory: (p: Product) => totalInventory(p),
    tracksInventory: (p: Product) => tracksInventory(p),
    hasOnlyDefaultVariant: (p: Product) => hasOnlyDefaultVariant(p),
    onlineStoreUrl: (p: Product, _a, ctx) =>
      isOnlineStoreVisible(p) ? `${ctx.host.shopUrl(ctx.shop)}/products/${p.handle}` : null,
    onlineStorePreviewUrl: (p: Product, _a, ctx) => `${ctx.host.shopUrl(ctx.shop)}/products/${p.handle}`,
    variants: (p: Product, args) => connection(p.variants, (v) => [v.position, v.id] as const, args),
    variantsCount: (p: Product) => ({ count: p.variants.length, precision: 'EXACT' }),
  },
  ProductVariant: {
    id: (v: Variant) => gid('ProductVariant', v.id),
    legacyResourceId: (v: Variant) => String(v.id),
    displayName: (v: Variant, _a, ctx) => variantName(ctx.shop.productsById.get(v.productId)!, v),
    compareAtPrice: () => null,
    sku: (v: Variant) => v.sku || null,
    availableForSale: (v: Variant) => variantAvailable(v),
    inventoryItem: (v: Variant) => ({ kind: 'InventoryItem', variant: v }),
    product: (v: Variant, _a, ctx) => ctx.shop.productsById.get(v.productId),
    selectedOptions: (v: Variant, _a, ctx) => {
      const product = ctx.shop.productsById.get(v.productId)!;
      return [{ name: product.optionName ?? 'Title', value: v.title }];
    },
  },
  InventoryItem: {
    id: ({ variant }: { variant: Variant }) => gid('InventoryItem', variant.inventoryItemId),
    legacyResourceId: ({ variant }: { variant: Variant }) => String(variant.inventoryItemId),
    tracked: ({ variant }: { variant: Variant }) => variant.tracked,
    sku: ({ variant }: { variant: Variant }) => variant.sku || null,
  },
  WebhookSubscription: {
    id: (s: WebhookSubscription) => gid('WebhookSubscription', s.id),
    legacyResourceId: (s: WebhookSubscription) => String(s.id),
    uri: (s: WebhookSubscription) => s.callbackUrl,
    endpoint: (s: WebhookSubscription) => ({ kind: 'WebhookHttpEndpoint', callbackUrl: s.callbackUrl }),
    apiVersion: (s: WebhookSubscription) => ({
      handle: s.apiVersion,
      displayName: s.apiVersion,
      supported: true,
    }),
  },
};

// ---- Calculated query cost (https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits). ----

/**
 * Paid as the fields resolve: 1 per object, a connection 2 plus 1 per node it returns (whether asked through
 * edges or nodes), scalars and enums nothing; in a mutation 10 per top-level field and nothing below.
 */
function charge(
  ctx: Context,
  parentType: string,
  fieldName: string,
  returnType: GraphQLCompositeType,
  value: unknown,
) {
  if (ctx.mutation) {
    if (parentType === 'Mutation') ctx.actual += 10;
    return;
  }
  if (parentType.endsWith('Connection')) return;
  if (parentType.endsWith('Edge')) return;
  if (returnType.name.endsWith('Connection')) {
    const page = value as Connection<unknown>;
    ctx.actual += 2 + page.nodes.length;
    page.charged = true;
    return;
  }
  if (parentType === 'Query' && fieldName === 'nodes') {
    ctx.actual += (value as unknown[]).filter((node) => node != null).length;
    return;
  }
  ctx.actual += 1;
}

const fieldResolver: GraphQLFieldResolver<unknown, Context> = (source, args, ctx, info) => {
  const resolve = RESOLVERS[info.parentType.name]?.[info.fieldName];
  const value = resolve ? resolve(source as never, args, ctx) : defaultFieldResolver(source, args, ctx, info);
  const named = getNamedType(info.returnType);
  if (isCompositeType(named)) charge(ctx, info.parentType.name, info.fieldName, named, value);
  return value;
};

interface CostScope {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

function applies(scope: CostScope, condition: NamedTypeNode | undefined, type: GraphQLObjectType): boolean {
  if (!condition || condition.name.value === type.name) return true;
  const conditionType = scope.schema.getType(condition.name.value);
  return (
    conditionType !== undefined &&
    isAbstractType(conditionType) &&
    scope.schema.isSubType(conditionType, type)
  );
}

/** The fields selected on an object type, through inline fragments and fragment spreads. */
function fieldsOn(scope: CostScope, selectionSet: SelectionSetNode | undefined, type: GraphQLObjectType) {
  const fields: FieldNode[] = [];
  const visit = (set: SelectionSetNode | undefined) => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) fields.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (applies(scope, selection.typeCondition, type)) visit(selection.selectionSet);
      } else {
        const fragment = scope.fragments[selection.name.value];
        if (fragment && applies(scope, fragment.typeCondition, type)) visit(fragment.selectionSet);
      }
    }
  };
  visit(selectionSet);
  return fields;
}

function selectionCost(
  scope: CostScope,
  selectionSet: SelectionSetNode | undefined,
  type: GraphQLCompositeType,
): number {
  if (isAbstractType(type)) {
    return Math.max(
      0,
      ...scope.schema.getPossibleTypes(type).map((t) => selectionCost(scope, selectionSet, t)),
    );
  }
  let total = 0;
  for (const field of fieldsOn(scope, selectionSet, type)) {
    const definition = type.getFields()[field.name.value];
    if (!definition) continue;
    const named = getNamedType(definition.type);
    if (!isCompositeType(named)) continue;
    const args = getArgumentValues(definition, field, scope.variables);
    if (named.name.endsWith('Connection')) {
      const size = (args.first ?? args.last ?? 0) as number;
      total += 2 + size * nodeCost(scope, field.selectionSet, named as GraphQLObjectType);
    } else if (type.name === 'Query' && field.name.value === 'nodes') {
      total += (args.ids as unknown[]).length * (1 + selectionCost(scope, field.selectionSet, named));
    } else {
      total += 1 + selectionCost(scope, field.selectionSet, named);
    }
  }
  return total;
}

/** What one node of a connection costs: 1 plus its selection, when edges or nodes are asked for at all. */
function nodeCost(
  scope: CostScope,
  selectionSet: SelectionSetNode | undefined,
  connectionType: GraphQLObjectType,
) {
  const nodeType = getNamedType(connectionType.getFields().nodes!.type) as GraphQLObjectType;
  const edgeType = getNamedType(connectionType.getFields().edges!.type) as GraphQLObjectType;
  let selected = false;
  let cost = 0;
  for (const field of fieldsOn(scope, selectionSet, connectionType)) {
    if (field.name.value === 'nodes') {
      selected = true;
      cost = Math.max(cost, selectionCost(scope, field.selectionSet, nodeType));
    } else if (field.name.value === 'edges') {
      selected = true;
      for (const edgeField of fieldsOn(scope, field.selectionSet, edgeType)) {
        if (edgeField.name.value === 'node') {
          cost = Math.max(cost, selectionCost(scope, edgeField.selectionSet, nodeType));
        }
      }
    }
  }
  return selected ? 1 + cost : 0;
}

function requestedCost(scope: CostScope, operation: OperationDefinitionNode): number {
  if (operation.operation === 'mutation') {
    return (
      10 *
      operation.selectionSet.selections.filter((s) => s.kind !== Kind.FIELD || s.name.value !== '__typename')
        .length
    );
  }
  return selectionCost(scope, operation.selectionSet, scope.schema.getQueryType()!);
}

// ---- Running a request. ----

export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** Parsed and validated documents by query text: an adapter sends the same few queries again and again. */
const documents = new Map<string, { document: DocumentNode | null; errors: readonly GraphQLError[] }>();
const DOCUMENT_CACHE_SIZE = 500;

function prepared(query: string) {
  let entry = documents.get(query);
  if (!entry) {
    try {
      const document = parse(query);
      entry = { document, errors: validate(schema(), document) };
    } catch (error) {
      entry = { document: null, errors: [error as GraphQLError] };
    }
    if (documents.size >= DOCUMENT_CACHE_SIZE) documents.delete(documents.keys().next().value!);
    documents.set(query, entry);
  }
  return entry;
}

function refill(shop: Shop, now: number): void {
  const { bucket } = shop;
  const elapsed = Math.max(0, now - bucket.at) / 1000;
  bucket.available = Math.min(bucket.maximumAvailable, bucket.available + elapsed * bucket.restoreRate);
  bucket.at = now;
}

export function throttleStatus(shop: Shop, now: number) {
  refill(shop, now);
  return {
    maximumAvailable: shop.bucket.maximumAvailable,
    currentlyAvailable: Math.floor(shop.bucket.available),
    restoreRate: shop.bucket.restoreRate,
  };
}

/**
 * Runs one request against the shop as the installation: the body Shopify answers with HTTP 200 — data
 * and/or errors, and `extensions.cost` once the query could be costed. Charges the bucket what it resolved.
 */
export function runAdminGraphql(
  env: { host: GraphqlHost; shop: Shop; installation: Installation; apiVersion: string; now: number },
  request: GraphqlRequest,
): Record<string, unknown> {
  const { shop } = env;
  const { document, errors } = prepared(request.query);
  if (!document || errors.length > 0) return { errors: errors.map((e) => e.toJSON()) };
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = request.operationName
    ? operations.find((o) => o.name?.value === request.operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
  if (!operation) {
    const message = request.operationName
      ? `No operation named "${request.operationName}"`
      : 'An operation name is required';
    return { errors: [{ message }] };
  }
  const coerced = getVariableValues(schema(), operation.variableDefinitions ?? [], request.variables ?? {});
  if (coerced.errors) return { errors: coerced.errors.map((e) => e.toJSON()) };
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const requested = requestedCost({ schema: schema(), fragments, variables: coerced.coerced }, operation);

  if (requested > SINGLE_QUERY_MAX_COST) {
    return {
      errors: [
        {
          message: `Query cost is ${requested}, which exceeds the single query max cost limit (${SINGLE_QUERY_MAX_COST}).`,
          extensions: {
            code: 'MAX_COST_EXCEEDED',
            cost: requested,
            maxCost: SINGLE_QUERY_MAX_COST,
            documentation: RATE_LIMITS_DOC,
          },
        },
      ],
    };
  }
  refill(shop, env.now);
  if (requested > shop.bucket.available) {
    shop.calls.throttled += 1;
    return {
      errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: RATE_LIMITS_DOC } }],
      extensions: {
        cost: {
          requestedQueryCost: requested,
          actualQueryCost: null,
          throttleStatus: throttleStatus(shop, env.now),
        },
      },
    };
  }

  const ctx: Context = {
    host: env.host,
    shop,
    installation: env.installation,
    apiVersion: env.apiVersion,
    mutation: operation.operation === 'mutation',
    actual: 0,
  };
  const result = execute({
    schema: schema(),
    document,
    operationName: operation.name?.value,
    variableValues: request.variables ?? {},
    contextValue: ctx,
    rootValue: {},
    fieldResolver,
    typeResolver: (value) => (value as { kind: string }).kind,
  });
  if (result instanceof Promise) throw new Error('The sandbox resolvers are synchronous.');
  const actual = Math.min(ctx.actual, requested);
  shop.bucket.available -= actual;
  shop.calls.cost += actual;
  return {
    ...(result.errors ? { errors: result.errors.map((e) => e.toJSON()) } : {}),
    data: result.data ?? null,
    extensions: {
      cost: {
        requestedQueryCost: requested,
        actualQueryCost: actual,
        throttleStatus: throttleStatus(shop, env.now),
      },
    },
  };
}
