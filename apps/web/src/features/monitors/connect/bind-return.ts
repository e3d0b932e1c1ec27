import { BIND_STATE_PREFIX, type BindResult, type Connection } from '@vigil/contracts';
import type { ApiResult } from '../../../lib/api-client.ts';
import type { Query } from '../../../lib/query-string.ts';
import { bindConnection } from '../api/bind-connection.ts';
import { MONITOR_CREATE_PATH, monitorDetailPath } from '../paths.ts';

/**
 * Whether a return to /oauth finishes a binding rather than a sign-in. Shopify's carries `shop` and `hmac`
 * (with code, state, timestamp, host). Google's and Meta's carry only code and state (or `error` and state
 * when cancelled), as the OpenID sign-in's does; a binding's state starts with `BIND_STATE_PREFIX`, a
 * sign-in's never does.
 */
export function isBindingReturn(query: Query): boolean {
  return Boolean(query.shop && query.hmac) || Boolean(query.state?.startsWith(BIND_STATE_PREFIX));
}

// The provider's code is single-use: one post per return, however often the page renders.
const binds = new Map<string, Promise<ApiResult<BindResult>>>();

/** Posts every query parameter the provider sent, as strings (its proof covers all of them), once. */
export function bindReturn(params: Query): Promise<ApiResult<BindResult>> {
  const id = JSON.stringify(Object.entries(params).sort(([a], [b]) => a.localeCompare(b)));
  let pending = binds.get(id);
  if (!pending) {
    pending = bindConnection({ params });
    binds.set(id, pending);
  }
  return pending;
}

/** The spec's `redirect` value for a pending binding: `encodeURIComponent(JSON.stringify({auth, key}))`. */
export function pendingBindingRedirect(key: string): string {
  return encodeURIComponent(JSON.stringify({ auth: 'false', key }));
}

export type AfterBinding =
  { status: 'bound'; to: string; connection: Connection } | { status: 'held'; to: string };

/**
 * Where a binding return goes next:
 * - bound: back where Connect was pressed (saved before leaving), else the reconnected monitor's detail, else
 *   a new monitor;
 * - held (an install that started on Shopify's side): a new monitor carrying the key when signed in, else
 *   sign-in carrying it (the startup rules take it on through onboarding and pricing).
 */
export function afterBinding(
  result: BindResult,
  { signedIn, returnTo }: { signedIn: boolean; returnTo: string | undefined },
): AfterBinding {
  if (result.status === 'bound') {
    const to = returnTo ?? (result.monitorId ? monitorDetailPath(result.monitorId) : MONITOR_CREATE_PATH);
    return { status: 'bound', to, connection: result.connection };
  }
  const redirect = pendingBindingRedirect(result.key);
  return { status: 'held', to: `${signedIn ? MONITOR_CREATE_PATH : '/login'}?redirect=${redirect}` };
}
