import { BASENAME, type Access, type PageName, type RouteEntry } from './route-table.ts';

/** Strips the /app base from a browser path: '/app/monitor' → '/monitor', '/app' → '/'. */
export function stripBase(pathname: string, base: string = BASENAME): string {
  if (pathname === base) return '/';
  if (pathname.startsWith(`${base}/`)) return pathname.slice(base.length);
  return pathname;
}

function segments(path: string): string[] {
  // A route path of '/' is empty: it adds no segment.
  return path.split('/').filter(Boolean);
}

/**
 * Finds the route a path belongs to, ignoring the /app prefix and searching nested child routes; the
 * deepest route whose full path equals the given path wins. Returns null for an unmatched path.
 */
export function matchRoute<T extends RouteEntry>(routes: readonly T[], pathname: string): T | null {
  const target = segments(stripBase(pathname)).map((segment) => decodeSegment(segment).toLowerCase());
  return search(routes, [], target);
}

function search<T extends RouteEntry>(routes: readonly T[], parent: string[], target: string[]): T | null {
  for (const route of routes) {
    const full = [...parent, ...segments(route.path).map((segment) => segment.toLowerCase())];
    if (full.length > target.length || full.some((segment, i) => segment !== target[i])) continue;
    const child = route.children ? search(route.children as T[], full, target) : null;
    if (child) return child;
    if (full.length === target.length) return route;
  }
  return null;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The page a path shows: its route's, the monitor list for a route that names none, not-found for no route. */
export function pageOf(pathname: string, routes: readonly RouteEntry[]): PageName {
  const route = matchRoute(routes, pathname);
  return route ? (route.page ?? 'monitor') : 'not-found';
}

/** The access of a path; unmatched paths are private (the spec runs the startup flow for them too). */
export function accessOf(pathname: string, routes: readonly RouteEntry[]): Access {
  return matchRoute(routes, pathname)?.access ?? 'private';
}

/** The shell is left out on /onboarding, /pricing and any path containing 'payment'. */
export function isShellOmitted(pathname: string): boolean {
  const path = stripBase(pathname).replace(/\/+$/, '');
  return path === '/onboarding' || path === '/pricing' || path.includes('payment');
}

/** The pages Stripe Checkout returns to. */
export function isPaymentOutcome(pathname: string): boolean {
  const path = stripBase(pathname).replace(/\/+$/, '');
  return path === '/payment-success' || path === '/payment-error';
}
