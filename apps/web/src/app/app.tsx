import { BrowserRouter, useRoutes } from 'react-router';
import { Providers } from './providers.tsx';
import { BASENAME } from './route-table.ts';
import { buildRoutes, preloadRoute } from './router.tsx';

/** The code of the page being opened (and of the startup gate, if it is private), fetched as the entry runs. */
export const firstPageCode = preloadRoute(window.location.pathname, window.location.search);
const routes = buildRoutes();

function AppRoutes() {
  return useRoutes(routes);
}

// The router in its declarative mode: the app uses no loaders, actions or other data-router features, and
// without them the data router (react-router's createRouter) stays out of the entry every first page evaluates.
export function App() {
  return (
    <Providers>
      <BrowserRouter basename={BASENAME}>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  );
}
