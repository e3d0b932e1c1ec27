import { RouterProvider } from 'react-router/dom';
import { Providers } from './providers.tsx';
import { createRouter, preloadRoute } from './router.tsx';

preloadRoute(window.location.pathname, window.location.search);
const router = createRouter();

export function App() {
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  );
}
