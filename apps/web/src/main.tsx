import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, firstPageCode } from './app/app.tsx';
import { BASENAME } from './app/route-table.ts';
import { adoptPrerenderedInputs, prerenderedPage } from './lib/prerendered.ts';

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
const render = () =>
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });

// A page the server sent already rendered (login.html) stays as it is until its code has arrived, so the live
// page replaces it in one step instead of through a spinner; what was typed into it meanwhile carries over.
if (prerenderedPage(root, window.location.pathname.slice(BASENAME.length))) {
  adoptPrerenderedInputs(root);
  void firstPageCode.then(render);
} else {
  render();
}
