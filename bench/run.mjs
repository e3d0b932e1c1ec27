// `npm run bench`: runs every benchmark and prints its figures as the Markdown rows of bench/README.md.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchStartup } from './startup.mjs';
import { benchWebSize } from './web-size.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
if (spawnSync('node', ['scripts/build-if-stale.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0)
  process.exit(1);

const fmt = (n, digits = 0) => n.toFixed(digits);

const web = benchWebSize();
console.log('\n## Web app (apps/web/dist)\n');
console.log('| what | raw | gzip |\n|---|---|---|');
console.log(`| entry JS | ${fmt(web.entryJs.raw, 1)} kB | ${fmt(web.entryJs.gzip, 1)} kB |`);
console.log(
  `| JS before the first page (${web.chunks} files) | ${fmt(web.initialJs.raw, 1)} kB | ${fmt(web.initialJs.gzip, 1)} kB |`,
);
console.log(`| CSS | ${fmt(web.css.raw, 1)} kB | ${fmt(web.css.gzip, 1)} kB |`);

const startup = await benchStartup();
console.log('\n## Embedded start and idle memory\n');
console.log('| database | first start (empty data) | warm start | idle RSS |\n|---|---|---|---|');
for (const row of startup) {
  console.log(
    `| ${row.database} | ${fmt(row.firstMs)} ms | ${fmt(row.warmMs)} ms | ${fmt(row.idleRss)} MiB |`,
  );
}
