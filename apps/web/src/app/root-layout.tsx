import { Outlet, useLocation } from 'react-router';
import { accessOf } from './route-match.ts';
import { BASENAME, ROUTES } from './route-table.ts';
import { lazyPage } from './lazy-page.tsx';

// The gate carries the API client, the session handling and the shell: loaded on demand like a page, so
// the entry bundle stays small and a sign-in page never waits for them.
export const StartupGate = lazyPage(() => import('./startup-gate.tsx'), { fullPage: true });

/** Public pages show as they are; every other path, matched or not, goes through the startup gate. */
export function RootLayout() {
  const { pathname } = useLocation();
  if (accessOf(BASENAME + pathname, ROUTES) === 'public') return <Outlet />;
  return (
    <StartupGate>
      <Outlet />
    </StartupGate>
  );
}
