import type { Connection, Provider } from '@vigil/contracts';
import type { MonitorFormValues } from '../monitor-form.ts';

/**
 * Connecting an account (a Shopify shop, a Google or Facebook account) leaves the app for the provider's authorize page and comes back to /oauth. What to
 * return to is kept in this tab's sessionStorage under one key:
 * - `returnTo`: the app path to go back to, with its query (`/monitor_create?redirect=…`,
 *   `/monitor_edit?monitorId=…`, a monitor's detail, `/settings`);
 * - `values`: the monitor form's values when Connect was pressed (absent when leaving from elsewhere);
 * - `provider`: whose authorize page it left for (shopify, google, meta), so /oauth can name it;
 * - `account`: the shop being connected, as the server resolved it (absent for Google and Facebook, whose
 *   account is known only once the person signs in there);
 * - `savedAt`: when it was saved (ms); after `OAUTH_RETURN_TTL_MS` it is forgotten;
 * - `connection`: set by /oauth once the binding is made, so the form chooses it.
 */
export const OAUTH_RETURN_KEY = 'vigil.oauthReturn';

/** Longer than the provider's state lives (10 minutes), so a slow return still finds the form. */
export const OAUTH_RETURN_TTL_MS = 30 * 60_000;

export interface OAuthReturn {
  returnTo: string;
  values?: MonitorFormValues;
  provider?: Provider;
  account?: string;
  savedAt: number;
  connection?: Connection;
}

export function saveOAuthReturn(entry: Omit<OAuthReturn, 'savedAt'>, now = Date.now()): void {
  write({ ...entry, savedAt: now });
}

/** The saved return, unless it is missing, unreadable or too old. */
export function readOAuthReturn(now = Date.now()): OAuthReturn | null {
  let raw: string | null = null;
  try {
    raw = window.sessionStorage.getItem(OAUTH_RETURN_KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const entry = JSON.parse(raw) as Partial<OAuthReturn> | null;
    if (!entry || typeof entry.returnTo !== 'string' || !entry.returnTo.startsWith('/')) return null;
    if (typeof entry.savedAt !== 'number' || now - entry.savedAt > OAUTH_RETURN_TTL_MS) return null;
    return entry as OAuthReturn;
  } catch {
    return null;
  }
}

/** Records the connection just made on the saved return (or a new one going to `returnTo`). */
export function markConnected(connection: Connection, returnTo: string, now = Date.now()): void {
  const saved = readOAuthReturn(now);
  write({ ...(saved ?? { returnTo, savedAt: now }), connection });
}

export function clearOAuthReturn(): void {
  try {
    window.sessionStorage.removeItem(OAUTH_RETURN_KEY);
  } catch {
    // Storage unavailable: nothing was saved.
  }
}

/** Whether the saved return is for this page of the app (compared by path and the monitor edited). */
export function isReturnTo(entry: OAuthReturn, place: string): boolean {
  const [path, query = ''] = entry.returnTo.split('?', 2);
  const [placePath, placeQuery = ''] = place.split('?', 2);
  const monitorId = (search: string) => new URLSearchParams(search).get('monitorId');
  return path === placePath && monitorId(query) === monitorId(placeQuery);
}

function write(entry: OAuthReturn): void {
  try {
    window.sessionStorage.setItem(OAUTH_RETURN_KEY, JSON.stringify(entry));
  } catch {
    // Storage unavailable (private mode): the form starts afresh after the return.
  }
}
