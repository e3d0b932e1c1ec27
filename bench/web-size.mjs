// The web app's entry weight: the gzip size of the entry script and of everything the first page load
// fetches before any lazy page (the entry plus its modulepreload chunks and the CSS), from the built dist; and
// the brotli size, which is what the server sends (the build's .br copies: apps/web/precompress.ts).
import { readFileSync } from 'node:fs';
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
  const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => m[1]);
  const entryJs = gzipKiB(entry);
  const initialJs = [entry, ...preloads]
    .map(gzipKiB)
    .reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, br: a.br + b.br }));
  const css = styles
    .map(gzipKiB)
    .reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, br: a.br + b.br }), {
      raw: 0,
      gzip: 0,
      br: 0,
    });
  return { entryJs, initialJs, css, chunks: 1 + preloads.length };
}
