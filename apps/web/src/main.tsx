import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, firstPageCode } from './app/app.tsx';
import { BASENAME } from './app/route-table.ts';
import { adoptPrerenderedInputs, prerenderedPage } from './lib/prerendered.ts';
import { applyStylesheets } from './lib/stylesheets.ts';

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

// The first render waits for the page's code (fetched as the entry runs: app.tsx) and, on index.html, for the
// stylesheet (painted without it: stylesheets-after-paint.ts), so it renders the styled page, not a spinner in its
// place: until then the page shows what the server sent, index.html's loading mark or a prerendered page. Rendering
// the spinner first cost a render and a commit, and React holds back the commit that replaces a Suspense fallback
// until 300 ms after the fallback showed. A prerendered page (login.html) then becomes the live page in one step, and
// what was typed into it meanwhile carries over. Code that takes longer than a few seconds is waited for behind the
// page's own spinner, which has its timeout and retry (lazy-page.tsx); the stylesheet is waited for until it has
// loaded or failed, as a stylesheet link holds a page's first paint, so the app is never shown unstyled.
const FIRST_RENDER_WAITS_MS = 4000;
if (prerenderedPage(root, window.location.pathname.slice(BASENAME.length))) {
  adoptPrerenderedInputs(root);
  void firstPageCode.then(render);
} else {
  const waited = new Promise<void>((resolve) => setTimeout(resolve, FIRST_RENDER_WAITS_MS));
  void Promise.all([Promise.race([firstPageCode, waited]), applyStylesheets()]).then(render);
}
