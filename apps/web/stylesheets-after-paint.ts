import type { Plugin } from 'vite';
import { preloadStylesheets } from './src/lib/stylesheets.ts';

/**
 * The Vite plugin that lets index.html's loading mark paint before the stylesheet has arrived: a stylesheet link
 * holds the first paint until it has loaded, and on a phone the loading mark (styled inline) then showed only with
 * the app's scripts. The build writes the link as a preload instead, fetched as early and as urgently, and the entry
 * applies it before the app's first render (main.tsx). The prerendered pages, painted with their styles, keep the
 * link (prerender.ts).
 */
export function stylesheetsAfterPaint(): Plugin {
  return {
    name: 'vigil-stylesheets-after-paint',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: (html) => preloadStylesheets(html) },
  };
}
