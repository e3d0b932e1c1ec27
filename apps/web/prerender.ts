import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';
import { PRERENDERED_PAGES, type PrerenderedPage } from './src/lib/prerendered.ts';
import { restoreStylesheets } from './src/lib/stylesheets.ts';

/** Where the markup goes in the built index.html: the loading mark between these comments (index.html). */
const LOADING_MARK = /<!--loading-->[\s\S]*<!--\/loading-->/;

/**
 * Writes a page as it first renders into a copy of the built index.html, `<page>.html`, in place of the
 * loading mark: `<div id="root" data-prerendered="<page>">` followed by the page's markup, and the colour
 * scheme that Mantine's stylesheet keys on (set by a script otherwise), with the stylesheet linked as usual (the
 * markup is painted with it). The app's code is the same, and replaces the markup with the live page once it has
 * arrived (main.tsx).
 */
export function prerenderedHtml(indexHtml: string, page: PrerenderedPage, markup: string): string {
  if (!LOADING_MARK.test(indexHtml)) throw new Error('index.html has no <!--loading--> mark to replace.');
  return restoreStylesheets(indexHtml)
    .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">')
    .replace('<div id="root">', `<div id="root" data-prerendered="${page}">`)
    .replace(LOADING_MARK, () => markup);
}

/**
 * The Vite plugin: once a production build has written its output, renders each page of `PRERENDERED_PAGES`
 * through Vite's server-side module loader (the same sources and config as the build) and writes its HTML.
 * It runs before the output is precompressed (precompress.ts runs last).
 */
export function prerender(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'vigil-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      const indexHtml = await readFile(join(outDir, 'index.html'), 'utf8');
      const server = await createServer({
        root: config.root,
        configFile: config.configFile,
        mode: config.mode,
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
      });
      try {
        const { renderPrerenderedPage } = (await server.ssrLoadModule('/src/app/prerender.tsx')) as {
          renderPrerenderedPage: (page: PrerenderedPage) => string;
        };
        for (const page of Object.keys(PRERENDERED_PAGES) as PrerenderedPage[]) {
          const html = prerenderedHtml(indexHtml, page, renderPrerenderedPage(page));
          await writeFile(join(outDir, `${page}.html`), html);
        }
      } finally {
        await server.close();
      }
    },
  };
}
