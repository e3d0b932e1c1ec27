import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './app/app.tsx';

// The CSP allows no eval: without this, zod probes for `new Function` and the browser reports a violation.
z.config({ jitless: true });

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
