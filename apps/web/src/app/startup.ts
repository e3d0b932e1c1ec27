import type { UserInfo } from '@vigil/contracts';
import { stringifyQuery, type Query } from '../lib/query-string.ts';

/** Free-plan expiry sentinel: no period was ever chosen. */
export const NO_PLAN_PERIOD = '0';

export interface Navigation {
  pathname: string;
  search: string;
  replace: boolean;
}

export interface StartupInput {
  user: Pick<UserInfo, 'industry' | 'telPhone' | 'contactEmail' | 'plan' | 'planExpiresin'>;
  query: Query;
  /** The current time in Unix seconds. */
  now: number;
  abPricing: boolean;
}

/**
 * The spec's startup rules (§4), applied in order once the user is known; null means "stay where you are".
 * Every navigation replaces the history entry, so Back never returns to a page that would bounce again.
 */
export function decideStartup({ user, query, now, abPricing }: StartupInput): Navigation | null {
  const redirect = query.redirect || undefined;
  if (!user.industry || (!user.telPhone && !user.contactEmail)) {
    return go('/onboarding', { redirect });
  }
  if (user.plan === 'Free' && String(user.planExpiresin) === NO_PLAN_PERIOD) {
    return go('/pricing', { redirect });
  }
  if (now > Number(user.planExpiresin) && abPricing) {
    return go('/pricing', { planExpiresin: String(user.planExpiresin), redirect });
  }
  if (redirect !== undefined && isPendingBinding(decodeRedirect(redirect))) {
    return go('/monitor_create', { redirect });
  }
  return null;
}

function go(pathname: string, query: Record<string, string | undefined>): Navigation {
  return { pathname, search: stringifyQuery(query), replace: true };
}

/** Decodes the `redirect` parameter (URI-encoded JSON); anything that is not JSON decodes to null. */
export function decodeRedirect(redirect: string): unknown {
  let text = redirect;
  try {
    text = decodeURIComponent(redirect);
  } catch {
    // Already decoded once by the query parser and holding a bare '%': use it as it is.
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** A binding started before sign-in: `{ auth: 'false', key }` (DESIGN.md §1.4). */
export function isPendingBinding(value: unknown): value is { auth: 'false'; key: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return record.auth === 'false' && record.key !== undefined && record.key !== null && record.key !== '';
}

/** Whether following `target` changes the location: comparing the query too, so rule targets converge. */
export function isElsewhere(target: Navigation, current: { pathname: string; search: string }): boolean {
  return (
    target.pathname !== current.pathname || normalizeSearch(target.search) !== normalizeSearch(current.search)
  );
}

function normalizeSearch(search: string): string {
  return new URLSearchParams(search.startsWith('?') ? search.slice(1) : search).toString();
}

/**
 * Where the app goes after sign-in, registration, onboarding or choosing a plan when no rule applies: the
 * page the person opened before signing in (`returnTo`, an in-app path), else the monitors.
 */
export function homeAfterStartup(query: Query, returnTo?: string | null): Navigation {
  if (returnTo) {
    const at = returnTo.indexOf('?');
    return at === -1
      ? { pathname: returnTo, search: '', replace: true }
      : { pathname: returnTo.slice(0, at), search: returnTo.slice(at), replace: true };
  }
  return go('/monitor', { redirect: query.redirect || undefined });
}

export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
