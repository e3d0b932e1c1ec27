import type { Connection, ConnectionStatus, Monitor, ShopifyProduct } from '@vigil/contracts';

/** A price in the shop's currency: `$19.00`, or `€10.00–€24.00` for a range. */
export function formatPriceRange(min: string, max: string, currency: string): string {
  const one = formatPrice(min, currency);
  return min === max || Number(min) === Number(max) ? one : `${one}–${formatPrice(max, currency)}`;
}

export function formatPrice(amount: string, currency: string): string {
  const value = Number(amount);
  if (!Number.isFinite(value)) return `${amount} ${currency}`;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(value);
  } catch {
    // Not a currency code Intl knows.
    return `${value.toFixed(2)} ${currency}`;
  }
}

/** The stock in words: tracked variants' sum, or that it is not tracked. */
export function formatStock(totalInventory: number | null): string {
  if (totalInventory === null) return 'Stock not tracked';
  if (totalInventory <= 0) return 'Out of stock';
  return `${totalInventory.toLocaleString('en-US')} in stock`;
}

/** Why a product would not sell on the storefront, as badges: "Draft", "Archived", "Not on the online store". */
export function productStatusBadges(product: Pick<ShopifyProduct, 'status' | 'publishedOnline'>): string[] {
  if (product.status === 'DRAFT') return ['Draft'];
  if (product.status === 'ARCHIVED') return ['Archived'];
  return product.publishedOnline ? [] : ['Not on the online store'];
}

export function countProducts(count: number): string {
  return count === 1 ? '1 product' : `${count} products`;
}

export const CONNECTION_STATUS_LABELS: Record<ConnectionStatus, string> = {
  active: 'Connected',
  lost: 'Connection lost',
  disconnected: 'Disconnected',
};

/**
 * A Shopify monitor whose shop connection does not work: lost (the app was uninstalled, access revoked),
 * disconnected in Vigil, or gone. Null when it works.
 */
export function connectionProblem(monitor: Monitor): { reason: string } | null {
  if (monitor.service !== 'shopify') return null;
  const { connection } = monitor;
  if (connection?.status === 'active') return null;
  return { reason: connectionReason(connection) };
}

/** Why a connection does not work, as a sentence. */
export function connectionReason(connection: Connection | null): string {
  if (!connection) return 'The shop is no longer connected to Vigil.';
  if (connection.statusReason) return connection.statusReason;
  return connection.status === 'disconnected'
    ? 'The shop was disconnected from Vigil.'
    : 'Shopify no longer accepts Vigil’s access to the shop.';
}
