import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';

// The CSP allows no eval: without `jitless`, zod probes for `new Function` and the browser reports a
// violation. zod keeps its settings in this global (read when a schema first parses), so setting it here
// keeps zod itself out of the entry: the login page loads it with the chunks that parse.
const zodSettings = globalThis as { __zod_globalConfig?: Record<string, unknown> };
Object.assign((zodSettings.__zod_globalConfig ??= {}), { jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// The first render is a transition, so React renders the tree in slices and lets the browser in between
// instead of holding the main thread for all of it (hundreds of milliseconds on a phone).
const reactRoot = createRoot(root);
startTransition(() => {
  reactRoot.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
