// The web app's entry weight: the gzip size of the entry script and of everything the first page load
// fetches before any lazy page (the entry plus its modulepreload chunks and the CSS), from the built dist.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../apps/web/dist', import.meta.url));

function gzipKiB(path) {
  const bytes = readFileSync(join(dist, path.replace(/^\/app\//, '')));
  return { raw: bytes.length / 1024, gzip: gzipSync(bytes, { level: 9 }).length / 1024 };
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
    .reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }));
  const css = styles
    .map(gzipKiB)
    .reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
  return { entryJs, initialJs, css, chunks: 1 + preloads.length };
}
