// `npm run bench`: runs the quick benchmarks and prints their figures as the Markdown rows of bench/README.md.
// `npm run bench -- checks|checks-long|http-floor|alerts|phone|api|shopify|ads|restart|lighthouse|detection|idle|partitions|long`
// runs the long ones instead (minutes each; see bench/README.md). `npm run bench -- baseline` runs an older commit's
// checks benchmark beside today's (an install of that commit first, so not part of `long`).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const LONG = [
  'checks',
  'checks-long',
  'http-floor',
  'alerts',
  'phone',
  'api',
  'shopify',
  'ads',
  'restart',
  'lighthouse',
  'detection',
  'idle',
  'partitions',
];
const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== 'long' && arg !== 'baseline' && !LONG.includes(arg));
if (unknown.length) {
  console.error(
    `Unknown benchmark ${unknown.join(', ')}: use checks, checks-long, http-floor, alerts, phone, api, shopify, ads, restart, lighthouse, detection, idle, partitions, long (all thirteen) or baseline.`,
  );
  process.exit(2);
}
const long = args.includes('long') ? LONG : LONG.filter((name) => args.includes(name));

if (spawnSync('node', ['scripts/build-if-stale.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0)
  process.exit(1);

const fmt = (n, digits = 0) => n.toFixed(digits);

if (long.length === 0 && !args.includes('baseline')) {
  const { benchWebSize } = await import('./web-size.mjs');
  const { benchStartup } = await import('./startup.mjs');
  const web = benchWebSize();
  console.log('\n## Web app (apps/web/dist)\n');
  console.log('| what | raw | gzip | brotli (sent) |\n|---|---|---|---|');
  const sizes = (s) => `${fmt(s.raw, 1)} kB | ${fmt(s.gzip, 1)} kB | ${fmt(s.br, 1)} kB`;
  console.log(`| entry JS | ${sizes(web.entryJs)} |`);
  console.log(
    `| JS before the first page (${web.chunks} file${web.chunks === 1 ? '' : 's'}) | ${sizes(web.initialJs)} |`,
  );
  console.log(`| CSS | ${sizes(web.css)} |`);
  console.log(
    '\n| page | JS evaluated before it renders | files | raw | brotli (sent) |\n|---|---|---|---|---|',
  );
  for (const page of web.pages) {
    console.log(
      `| ${page.page} | entry and its route's chunks | ${page.files} | ${fmt(page.raw, 1)} kB | ${fmt(page.br, 1)} kB |`,
    );
  }

  const startup = await benchStartup();
  console.log('\n## Embedded start and idle memory\n');
  console.log('| database | first start (empty data) | warm start | idle RSS |\n|---|---|---|---|');
  for (const row of startup) {
    console.log(
      `| ${row.database} | ${fmt(row.firstMs)} ms | ${fmt(row.warmMs)} ms | ${fmt(row.idleRss)} MiB |`,
    );
  }
}

// BENCH_CHECKS and BENCH_ALERTS replace the default plans; `plan` (lib.mjs) parses them.
const { plan } = await import('./lib.mjs');

if (long.includes('checks') || long.includes('alerts')) {
  const { benchChecks, printChecks } = await import('./checks.mjs');
  const runs = [
    ...(long.includes('checks')
      ? plan(
          process.env.BENCH_CHECKS ??
            'postgres:10000:1,postgres:10000:2,postgres:10000:4,postgres:90000:2,postgres:100000:2,pglite:10000:1',
        )
      : []),
    ...(long.includes('alerts') ? plan(process.env.BENCH_ALERTS ?? 'postgres:10000:2:200') : []),
  ];
  const rows = [];
  for (const run of runs) {
    const row = await benchChecks(run);
    console.error(JSON.stringify(row));
    rows.push(row);
  }
  printChecks(rows);
}

// The long window: 48 h of history (BENCH_HISTORY_HOURS), BENCH_LONG_WINDOW_S (1800), and a window that holds a
// whole hour and the roll-up run after it, so a partition drop falls in it.
if (long.includes('checks-long')) {
  const { benchChecks, printChecks } = await import('./checks.mjs');
  const rows = [];
  for (const run of plan(process.env.BENCH_CHECKS_LONG ?? 'postgres:10000:2')) {
    const row = await benchChecks({
      ...run,
      windowMs: Number(process.env.BENCH_LONG_WINDOW_S ?? 1800) * 1000,
      alignToHour: true,
    });
    console.error(JSON.stringify(row));
    rows.push(row);
  }
  printChecks(rows);
}

if (long.includes('http-floor')) {
  const { benchHttpFloor, printHttpFloor } = await import('./http-floor.mjs');
  printHttpFloor(await benchHttpFloor());
}

if (long.includes('phone')) {
  const { benchPhone, printPhone } = await import('./phone.mjs');
  const rows = [];
  for (const run of plan(process.env.BENCH_PHONE ?? 'postgres:10000:2:200')) {
    if (run.database !== 'postgres') throw new Error('BENCH_PHONE runs on PostgreSQL only.');
    const row = await benchPhone({ n: run.n, workers: run.workers, failing: run.down });
    console.error(JSON.stringify(row));
    rows.push(row);
  }
  printPhone(rows);
}

if (long.includes('partitions')) {
  const { benchPartitions, printPartitions } = await import('./partitions.mjs');
  const figures = await benchPartitions();
  console.error(JSON.stringify(figures));
  printPartitions(figures);
}

if (long.includes('api')) {
  const { benchApi, printApi } = await import('./api.mjs');
  printApi(await benchApi());
}

if (long.includes('shopify')) {
  const { benchShopify, printShopify, shopifyRuns } = await import('./shopify.mjs');
  const rows = [];
  for (const run of shopifyRuns()) {
    const row = await benchShopify(run);
    console.error(JSON.stringify(row));
    rows.push(row);
  }
  printShopify(rows);
}

if (long.includes('ads')) {
  const { benchAds, printAds } = await import('./ads.mjs');
  const row = await benchAds();
  console.error(JSON.stringify(row));
  printAds(row);
}

if (long.includes('restart')) {
  const { benchRestart, printRestart } = await import('./restart.mjs');
  const row = await benchRestart();
  console.error(JSON.stringify(row));
  printRestart(row);
}

if (long.includes('lighthouse')) {
  const { benchLighthouse, printLighthouse } = await import('./lighthouse.mjs');
  printLighthouse(await benchLighthouse());
}

if (long.includes('detection')) {
  const { benchDetection, printDetection } = await import('./detection.mjs');
  const run = await benchDetection();
  console.error(JSON.stringify(run));
  printDetection(run);
}

if (long.includes('idle')) {
  const { benchIdle, printIdle } = await import('./idle.mjs');
  printIdle(await benchIdle());
}

if (args.includes('baseline')) {
  const { benchBaseline, printBaseline } = await import('./baseline.mjs');
  printBaseline(await benchBaseline());
}
process.exit(0);
