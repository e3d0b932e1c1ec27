import type { MonitorListItem, ShopifyProduct } from '@vigil/contracts';
import { formatMoney } from '../../../../lib/format-money.ts';
import { connectionProblem as monitorConnectionProblem } from '../../connect/connection-format.ts';
import { formatCount } from '../../../../lib/format-time.ts';

/** A price in the shop's currency: `$19.00`, or `€10.00–€24.00` for a range. */
export function formatPriceRange(min: string, max: string, currency: string): string {
  const one = formatMoney(min, currency);
  return min === max || Number(min) === Number(max) ? one : `${one}–${formatMoney(max, currency)}`;
}

/** The stock in words: tracked variants' sum, or that it is not tracked. */
export function formatStock(totalInventory: number | null): string {
  if (totalInventory === null) return 'Stock not tracked';
  if (totalInventory <= 0) return 'Out of stock';
  return `${formatCount(totalInventory)} in stock`;
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

/**
 * A Shopify monitor whose shop connection does not work: lost (the app was uninstalled, access revoked),
 * disconnected in Vigil, or gone. Null when it works.
 */
export function connectionProblem(monitor: MonitorListItem): { reason: string } | null {
  if (monitor.service !== 'shopify') return null;
  return monitorConnectionProblem('shopify', monitor.connection);
}
