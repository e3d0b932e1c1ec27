import { RouterProvider } from 'react-router/dom';
import { Providers } from './providers.tsx';
import { createRouter, preloadRoute } from './router.tsx';

/** The code of the page being opened (and of the startup gate, if it is private), fetched as the entry runs. */
export const firstPageCode = preloadRoute(window.location.pathname, window.location.search);
const router = createRouter();

export function App() {
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  );
}
