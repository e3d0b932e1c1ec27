import { isOnlineStoreVisible, totalInventory, type Product } from './shopify-shop.ts';

/**
 * The `query` argument of the Admin API's `products`, in Shopify's search syntax: terms are ANDed, `OR`
 * between terms starts an alternative, `-term` or `NOT term` negates, `field:value` searches one field and a
 * bare word searches the default fields (title, vendor, product type, SKU) by word prefix. `*` is a
 * wildcard (`title:*hood*`), quotes keep a phrase together and numeric fields take `:>5`, `:<=10`.
 * Supported fields: title, handle, status, sku, vendor, product_type, id, inventory_total, published_status.
 * Unknown fields match everything, as Shopify ignores a filter it does not know (with a warning).
 */
export type ProductFilter = (product: Product) => boolean;

interface Term {
  field: string | null;
  value: string;
  negate: boolean;
}

const TOKEN = /-?[A-Za-z_]+:(?:"[^"]*"|[^\s"]+)|-?"[^"]*"|\S+/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function unquote(text: string): string {
  return text.startsWith('"') && text.endsWith('"') && text.length >= 2 ? text.slice(1, -1) : text;
}

/** A word-level matcher: `*` wildcards over a whole word or the whole text; otherwise the phrase as words. */
function textMatcher(value: string, prefix: boolean): (text: string) => boolean {
  const wanted = value.toLowerCase();
  if (wanted === '' || wanted === '*') return () => true;
  if (wanted.includes('*')) {
    const pattern = new RegExp(`^${wanted.split('*').map(escapeRegExp).join('.*')}$`);
    return (text) => {
      const lower = text.toLowerCase();
      return pattern.test(lower) || lower.split(/[^\p{L}\p{N}]+/u).some((word) => pattern.test(word));
    };
  }
  const pattern = new RegExp(
    `(^|[^\\p{L}\\p{N}])${escapeRegExp(wanted)}${prefix ? '' : '($|[^\\p{L}\\p{N}])'}`,
    'u',
  );
  return (text) => pattern.test(text.toLowerCase());
}

function numberMatcher(value: string): (n: number) => boolean {
  const match = /^(>=|<=|>|<)?(-?\d+(?:\.\d+)?)$/.exec(value);
  if (!match) return () => false;
  const bound = Number(match[2]);
  switch (match[1]) {
    case '>':
      return (n) => n > bound;
    case '<':
      return (n) => n < bound;
    case '>=':
      return (n) => n >= bound;
    case '<=':
      return (n) => n <= bound;
    default:
      return (n) => n === bound;
  }
}

function termMatcher(term: Term): ProductFilter {
  const value = term.value;
  switch (term.field) {
    case null: {
      const matches = textMatcher(value, true);
      return (p) =>
        matches(p.title) ||
        matches(p.vendor) ||
        matches(p.productType) ||
        p.variants.some((v) => v.sku !== '' && matches(v.sku));
    }
    case 'title': {
      const matches = textMatcher(value, false);
      return (p) => matches(p.title);
    }
    case 'vendor': {
      const matches = textMatcher(value, false);
      return (p) => matches(p.vendor);
    }
    case 'product_type': {
      const matches = textMatcher(value, false);
      return (p) => matches(p.productType);
    }
    case 'handle': {
      const matches = value.includes('*')
        ? textMatcher(value, false)
        : (h: string) => h === value.toLowerCase();
      return (p) => matches(p.handle);
    }
    case 'sku': {
      const matches = value.includes('*') ? textMatcher(value, false) : (s: string) => s === value;
      return (p) => p.variants.some((v) => matches(v.sku));
    }
    case 'status': {
      const statuses = new Set(value.toUpperCase().split(','));
      return (p) => statuses.has(p.status);
    }
    case 'id': {
      const matches = numberMatcher(value);
      return (p) => matches(p.id);
    }
    case 'inventory_total': {
      const matches = numberMatcher(value);
      return (p) => matches(totalInventory(p));
    }
    case 'published_status': {
      const wanted = value.toLowerCase();
      if (wanted === 'published' || wanted === 'online_store:visible') return isOnlineStoreVisible;
      if (wanted === 'unpublished' || wanted === 'online_store:hidden')
        return (p) => !isOnlineStoreVisible(p);
      return () => true;
    }
    default:
      return () => true;
  }
}

export function productFilter(query: string | null | undefined): ProductFilter | null {
  const tokens = (query ?? '').match(TOKEN) ?? [];
  const alternatives: ProductFilter[][] = [[]];
  let negateNext = false;
  for (const token of tokens) {
    if (token === 'AND') continue;
    if (token === 'OR') {
      alternatives.push([]);
      continue;
    }
    if (token === 'NOT') {
      negateNext = true;
      continue;
    }
    const negate = negateNext !== token.startsWith('-');
    negateNext = false;
    const body = token.startsWith('-') ? token.slice(1) : token;
    const colon = /^[A-Za-z_]+:/.exec(body);
    const term: Term = colon
      ? { field: colon[0].slice(0, -1).toLowerCase(), value: unquote(body.slice(colon[0].length)), negate }
      : { field: null, value: unquote(body), negate };
    const matches = termMatcher(term);
    alternatives.at(-1)!.push(negate ? (p) => !matches(p) : matches);
  }
  const groups = alternatives.filter((group) => group.length > 0);
  if (groups.length === 0) return null;
  return (product) => groups.some((group) => group.every((matches) => matches(product)));
}
