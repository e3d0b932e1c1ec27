// The web app's entry weight: the gzip size of the entry script and of everything the first page load
// fetches before any lazy page (the entry plus its modulepreload chunks and the CSS), from the built dist; and
// the brotli size, which is what the server sends (the build's .br copies: apps/web/precompress.ts). Then, per
// measured page, the files and bytes evaluated before it renders: the entry and its route's lazy chunks.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../apps/web/dist', import.meta.url));

function gzipKiB(path) {
  const bytes = readFileSync(join(dist, path.replace(/^\/app\//, '')));
  const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  return {
    raw: bytes.length / 1024,
    gzip: gzipSync(bytes, { level: 9 }).length / 1024,
    br: br.length / 1024,
  };
}

export function benchWebSize() {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const entry = /<script[^>]+type="module"[^>]+src="([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error('No module entry script in apps/web/dist/index.html');
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1]);
  // The early script (apps/web/early-script.ts): a classic script that runs before the entry.
  const classic = [...html.matchAll(/<script(?![^>]*type="module")[^>]+src="([^"]+)"/g)].map((m) => m[1]);
  // The stylesheet is linked as a preload that the entry applies (apps/web/stylesheets-after-paint.ts).
  const styles = [...html.matchAll(/<link[^>]+href="([^"]+\.css)"/g)].map((m) => m[1]);
  const entryJs = gzipKiB(entry);
  const initialJs = [...classic, entry, ...preloads]
    .map(gzipKiB)
    .reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, br: a.br + b.br }));
  const css = styles
    .map(gzipKiB)
    .reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, br: a.br + b.br }), {
      raw: 0,
      gzip: 0,
      br: 0,
    });
  return {
    entryJs,
    initialJs,
    css,
    chunks: classic.length + 1 + preloads.length,
    pages: pageSizes(entry, classic),
  };
}

/**
 * What each measured page evaluates before it renders: the entry, then the lazy chunks its route loads (the page,
 * with the startup gate for a private one), each with every chunk it imports statically. A module's chunk is the
 * one whose source map lists it: the build groups modules into chunks named for the group (apps/web/chunks.ts).
 */
const PAGES = {
  login: ['src/pages/login-page.tsx'],
  'monitor list': [
    'src/app/startup-gate.tsx',
    'src/pages/monitor-page.tsx',
    'src/pages/monitor-list-view.tsx',
  ],
  'monitor detail': [
    'src/app/startup-gate.tsx',
    'src/pages/monitor-page.tsx',
    'src/pages/monitor-detail-view.tsx',
  ],
};

function pageSizes(entry, classic) {
  const early = new Set(classic.map((src) => src.replace(/^\/app\/assets\//, '')));
  const assets = readdirSync(join(dist, 'assets')).filter((file) => file.endsWith('.js') && !early.has(file));
  const sources = new Map(
    assets.map((file) => [
      file,
      JSON.parse(readFileSync(join(dist, 'assets', `${file}.map`), 'utf8')).sources,
    ]),
  );
  const chunk = (module) => {
    const file = assets.find((asset) => sources.get(asset).some((source) => source.endsWith(`/${module}`)));
    if (!file) throw new Error(`No chunk holds ${module} in apps/web/dist/assets`);
    return file;
  };
  return Object.entries(PAGES).map(([page, lazy]) => {
    const files = new Set();
    const visit = (file) => {
      if (files.has(file)) return;
      files.add(file);
      const code = readFileSync(join(dist, 'assets', file), 'utf8');
      for (const [, imported] of code.matchAll(
        /(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g,
      )) {
        visit(imported);
      }
    };
    for (const file of early) files.add(file);
    visit(entry.replace(/^\/app\/assets\//, ''));
    for (const name of lazy) visit(chunk(name));
    const sizes = [...files].map((file) => gzipKiB(`assets/${file}`));
    return {
      page,
      files: files.size,
      raw: sizes.reduce((sum, size) => sum + size.raw, 0),
      br: sizes.reduce((sum, size) => sum + size.br, 0),
    };
  });
}
