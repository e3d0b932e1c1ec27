import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { PRERENDERED_PAGES, PrerenderingContext, type PrerenderedPage } from '../lib/prerendered.ts';
import LoginPage from '../pages/login-page.tsx';
import { ThemeProvider } from './providers.tsx';
import { BASENAME } from './route-table.ts';

const PAGES: Record<PrerenderedPage, ComponentType> = { login: LoginPage };

/**
 * A page as a visitor without a session first sees it, rendered to HTML by the build (apps/web/prerender.ts).
 * The same tree as the app's, with a memory router for the browser's and without the toasts' container (it adds
 * no markup), so the live page that replaces it looks the same.
 */
export function renderPrerenderedPage(page: PrerenderedPage): string {
  const Page = PAGES[page];
  return renderToString(
    <PrerenderingContext value>
      <ThemeProvider>
        <MemoryRouter basename={BASENAME} initialEntries={[BASENAME + PRERENDERED_PAGES[page]]}>
          <Page />
        </MemoryRouter>
      </ThemeProvider>
    </PrerenderingContext>,
  );
}
