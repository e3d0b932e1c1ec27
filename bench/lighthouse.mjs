// First load of the web app as Lighthouse scores it (issue 12): the built server on a fresh PGlite data folder
// with the sandbox, one user registered, onboarded and on Business through the API, one website monitor; then
// Lighthouse (performance and accessibility, its default simulated throttling) on the login page, the monitor
// list and the monitor detail, with its mobile and desktop presets, each in a fresh Chromium profile (so an empty
// cache) that holds the session cookies the web app reads.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { PASSWORD, httpClient } from './http.mjs';
import { CONDITIONS, NO_ALERTS, num, startServer, stopChild } from './lib.mjs';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/**
 * Runs of each audit; the one with the median performance score is reported. Five, as Lighthouse's own guide to
 * variability advises (the median of five halves the spread of single runs); on this machine single runs of one
 * build move by 5–8 points.
 */
const RUNS = num('BENCH_LIGHTHOUSE_RUNS', 5);
const PORTS = { from: 3390, to: 3397 };
/** A folder to keep each run's full Lighthouse report in (JSON), for looking into a score. */
const REPORTS = process.env.BENCH_LIGHTHOUSE_REPORTS;
/** With REPORTS, also each run's trace (`<report>.trace.json`), for `lighthouse-trace.mjs`. */
const TRACES = process.env.BENCH_LIGHTHOUSE_TRACES === '1';
/** Which pages to audit (`login`, `list`, `detail`, comma-separated); all three by default. */
const ONLY = process.env.BENCH_LIGHTHOUSE_PAGES?.split(',').map((page) => page.trim());
/** Which of Lighthouse's presets to run (`mobile`, `desktop`, comma-separated); both by default. */
const FORM_FACTORS = process.env.BENCH_LIGHTHOUSE_FORM_FACTORS?.split(',').map((form) => form.trim()) ?? [
  'mobile',
  'desktop',
];

function isFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** `count` free ports of 127.0.0.1:3390–3397: the server's, then the sandbox's SMTP and Stripe. */
async function freePorts(count) {
  const ports = [];
  for (let port = PORTS.from; port <= PORTS.to && ports.length < count; port += 1) {
    if (await isFree(port)) ports.push(port);
  }
  if (ports.length < count) throw new Error(`Fewer than ${count} free ports in ${PORTS.from}–${PORTS.to}.`);
  return ports;
}

/** One Lighthouse run in a fresh browser holding the session cookies (none for the login page). */
async function audit(url, { name, formFactor, cookies }) {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    defaultViewport: null,
  });
  try {
    if (cookies.length) await browser.setCookie(...cookies);
    const page = await browser.newPage();
    const flags = { onlyCategories: ['performance', 'accessibility'], logLevel: 'error', output: 'json' };
    const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined, page);
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
    if (REPORTS) {
      mkdirSync(REPORTS, { recursive: true });
      const report = join(REPORTS, `${name}-${formFactor}-${Date.now()}`);
      writeFileSync(`${report}.json`, JSON.stringify(lhr));
      if (TRACES) writeFileSync(`${report}.trace.json`, JSON.stringify(result.artifacts.Trace));
    }
    const scripts = lhr.audits['resource-summary']?.details?.items?.find(
      (item) => item.resourceType === 'script',
    );
    const numeric = (id) => lhr.audits[id]?.numericValue ?? NaN;
    return {
      performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
      fcpMs: numeric('first-contentful-paint'),
      lcpMs: numeric('largest-contentful-paint'),
      tbtMs: numeric('total-blocking-time'),
      cls: numeric('cumulative-layout-shift'),
      jsKiB: (scripts?.transferSize ?? 0) / 1024,
      jsFiles: scripts?.requestCount ?? 0,
      // Lighthouse's own measure of this machine's speed at that moment (higher is faster).
      benchmarkIndex: lhr.environment?.benchmarkIndex ?? NaN,
      finalUrl: lhr.finalDisplayedUrl,
      failed: Object.values(lhr.audits)
        .filter(
          (a) => a.score !== null && a.score < 0.9 && ['binary', 'numeric'].includes(a.scoreDisplayMode),
        )
        .map((a) => a.id),
    };
  } finally {
    await browser.close();
  }
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP) on a busy machine: such a run is repeated. */
async function auditWithRetry(url, options, attempts = 3) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await audit(url, options);
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.error(`${error.message}: trying again`);
    }
  }
}

export async function benchLighthouse() {
  const [port, smtpPort, stripePort] = await freePorts(3);
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-lighthouse-'));
  const server = await startServer(
    {
      DATA_DIR: dataDir,
      SANDBOX: 'on',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      SANDBOX_SMTP_PORT: String(smtpPort),
      SANDBOX_STRIPE_PORT: String(stripePort),
    },
    { port, name: 'server' },
  );
  try {
    const client = httpClient(port);
    // On Business, so the startup rules leave the signed-in pages where they are (a Free user goes to /pricing).
    const email = `lighthouse-${Date.now()}@example.com`;
    const token = await client.registerBusinessUser(email);
    const monitor = await client.api('POST', '/monitor-bff/monitor', {
      token,
      json: {
        name: 'Storefront',
        service: 'website',
        target: { url: `${base}/healthz` },
        conditions: CONDITIONS,
        intervalSeconds: 60,
        repeatIntervalMinutes: 0,
        confirmations: 1,
        languageCode: 'en-US',
        ...NO_ALERTS,
      },
    });
    // The cookies a sign-in leaves (lib/session.ts): `token` and `monitor_key`, path '/'.
    const signedIn = await client.api('POST', '/oauth-bff/v1/user/login', {
      json: { email, password: PASSWORD },
    });
    const session = ['token', 'monitor_key'].map((name) => ({
      name,
      value: signedIn[name],
      domain: '127.0.0.1',
      path: '/',
    }));

    const pages = [
      { name: 'login', page: 'login', path: '/app/login', cookies: [] },
      { name: 'list', page: 'monitor list', path: '/app/monitor', cookies: session },
      {
        name: 'detail',
        page: 'monitor detail',
        path: `/app/monitor?monitorId=${monitor.monitorId}`,
        cookies: session,
      },
    ].filter(({ name }) => !ONLY || ONLY.includes(name));
    const rows = [];
    for (const { name, page, path, cookies } of pages) {
      for (const formFactor of FORM_FACTORS) {
        const runs = [];
        for (let i = 0; i < RUNS; i += 1)
          runs.push(await auditWithRetry(base + path, { name, formFactor, cookies }));
        runs.sort((a, b) => a.performance - b.performance);
        const row = {
          page,
          path: path.replace(/monitorId=.*$/, 'monitorId=…'),
          formFactor,
          runs: RUNS,
          ...runs[runs.length >> 1],
        };
        console.error(JSON.stringify(row));
        rows.push(row);
      }
    }
    return rows;
  } finally {
    await stopChild(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printLighthouse(rows) {
  const fmt = (n, digits = 0) => n.toFixed(digits);
  console.log('\n## First load (Lighthouse)\n');
  console.log(
    '| page | form factor | performance | accessibility | FCP | LCP | TBT | CLS | JS transferred | benchmark index |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(
      `| ${row.page} (\`${row.path}\`) | ${row.formFactor} | ${row.performance} | ${row.accessibility} | ${fmt(row.fcpMs / 1000, 1)} s | ${fmt(row.lcpMs / 1000, 1)} s | ${fmt(row.tbtMs)} ms | ${fmt(row.cls, 3)} | ${fmt(row.jsKiB, 1)} KiB (${row.jsFiles} files) | ${fmt(row.benchmarkIndex)} |`,
    );
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  buildIfStale();
  printLighthouse(await benchLighthouse());
  process.exit(0);
}
