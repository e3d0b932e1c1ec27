import { Navigate, useLocation, type RouteObject } from 'react-router';
import { getToken } from '../lib/session.ts';
import { lazyPage, type LazyPage } from './lazy-page.tsx';
import { RootLayout, StartupGate } from './root-layout.tsx';
import { requestFirstData } from './first-data.ts';
import { accessOf, pageOf } from './route-match.ts';
import { ROUTES, type PageName, type RouteEntry } from './route-table.ts';

const bare = { fullPage: true };

/** One lazily loaded module per page; pages without the shell get a full-height spinner. */
export const PAGES: Record<PageName, LazyPage> = {
  login: lazyPage(() => import('../pages/login-page.tsx'), bare),
  register: lazyPage(() => import('../pages/register-page.tsx'), bare),
  oauth: lazyPage(() => import('../pages/oauth-page.tsx'), bare),
  onboarding: lazyPage(() => import('../pages/onboarding-page.tsx'), bare),
  pricing: lazyPage(() => import('../pages/pricing-page.tsx'), bare),
  'payment-success': lazyPage(() => import('../pages/payment-success-page.tsx'), bare),
  'payment-error': lazyPage(() => import('../pages/payment-error-page.tsx'), bare),
  monitor: lazyPage(() => import('../pages/monitor-page.tsx')),
  'monitor-create': lazyPage(() => import('../pages/monitor-create-page.tsx')),
  'monitor-edit': lazyPage(() => import('../pages/monitor-edit-page.tsx')),
  alerts: lazyPage(() => import('../pages/alerts-page.tsx')),
  settings: lazyPage(() => import('../pages/settings-page.tsx')),
  'not-found': lazyPage(() => import('../pages/not-found-page.tsx')),
};

/** '/' goes to the monitor list, keeping the query (a `redirect` must survive). */
function ToMonitors() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: '/monitor', search }} replace />;
}

function toRouteObject(entry: RouteEntry): RouteObject {
  const Page = entry.page ? PAGES[entry.page] : null;
  return {
    path: entry.path,
    ...(Page ? { element: <Page /> } : {}),
    ...(entry.children ? { children: entry.children.map(toRouteObject) } : {}),
  };
}

export function buildRoutes(): RouteObject[] {
  const NotFound = PAGES['not-found'];
  return ROUTES.map((root) => ({
    path: root.path,
    element: <RootLayout />,
    children: [
      { index: true, element: <ToMonitors /> },
      ...(root.children ?? []).map(toRouteObject),
      { path: '*', element: <NotFound /> },
    ],
  }));
}

/**
 * Starts fetching the code of the page being opened as the entry runs: the page's chunk (with the chunks it
 * imports) and, for a private page, the startup gate's, all at once. Left to React.lazy they would load one
 * after the other, each once the one before has rendered. Without a session a private path ends on the login
 * page, so that is the one fetched. The page's first data is asked for too, unless the early script has.
 * Settles when all of that code has arrived (or failed to).
 */
export function preloadRoute(pathname: string, search = ''): Promise<void> {
  const page = pageOf(pathname, ROUTES);
  if (accessOf(pathname, ROUTES) === 'public') return PAGES[page].preload();
  if (!getToken()) return PAGES.login.preload();
  const code = Promise.all([StartupGate.preload(), PAGES[page].preload()]);
  requestFirstData(pathname, search);
  return code.then(() => undefined);
}
