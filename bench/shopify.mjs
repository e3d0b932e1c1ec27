// Shopify service benchmark: what watching many shops costs Vigil and the shops' Admin API, and how fast a
// provider webhook becomes an alert.
//
// One `ROLE=all` process with `SANDBOX=on` on a fresh PostgreSQL database: it runs the API, the check engine and
// the Shopify stand-in (`/sandbox/shopify`, its JSON control API under `/sandbox/api/shopify`), so its CPU
// includes the stand-in's. Everything is set up through HTTP as a person would: shops are made in the sandbox,
// users register, onboard and buy Business (`plan-order/create`, the sandbox's Checkout paid with 4242…, the
// order read until the webhook activated it), each shop is bound through the real OAuth flow (`ouathuri` → the
// sandbox's grant page → its approve form → the 302 back → `bind`), and monitors are created with
// `POST /monitor-bff/monitor` (every condition on but the price change, 60 s, confirmations 2, no alert channel
// but the latency monitors' email).
//
// Two scenarios, each in its own process and database:
// - `shops`: S shops × P products, one monitor per shop watching all P (users of 25 shops each: `ouathuri` is
//   limited to 30 per user per hour). The first A monitors email a verified address of their own
//   (`verified_contacts` inserted directly); during the window one watched variant's stock goes to 0 in each of
//   their shops, spread over BENCH_SHOPIFY_SPREAD_S, through the sandbox API (it sends
//   inventory_levels/update). Latency = the benchmark's SMTP server receiving the alert − the change.
// - `big`: one shop with N products, M monitors watching K distinct products each, with the shop's GraphQL
//   bucket set to a Shopify plan's (standard 2,000 points at 100/s; plus 20,000 at 1,000/s).
// After the setup, a warm-up of at least BENCH_WARM_S, then a window of whole intervals (each shop's monitors
// share a grid offset within the minute by a hash of the shop's connection): checks/s, start drift
// (checked_at − slot_at), missed slots, results that could not judge every condition, the sandbox's GraphQL
// requests / cost / throttled answers per shop per interval (over a span of whole intervals, so each shop's slot
// falls in it once per interval), Vigil's warnings, CPU and RSS. Loopback only; the database, the child process and the SMTP server go at the end.
import pg from 'pg';
import { httpClient } from './http.mjs';
import {
  freshDatabase,
  measureChecks,
  NO_ALERTS,
  num,
  pool,
  sampler,
  sleep,
  spreadOf,
  startServer,
  startSmtp,
  stopChild,
  waitForTable,
  watchLog,
  sandboxedServerEnv,
} from './lib.mjs';

const INTERVAL_MS = 60_000;
// The checks benchmark uses 3390–3392, the API benchmark 3393; the phone benchmark 3394–3396, never at once.
const SMTP_PORT = 3394;
const PORT = 3395;
const SANDBOX_SMTP_PORT = 3396;
const SANDBOX_STRIPE_PORT = 3397;
const { api, registerBusinessUser, bind } = httpClient(PORT);
/** Shops per user: `ouathuri` allows 30 per user per hour. */
const SHOPS_PER_USER = 25;

/** Shopify plans' GraphQL Admin buckets (shopify.dev: 100, 200 and 1,000 points a second). */
export const BUCKETS = {
  standard: { maximumAvailable: 2000, restoreRate: 100 },
  advanced: { maximumAvailable: 4000, restoreRate: 200 },
  plus: { maximumAvailable: 20_000, restoreRate: 1000 },
};

export const SHOPIFY_CONDITIONS = {
  storefront_down: { enabled: true },
  checkout_broken: { enabled: true },
  product_out_of_stock: { enabled: true, threshold: 0 },
  product_unpublished: { enabled: true },
  product_price_changed: { enabled: false },
  app_uninstalled: { enabled: true },
};

/** Binds a shop through the sandbox's grant page (approve); resolves with the connection's id. */
const bindShop = (token, domain) => bind(token, `service=shopify&shop=${domain}`, { decision: 'approve' });

async function createMonitor(token, { name, connectionId, productIds, email }) {
  return api('POST', '/monitor-bff/monitor', {
    token,
    json: {
      name,
      service: 'shopify',
      target: { connectionId, productIds },
      conditions: SHOPIFY_CONDITIONS,
      intervalSeconds: INTERVAL_MS / 1000,
      repeatIntervalMinutes: 0,
      confirmations: 2,
      languageCode: 'en-US',
      ...NO_ALERTS,
      ...(email ? { emailSettings: { checked: true, name: 'Bench', isAgree: true, email } } : {}),
    },
  });
}

/** `{ domain: { requests, cost, throttled } }` of every sandbox shop, in one request. */
async function callCounts() {
  const { shops } = await api('GET', '/sandbox/api/shopify');
  return Object.fromEntries(shops.map((shop) => [shop.domain, shop.calls]));
}

/** Sets up the `shops` scenario; resolves with the monitors' owners and the latency monitors' shops. */
async function setupShops({ client, shops, products, alerting }) {
  const domains = Array.from({ length: shops }, (_, i) => `bench-${i}.myshopify.com`);
  let t = Date.now();
  const shopProducts = new Map();
  await pool(domains, 16, async (domain) => {
    await api('POST', '/sandbox/api/shopify/shops', {
      json: { name: domain.replace('.myshopify.com', ''), domain, productCount: products },
    });
    const { list } = await api('GET', `/sandbox/api/shopify/shops/${domain}/products`);
    shopProducts.set(domain, list);
  });
  console.error(`shopify: ${shops} shops × ${products} products in ${Date.now() - t} ms`);

  t = Date.now();
  const userCount = Math.ceil(shops / SHOPS_PER_USER);
  const tokens = new Array(userCount);
  await pool(
    Array.from({ length: userCount }, (_, u) => u),
    4,
    async (u) => {
      tokens[u] = await registerBusinessUser(`owner-${u}@bench.local`);
    },
  );
  // The latency monitors' addresses, verified as if their owners had entered the codes.
  for (let i = 0; i < alerting; i += 1) {
    await client.query(
      `insert into verified_contacts (user_id, channel, address, verified_at)
       select id, 'email', $2, now() from users where email = $1`,
      [`owner-${i % userCount}@bench.local`, `alert-${i}@bench.local`],
    );
  }
  console.error(`shopify: ${userCount} users registered, onboarded, on Business in ${Date.now() - t} ms`);

  t = Date.now();
  let done = 0;
  await pool(domains, 12, async (domain, i) => {
    // Round robin: shops bound at the same time belong to different users (creating locks the owner).
    const token = tokens[i % userCount];
    const connectionId = await bindShop(token, domain);
    await createMonitor(token, {
      name: `shop-${i}`,
      connectionId,
      productIds: shopProducts.get(domain).map((product) => product.gid),
      email: i < alerting ? `alert-${i}@bench.local` : undefined,
    });
    done += 1;
    if (done % 100 === 0) console.error(`shopify: ${done} shops bound and watched (${Date.now() - t} ms)`);
  });
  console.error(`shopify: ${shops} shops bound, ${shops} monitors created in ${Date.now() - t} ms`);
  // The latency test sells out each alerting shop's first product (stock 1 … P, never 0 before).
  return {
    domains,
    latency: domains.slice(0, alerting).map((domain, i) => ({
      i,
      domain,
      variantId: shopProducts.get(domain)[0].variants[0].id,
      address: `alert-${i}@bench.local`,
    })),
  };
}

/** Sets up the `big` scenario: one shop, `monitors` monitors of `each` distinct products. */
async function setupBig({ products, monitors, each, bucket }) {
  const domain = 'bench-big.myshopify.com';
  let t = Date.now();
  await api('POST', '/sandbox/api/shopify/shops', {
    json: { name: 'bench-big', domain, productCount: products },
  });
  const { list } = await api('GET', `/sandbox/api/shopify/shops/${domain}/products`);
  // Generated stock is n % 25: give the sold-out ones stock before the app is installed (no webhooks yet).
  const soldOut = list.flatMap((product) => product.variants.filter((v) => v.inventoryQuantity <= 0));
  await pool(soldOut, 8, (variant) =>
    api('POST', `/sandbox/api/shopify/shops/${domain}/variants/${variant.id}/stock`, {
      json: { quantity: 5 },
    }),
  );
  console.error(
    `shopify: 1 shop × ${products} products (${soldOut.length} restocked) in ${Date.now() - t} ms`,
  );
  t = Date.now();
  const token = await registerBusinessUser('big-owner@bench.local');
  const connectionId = await bindShop(token, domain);
  // Creating a monitor reads its products (≈800 points requested each); a roomy bucket keeps the setup short,
  // and the plan's bucket is put back before the warm-up.
  await api('POST', `/sandbox/api/shopify/shops/${domain}/throttle`, {
    json: { maximumAvailable: 1_000_000, restoreRate: 100_000, currentlyAvailable: 1_000_000 },
  });
  await pool(
    Array.from({ length: monitors }, (_, m) => m),
    4,
    (m) =>
      createMonitor(token, {
        name: `big-${m}`,
        connectionId,
        productIds: list.slice(m * each, (m + 1) * each).map((product) => product.gid),
      }),
  );
  await api('POST', `/sandbox/api/shopify/shops/${domain}/throttle`, {
    json: { ...BUCKETS[bucket], currentlyAvailable: BUCKETS[bucket].maximumAvailable },
  });
  const variants = new Set(list.slice(0, monitors * each).flatMap((p) => p.variants.map((v) => v.id))).size;
  console.error(`shopify: ${monitors} monitors on ${domain} (${variants} variants) in ${Date.now() - t} ms`);
  return { domains: [domain], latency: [], variants };
}

/** Per shop and interval: the sandbox's GraphQL requests, cost and throttled answers between two snapshots. */
function perInterval(before, after, domains, intervals) {
  const of = (key) => domains.map((d) => ((after[d]?.[key] ?? 0) - (before[d]?.[key] ?? 0)) / intervals);
  const stat = (values) => ({
    mean: values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1),
    max: Math.max(...values),
    min: Math.min(...values),
  });
  return {
    shops: domains.length,
    requests: stat(of('requests')),
    cost: stat(of('cost')),
    throttled: of('throttled').reduce((a, b) => a + b, 0) * intervals,
  };
}

/** Sells out one watched variant per latency shop, spread over `spreadMs` from `atMs`; resolves with when. */
async function sellOut(latency, { atMs, spreadMs }) {
  const changes = [];
  await Promise.all(
    latency.map(async (shop, k) => {
      await sleep(atMs + (k * spreadMs) / latency.length - Date.now());
      const sentMs = Date.now();
      await api('POST', `/sandbox/api/shopify/shops/${shop.domain}/variants/${shop.variantId}/stock`, {
        json: { quantity: 0 },
      });
      changes.push({ ...shop, changedMs: sentMs, answeredMs: Date.now() });
    }),
  );
  return changes;
}

/** From each stock change to: the webhook recorded, the first check, the incident, sent_at, the email. */
async function measureLatency(query, changes, received, fromMs) {
  const { rows } = await query(
    `select m.name, c.shop,
       (select extract(epoch from min(w.received_at)) * 1000 from webhook_events w
         where w.account = c.shop and w.topic = 'inventory_levels/update'
           and w.received_at >= to_timestamp(c.changed_ms / 1000))::float8 as webhook_ms,
       (select extract(epoch from min(r.checked_at)) * 1000 from check_results r
         where r.monitor_id = m.id and r.checked_at >= to_timestamp(c.changed_ms / 1000))::float8 as checked_ms,
       (select count(*) from incidents i where i.monitor_id = m.id)::int as incidents,
       (extract(epoch from i.opened_at) * 1000)::float8 as opened_ms,
       (select (extract(epoch from r.slot_at) * 1000)::bigint % $2 <> 0 from check_results r
         where r.monitor_id = m.id and r.checked_at = i.opened_at limit 1) as by_webhook,
       (extract(epoch from d.sent_at) * 1000)::float8 as sent_ms,
       -- The monitor's last check that started before the webhook was recorded and saw the stock still there.
       (select extract(epoch from max(r.checked_at)) * 1000 from check_results r
         where r.monitor_id = m.id and r.ok and r.checked_at <= (select min(w.received_at) from webhook_events w
             where w.account = c.shop and w.topic = 'inventory_levels/update'
               and w.received_at >= to_timestamp(c.changed_ms / 1000)))::float8 as last_ok_ms
     from json_to_recordset($1::json) as c(name text, shop text, changed_ms float8)
       join monitors m on m.name = c.name
       left join incidents i on i.monitor_id = m.id and i.condition_key = 'product_out_of_stock'
       left join alert_deliveries d on d.incident_id = i.id and d.event = 'opened' and d.channel = 'email'`,
    [
      JSON.stringify(changes.map((c) => ({ name: `shop-${c.i}`, shop: c.domain, changed_ms: c.changedMs }))),
      INTERVAL_MS,
    ],
  );
  const byName = new Map(rows.map((row) => [row.name, row]));
  const emails = [];
  let missing = 0;
  let duplicates = 0;
  const since = { webhook: [], checked: [], opened: [], sent: [], request: [] };
  const slow = [];
  let byWebhook = 0;
  let incidents = 0;
  for (const change of changes) {
    const row = byName.get(`shop-${change.i}`);
    const arrivals = received.get(change.address) ?? [];
    if (arrivals.length === 0) missing += 1;
    duplicates += Math.max(0, arrivals.length - 1);
    if (arrivals.length) emails.push(arrivals[0] - change.changedMs);
    // Over 1 s: when the change came (s after the window's start) and whether a check was under way then.
    if (row && (arrivals.length === 0 || arrivals[0] - change.changedMs > 1000)) {
      slow.push({
        shop: change.domain,
        atS: (change.changedMs - fromMs) / 1000,
        ms: arrivals.length ? arrivals[0] - change.changedMs : null,
        byWebhook: row.by_webhook,
        webhookMs: row.webhook_ms - change.changedMs,
        lastOkCheckBeforeWebhookMs: row.last_ok_ms === null ? null : row.last_ok_ms - change.changedMs,
      });
    }
    since.request.push(change.answeredMs - change.changedMs);
    if (!row) continue;
    incidents += row.incidents;
    if (row.by_webhook) byWebhook += 1;
    for (const key of ['webhook', 'checked', 'opened', 'sent'])
      if (row[`${key}_ms`] !== null) since[key].push(row[`${key}_ms`] - change.changedMs);
  }
  const addresses = new Set(changes.map((c) => c.address));
  const stray = [...received.keys()].filter((address) => !addresses.has(address)).length;
  const email = spreadOf(emails);
  return {
    changes: changes.length,
    changedOverS:
      (Math.max(...changes.map((c) => c.changedMs)) - Math.min(...changes.map((c) => c.changedMs))) / 1000,
    incidents,
    emails: emails.length,
    missing,
    duplicates,
    stray,
    over1s: emails.filter((ms) => ms > 1000).length,
    byWebhook,
    slow: slow.sort((a, b) => a.atS - b.atS),
    email,
    request: spreadOf(since.request),
    webhook: spreadOf(since.webhook),
    checked: spreadOf(since.checked),
    opened: spreadOf(since.opened),
    sent: spreadOf(since.sent),
  };
}

/**
 * One scenario: `{ scenario: 'shops', shops, products, alerting }` or
 * `{ scenario: 'big', products, monitors, each, bucket }`.
 */
export async function benchShopify(run) {
  const warmMs = num('BENCH_WARM_S', 60) * 1000;
  const intervals = Math.max(2, Math.round(num('BENCH_WINDOW_S', 120) / (INTERVAL_MS / 1000)));
  const spreadMs = num('BENCH_SHOPIFY_SPREAD_S', 20) * 1000;
  // Centred on the second interval's burst of slots by default: the worst moment for a webhook to land.
  const changeAtMs = num('BENCH_SHOPIFY_CHANGE_AT_S', (INTERVAL_MS - spreadMs / 2) / 1000) * 1000;
  const label =
    run.scenario === 'shops'
      ? `${run.shops} shops × ${run.products} products, 1 monitor each, ${run.alerting} with email`
      : `1 shop × ${run.products} products, ${run.monitors} monitors × ${run.each} products, ${run.bucket} bucket`;
  console.error(`shopify: ${label}; warm-up ≥ ${warmMs / 1000} s, window ${intervals} intervals`);
  const smtp = await startSmtp(SMTP_PORT);
  const db = await freshDatabase('shopify');
  const client = new pg.Client({ connectionString: db.url });
  const query = (text, params) => client.query(text, params);
  let server;
  let pgPoll;
  try {
    await client.connect();
    server = await startServer(
      sandboxedServerEnv({
        databaseUrl: db.url,
        port: PORT,
        smtpPort: SMTP_PORT,
        sandboxSmtpPort: SANDBOX_SMTP_PORT,
        sandboxStripePort: SANDBOX_STRIPE_PORT,
      }),
      {
        port: PORT,
        name: 'vigil',
        nodeArgs: process.env.BENCH_SHOPIFY_NODE_ARGS?.split(' ').filter(Boolean),
      },
    );
    const log = watchLog(server);
    await waitForTable(client, 'pgboss.job');

    const setupStarted = Date.now();
    const setup = run.scenario === 'shops' ? await setupShops({ client, ...run }) : await setupBig(run);
    const setupS = (Date.now() - setupStarted) / 1000;
    const { rows: counted } = await query(`select count(*)::int as n from monitors`);
    const monitors = counted[0].n;

    // The window starts on the slot grid, at least the warm-up after the setup.
    const fromMs = Math.ceil((Date.now() + warmMs) / INTERVAL_MS) * INTERVAL_MS;
    const toMs = fromMs + intervals * INTERVAL_MS;
    console.error(
      `shopify: setup ${setupS.toFixed(0)} s; window ${new Date(fromMs).toISOString()} + ${intervals} min`,
    );
    await sleep(fromMs - INTERVAL_MS / 2 - Date.now());
    const before = await callCounts();
    await sleep(fromMs - Date.now());
    let pgPids = [];
    const readPgPids = async () => {
      const { rows } = await query(`select pid from pg_stat_activity where datname = $1 or datname is null`, [
        db.name,
      ]);
      pgPids = rows.map((row) => row.pid);
    };
    await readPgPids();
    pgPoll = setInterval(() => void readPgPids().catch(() => {}), 1000);
    const sample = sampler(() => ({ server: [server.pid], postgres: pgPids, bench: [process.pid] }));
    const changing = setup.latency.length
      ? sellOut(setup.latency, { atMs: fromMs + changeAtMs, spreadMs })
      : Promise.resolve([]);
    changing.catch(() => {}); // awaited below; a failure must not go unhandled before then
    await sleep(toMs - INTERVAL_MS / 2 - Date.now());
    const after = await callCounts();
    await sleep(toMs - Date.now());
    const usage = sample.stop();
    clearInterval(pgPoll);
    const changes = await changing;
    await sleep(10_000); // the last alerts reach the SMTP server; the last slots are written

    const checks = await measureChecks(query, { fromMs, toMs, intervalMs: INTERVAL_MS, monitors });
    const touched = new Set(setup.latency.map((shop) => shop.domain));
    const untouched = setup.domains.filter((domain) => !touched.has(domain));
    const api = {
      untouched: perInterval(before, after, untouched, intervals),
      touched: touched.size ? perInterval(before, after, [...touched], intervals) : null,
    };
    const latency = changes.length ? await measureLatency(query, changes, smtp.received, fromMs) : null;
    const { rows: incidents } = await query(
      `select condition_key, count(*)::int as n, min(summary) as example,
         count(*) filter (where opened_at < to_timestamp($1::float8 / 1000))::int as before_window,
         count(*) filter (where state = 'resolved')::int as resolved
       from incidents group by 1 order by 2 desc`,
      [fromMs],
    );
    return {
      label,
      ...run,
      monitors,
      variants: setup.variants,
      setupS,
      warmS: (fromMs - setupStarted) / 1000 - setupS,
      windowS: (toMs - fromMs) / 1000,
      intervals,
      checks,
      api,
      latency,
      incidents,
      warnings: log.between(fromMs - INTERVAL_MS / 2, toMs),
      usage,
    };
  } finally {
    clearInterval(pgPoll);
    if (server) await stopChild(server);
    await client.end().catch(() => {});
    await db.drop();
    smtp.server.close();
  }
}

/** The runs of BENCH_SHOPIFY_RUNS (default `shops,big`), with the scenario settings from the environment. */
export function shopifyRuns() {
  const runs = [];
  for (const name of (process.env.BENCH_SHOPIFY_RUNS ?? 'shops,big').split(',').map((s) => s.trim())) {
    if (name === 'shops') {
      runs.push({
        scenario: 'shops',
        shops: num('BENCH_SHOPIFY_SHOPS', 1000),
        products: num('BENCH_SHOPIFY_PRODUCTS', 10),
        alerting: num('BENCH_SHOPIFY_ALERTS', 100),
      });
    } else if (name === 'big') {
      for (const bucket of (process.env.BENCH_SHOPIFY_BIG_BUCKETS ?? 'standard,plus').split(',')) {
        if (!BUCKETS[bucket])
          throw new Error(`BENCH_SHOPIFY_BIG_BUCKETS: ${bucket} is not one of ${Object.keys(BUCKETS)}`);
        runs.push({
          scenario: 'big',
          products: num('BENCH_SHOPIFY_BIG_PRODUCTS', 5000),
          monitors: num('BENCH_SHOPIFY_BIG_MONITORS', 200),
          each: num('BENCH_SHOPIFY_BIG_EACH', 25),
          bucket,
        });
      }
    } else throw new Error(`BENCH_SHOPIFY_RUNS: ${name} is not shops or big`);
  }
  return runs;
}

const f0 = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–');
const f1 = (v) => (Number.isFinite(v) ? v.toFixed(1) : '–');
const f2 = (v) => (Number.isFinite(v) ? v.toFixed(2) : '–');
/** 1, 1.5, 20.25: per-interval counts without needless decimals. */
const fx = (v) => (Number.isFinite(v) ? String(Number(v.toFixed(2))) : '–');

export function printShopify(rows) {
  console.log('\n## Shopify service (one ROLE=all process with the sandbox, PostgreSQL)\n');
  console.log(
    '| scenario | monitors | window | checks/s | drift p50 / p99 / max | missed slots | GraphQL requests per shop per interval (mean / max) | query cost per shop per interval (mean / max) | throttled | Vigil warnings | server CPU / peak RSS | PostgreSQL CPU | machine busy |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const c = r.checks;
    const u = r.usage;
    const a = r.api.untouched;
    const t = r.api.touched;
    const warnings = Object.entries(r.warnings)
      .map(([msg, n]) => `${n}× ${msg}`)
      .join('; ');
    console.log(
      `| ${r.label} | ${r.monitors} | ${r.intervals} × 60 s | ${f1(c.checksPerS)} | ${f0(c.driftP50)} / ${f0(c.driftP99)} / ${f0(c.driftMax)} ms | ${c.missed} of ${c.expected}${c.duplicates ? ` (${c.duplicates} checked twice)` : ''}${c.unjudged ? ` (${c.unjudged} results "Not checked")` : ''} | ${f2(a.requests.mean)} / ${fx(a.requests.max)}${t ? ` (the ${t.shops} shops with a stock change: ${f2(t.requests.mean)} / ${fx(t.requests.max)})` : ''} | ${f0(a.cost.mean)} / ${f0(a.cost.max)}${t ? ` (${f0(t.cost.mean)} / ${f0(t.cost.max)})` : ''} | ${a.throttled + (t?.throttled ?? 0)} | ${warnings || 'none'} | ${f0(u.server?.cpuPct)} % / ${f0(u.server?.rssMiB)} MiB | ${f0(u.postgres?.cpuPct)} % | ${f0(u.machine.cpuPct)} % |`,
    );
  }
  const latency = rows.filter((r) => r.latency);
  if (latency.length) {
    console.log(
      '\n## Webhook → alert (stock set to 0 in the sandbox → the alert email at the SMTP server)\n',
    );
    console.log(
      '| load | stock changes (over) | incidents | emails (missing / duplicates / stray) | p50 | p99 | max | over 1 s | opened by the webhook re-check | → webhook recorded; → first check started; → incident opened; → sent_at (p50 / p99) |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const r of latency) {
      const l = r.latency;
      const pair = (s) => `${f0(s.p50)} / ${f0(s.p99)} ms`;
      console.log(
        `| ${r.label} | ${l.changes} (${f1(l.changedOverS)} s) | ${l.incidents} | ${l.emails} (${l.missing} / ${l.duplicates} / ${l.stray}) | ${f0(l.email.p50)} ms | ${f0(l.email.p99)} ms | ${f0(l.email.max)} ms | ${l.over1s} | ${l.byWebhook} | ${pair(l.webhook)}; ${pair(l.checked)}; ${pair(l.opened)}; ${pair(l.sent)} |`,
      );
    }
  }
  for (const r of latency) {
    const late = r.latency.slow.filter((s) => !s.byWebhook);
    const behind = r.latency.slow.filter((s) => s.byWebhook);
    const when = (list) =>
      list.length ? `changed ${f1(list[0].atS)}–${f1(list.at(-1).atS)} s into the window` : '';
    console.log(
      `\nOver 1 s: ${late.length} opened only at the next scheduled check, no re-check following the webhook (${when(late)}); ${behind.length} opened by the webhook re-check (${when(behind)}).`,
    );
  }
  for (const r of rows) {
    const other = r.incidents.filter((row) => row.condition_key !== 'product_out_of_stock' || !r.latency);
    if (other.length)
      console.log(
        `\n${r.label}, other incidents: ${other
          .map(
            (row) =>
              `${row.condition_key} ${row.n} (${row.before_window} opened before the window, ${row.resolved} resolved; e.g. "${row.example}")`,
          )
          .join(', ')}`,
      );
  }
}

/** `node bench/shopify.mjs`; the runs and settings come from the environment (see bench/README.md). */
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = [];
  for (const run of shopifyRuns()) {
    const row = await benchShopify(run);
    console.error(JSON.stringify(row));
    rows.push(row);
  }
  printShopify(rows);
  process.exit(0);
}
