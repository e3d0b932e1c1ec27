import type { ConnectedService, Connection, ConnectionStatus, Provider } from '@vigil/contracts';
import { formatLongDate } from '../../../lib/format-time.ts';

/** The service a provider's connection is made for (the inverse of contracts' `PROVIDER_OF_SERVICE`). */
export const SERVICE_OF_PROVIDER: Readonly<Record<Provider, ConnectedService>> = {
  shopify: 'shopify',
  google: 'google_ads',
  meta: 'facebook_ads',
};

/** How each provider and its accounts read to people. */
export const PROVIDER_WORDS: Readonly<
  Record<Provider, { name: string; account: string; accounts: string; yours: string }>
> = {
  shopify: { name: 'Shopify', account: 'shop', accounts: 'Shopify shops', yours: 'your shop' },
  google: {
    name: 'Google',
    account: 'Google account',
    accounts: 'Google accounts',
    yours: 'your Google account',
  },
  meta: {
    name: 'Meta',
    account: 'Facebook account',
    accounts: 'Facebook accounts',
    yours: 'your Facebook account',
  },
};

export const CONNECTION_STATUS_LABELS: Record<ConnectionStatus, string> = {
  active: 'Connected',
  lost: 'Connection lost',
  disconnected: 'Disconnected',
};

/**
 * What names a connection to people: a shop's domain (`hoodies.myshopify.com`); a Google account's email and
 * a Facebook user's name (their `account` is an opaque id).
 */
export function accountLabel(connection: Pick<Connection, 'provider' | 'account' | 'name'>): string {
  return connection.provider === 'shopify' ? connection.account : connection.name;
}

/** Why a connection does not work, as a sentence; `connection` is null when it is gone. */
export function connectionReason(provider: Provider, connection: Connection | null): string {
  const { name, account } = PROVIDER_WORDS[provider];
  const noun = provider === 'shopify' ? 'shop' : 'account';
  if (!connection) return `The ${account} is no longer connected to Vigil.`;
  if (connection.statusReason) return connection.statusReason;
  return connection.status === 'disconnected'
    ? `The ${account} was disconnected from Vigil.`
    : `${name} no longer accepts Vigil’s access to the ${noun}.`;
}

/** A monitor's connection that does not work (lost, disconnected or gone), with why; null when it works. */
export function connectionProblem(
  provider: Provider,
  connection: Connection | null,
): { reason: string } | null {
  if (connection?.status === 'active') return null;
  return { reason: connectionReason(provider, connection) };
}

/** Meta's tokens end (60 days); a warning shows this many days before. */
export const EXPIRY_WARNING_DAYS = 7;

/** "May 1, 2026". */
export function formatDay(iso: string): string {
  return formatLongDate(new Date(iso));
}

/**
 * The warning for a working connection whose access ends within `EXPIRY_WARNING_DAYS` (Meta's), else null:
 * "Meta access ends on May 1, 2026. Reconnect to keep watching."
 */
export function expiryWarning(connection: Connection | null, now = Date.now()): string | null {
  if (!connection?.expiresAt || connection.status !== 'active') return null;
  const ends = Date.parse(connection.expiresAt);
  if (Number.isNaN(ends) || ends - now > EXPIRY_WARNING_DAYS * 86_400_000) return null;
  const { name } = PROVIDER_WORDS[connection.provider];
  return ends <= now
    ? `${name} access ended on ${formatDay(connection.expiresAt)}. Reconnect to keep watching.`
    : `${name} access ends on ${formatDay(connection.expiresAt)}. Reconnect to keep watching.`;
}
