import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyStylesheets, preloadStylesheets, restoreStylesheets } from './stylesheets.ts';

// index.html's head as the build writes it.
const HEAD = `<head>
    <script type="module" crossorigin src="/app/assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="/app/assets/index-def.css">
    <link rel="modulepreload" crossorigin href="/app/assets/signed-in-ghi.js">
  </head>`;

describe('preloadStylesheets() and restoreStylesheets()', () => {
  it('turns the stylesheet links into preloads, and back', () => {
    const preloaded = preloadStylesheets(HEAD);
    expect(preloaded).toContain(
      '<link rel="preload" as="style" data-stylesheet crossorigin href="/app/assets/index-def.css">',
    );
    expect(preloaded).not.toContain('rel="stylesheet"');
    expect(preloaded).toContain('<link rel="modulepreload" crossorigin href="/app/assets/signed-in-ghi.js">');
    expect(restoreStylesheets(preloaded)).toBe(HEAD);
  });
});

describe('applyStylesheets()', () => {
  let document: Document;
  // happy-dom loads no CSS: it answers each stylesheet at once as it is linked (as loaded, set below, rather than
  // failed with an error in the log). The test holds those events back and says itself when each stylesheet loads
  // or fails (`send`).
  let sending = false;
  const holdBack = (event: Event) => {
    if (!sending) event.stopImmediatePropagation();
  };
  function send(link: HTMLLinkElement, type: 'load' | 'error') {
    sending = true;
    link.dispatchEvent(new Event(type));
    sending = false;
  }
  const settings = (window as unknown as { happyDOM: { settings: Record<string, unknown> } }).happyDOM
    .settings;
  beforeAll(() => {
    settings.handleDisabledFileLoadingAsSuccess = true;
  });
  afterAll(() => {
    settings.handleDisabledFileLoadingAsSuccess = false;
  });
  beforeEach(() => {
    document = window.document.implementation.createHTMLDocument('Vigil');
    document.addEventListener('load', holdBack, true);
    document.addEventListener('error', holdBack, true);
  });

  function preload(href: string): HTMLLinkElement {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'style';
    link.crossOrigin = '';
    link.setAttribute('data-stylesheet', '');
    link.href = href;
    document.head.append(link);
    return link;
  }

  it('links each preloaded stylesheet in its place and settles once all have loaded or failed', async () => {
    preload('/app/assets/a.css');
    preload('/app/assets/b.css');
    let settled = false;
    const applied = applyStylesheets(document).then(() => (settled = true));

    const links = [...document.head.querySelectorAll<HTMLLinkElement>('link')];
    expect(links.map((link) => [link.rel, new URL(link.href).pathname, link.crossOrigin])).toEqual([
      ['stylesheet', '/app/assets/a.css', ''],
      ['stylesheet', '/app/assets/b.css', ''],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    send(links[0]!, 'load');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    // A stylesheet that fails does not hold the app back.
    send(links[1]!, 'error');
    await applied;
    expect(settled).toBe(true);
  });

  it('settles at once when the page preloaded none of its stylesheets, and leaves other preloads alone', async () => {
    const font = document.createElement('link');
    font.rel = 'preload';
    font.as = 'font';
    font.href = '/app/assets/a.woff2';
    document.head.append(font);
    await expect(applyStylesheets(document)).resolves.toBeUndefined();
    expect([...document.head.querySelectorAll('link')]).toEqual([font]);
  });
});
