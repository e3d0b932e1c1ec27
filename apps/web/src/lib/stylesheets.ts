/**
 * Marks index.html's stylesheets, which the build turns into preloads (apps/web/stylesheets-after-paint.ts): the
 * browser fetches them at once but paints the loading mark without waiting for them, and the entry applies them
 * before the app's first render (`applyStylesheets`).
 */
export const PRELOADED_STYLESHEET = 'data-stylesheet';

const STYLESHEET = '<link rel="stylesheet"';
const PRELOAD = `<link rel="preload" as="style" ${PRELOADED_STYLESHEET}`;

/** The page with its stylesheet links as preloads the entry applies. */
export function preloadStylesheets(html: string): string {
  return html.replaceAll(STYLESHEET, PRELOAD);
}

/** The page with those preloads as stylesheet links again: a prerendered page is painted with its styles. */
export function restoreStylesheets(html: string): string {
  return html.replaceAll(PRELOAD, STYLESHEET);
}

/**
 * Applies the stylesheets the page preloaded (`preloadStylesheets`) and settles once each has loaded, or failed to:
 * the app's first render waits for this, so it is never shown without its styles.
 */
export function applyStylesheets(doc: Document = document): Promise<void> {
  const preloads = doc.querySelectorAll<HTMLLinkElement>(`link[rel="preload"][${PRELOADED_STYLESHEET}]`);
  return Promise.all(
    Array.from(preloads, (preload) => {
      const link = doc.createElement('link');
      link.rel = 'stylesheet';
      if (preload.crossOrigin !== null) link.crossOrigin = preload.crossOrigin;
      link.href = preload.href;
      const settled = new Promise<void>((resolve) => {
        link.addEventListener('load', () => resolve(), { once: true });
        link.addEventListener('error', () => resolve(), { once: true });
      });
      preload.replaceWith(link);
      return settled;
    }),
  ).then(() => undefined);
}
