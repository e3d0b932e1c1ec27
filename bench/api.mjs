// API benchmark with 100,000 monitors stored: GET /monitor-bff/monitor (a random page of 20 of the user's) and
// GET /monitor-bff/monitor-info (a random one of the user's monitors) at 100 keep-alive connections (req/s,
// p50/p99), and POST /monitor-bff/monitor one at a time (p50/p99). The server runs as `ROLE=api` on a fresh
// PostgreSQL database; the monitors are inserted directly across 200 Business-plan users (500 each, the plan's
// limit), the measured user's 500 with the history a running system keeps (see seedHistory). The load
// generator is this process (http-load.mjs; BENCH_API_CLIENT=node for node:http's keep-alive agent), on the same
// 2 cores as the server and PostgreSQL.
// Loopback only; every loop is bounded by count and time.
import http from 'node:http';
import pg from 'pg';
import {
  CONDITIONS,
  freshDatabase,
  NO_ALERTS,
  num,
  percentile,
  postgresPids,
  sampler,
  startServer,
  stopChild,
} from './lib.mjs';
import { seedHistory } from './history.mjs';
import { closedLoop } from './http-load.mjs';

const PORT = 3393;
const PASSWORD = 'Bench-Pass-2026!x';

const agent = new http.Agent({ keepAlive: true, maxSockets: 100 });

function request(method, path, { token, body } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port: PORT,
        method,
        path,
        agent,
        headers: {
          ...(token ? { authorization: token } : {}),
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

export async function register(email) {
  const res = await request('POST', '/oauth-bff/v1/user/register', { body: { email, password: PASSWORD } });
  if (res.status !== 200) throw new Error(`register ${res.status} ${res.body}`);
  return JSON.parse(res.body).data.token;
}

/** The longest range the monitor page shows (30 d), kept as hourly roll-ups. */
const HISTORY_HOURS = 30 * 24;

/**
 * `total` monitors across Business-plan users of 500 each (the plan's limit): the registered
 * reader@bench.local's first, with their history (seedHistory), then users made here. Returns the reader's ids.
 */
export async function seedMonitors(client, total) {
  const perUser = 500;
  const others = Math.ceil((total - perUser) / perUser);
  await client.query(
    `insert into users (email, monitor_key, plan, plan_expires_at)
     select 'user' || u || '@bench.local', 'bench-key-' || u, 'Business', 4102444800 from generate_series(1, $1::int) u`,
    [others],
  );
  const { rows: owners } = await client.query(
    `select id from users where email <> 'writer@bench.local' order by email = 'reader@bench.local' desc, email`,
  );
  let left = total;
  for (const owner of owners) {
    const count = Math.min(perUser, left);
    if (count <= 0) break;
    left -= count;
    await client.query(
      `insert into monitors (user_id, name, service, target, conditions, interval_seconds, repeat_interval_minutes,
         confirmations, alert_settings, language_code, status, next_check_at, last_checked_at, last_response_ms,
         created_at, updated_at)
       select $1, 'shop ' || i, 'website', jsonb_build_object('url', 'http://127.0.0.1:9/m/' || i), $2::jsonb, 60, 0, 1,
         $3::jsonb, 'en-US', 'up', now() + interval '1 day', now(), 42, now() - i * interval '1 second', now()
       from generate_series(1, $4::int) i`,
      [owner.id, JSON.stringify(CONDITIONS), JSON.stringify(NO_ALERTS), count],
    );
  }
  // The list's order table (monitor_order) only changes on insert and delete: autovacuum marks its pages all
  // visible after a burst of inserts like this one, and a page of the list is then read from its index alone.
  await client.query('vacuum analyze monitor_order');
  const readerId = owners[0].id;
  await seedHistory((text, params) => client.query(text, params), readerId, {
    olderRollupHours: HISTORY_HOURS,
  });
  const { rows: ids } = await client.query(`select id from monitors where user_id = $1`, [readerId]);
  const { rows: counted } = await client.query(`select count(*)::int as n from monitors`);
  return { ids, total: counted[0].n };
}

/**
 * The load generator: `raw` (http-load.mjs, the default) or `node` (node:http's keep-alive agent, as the benchmark
 * measured before 2026-11-27; it costs the shared cores two to three times as much a request).
 */
const CLIENT = process.env.BENCH_API_CLIENT ?? 'raw';

/** `connections` loops, each sending one request after another, for `durationMs` or `maxRequests` in all. */
export async function load(makePath, { token, connections = 100, durationMs, maxRequests = 500_000 }) {
  const { latencies, errors, seconds } =
    CLIENT === 'node'
      ? await nodeLoop(makePath, { token, connections, durationMs, maxRequests })
      : await closedLoop({
          port: PORT,
          makePath,
          headers: token ? { authorization: token } : {},
          connections,
          durationMs,
          maxRequests,
        });
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1),
  };
}

async function nodeLoop(makePath, { token, connections, durationMs, maxRequests }) {
  const latencies = [];
  let errors = 0;
  let sent = 0;
  const until = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until && sent < maxRequests) {
        sent += 1;
        const t0 = performance.now();
        try {
          const res = await request('GET', makePath(), { token });
          if (res.status !== 200) errors += 1;
        } catch {
          errors += 1;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}

export async function benchApi({
  total = num('BENCH_API_MONITORS', 100_000),
  durationMs = num('BENCH_API_S', 20) * 1000,
  creates = num('BENCH_API_CREATES', 300),
} = {}) {
  const db = await freshDatabase('api');
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  let server;
  try {
    server = await startServer(
      {
        ROLE: 'api',
        DATABASE_URL: db.url,
        PORT: String(PORT),
        SANDBOX: 'off',
        PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      },
      // e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where the API process spends its CPU.
      { port: PORT, name: 'api', nodeArgs: process.env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean) },
    );
    const reader = await register('reader@bench.local');
    const writer = await register('writer@bench.local');
    await client.query(`update users set plan = 'Business', plan_expires_at = 4102444800`);
    const seeded = Date.now();
    const { ids, total: stored } = await seedMonitors(client, total);
    console.error(`seeded ${stored} monitors in ${Date.now() - seeded} ms`);

    const pidsOf = () => ({ server: [server.pid], postgres: postgresPids(), bench: [process.pid] });
    const rows = [];
    for (const [name, makePath] of [
      [
        'GET /monitor-bff/monitor?page=N&pageSize=20',
        () => `/monitor-bff/monitor?page=${1 + Math.floor(Math.random() * (ids.length / 20))}&pageSize=20`,
      ],
      [
        'GET /monitor-bff/monitor-info',
        () => `/monitor-bff/monitor-info?monitorId=${ids[Math.floor(Math.random() * ids.length)].id}`,
      ],
    ]) {
      await load(makePath, { token: reader, durationMs: 3000 }); // warm-up
      const sample = sampler(pidsOf, 1000);
      const result = await load(makePath, { token: reader, durationMs });
      rows.push({ name, connections: 100, ...result, usage: sample.stop() });
    }

    const createLatencies = [];
    let createErrors = 0;
    const sample = sampler(pidsOf, 1000);
    for (let i = 0; i < creates; i += 1) {
      const t0 = performance.now();
      const res = await request('POST', '/monitor-bff/monitor', {
        token: writer,
        body: {
          name: `created ${i}`,
          service: 'website',
          target: { url: `http://127.0.0.1:9/created/${i}` },
          conditions: CONDITIONS,
          intervalSeconds: 60,
          repeatIntervalMinutes: 0,
          confirmations: 1,
          languageCode: 'en-US',
          ...NO_ALERTS,
        },
      });
      createLatencies.push(performance.now() - t0);
      if (res.status !== 200) {
        createErrors += 1;
        if (createErrors === 1) console.error(`create: ${res.status} ${res.body}`);
      }
    }
    createLatencies.sort((a, b) => a - b);
    rows.push({
      name: 'POST /monitor-bff/monitor',
      connections: 1,
      requests: creates,
      errors: createErrors,
      rps: NaN,
      p50: percentile(createLatencies, 50),
      p99: percentile(createLatencies, 99),
      max: createLatencies.at(-1),
      usage: sample.stop(),
    });
    return { total: stored, durationS: durationMs / 1000, rows };
  } finally {
    if (server) await stopChild(server);
    agent.destroy();
    await client.end();
    await db.drop();
  }
}

const f = (v, d = 0) => (Number.isFinite(v) ? v.toFixed(d) : '–');
export function printApi(result) {
  console.log(`\n## API (${result.total} monitors stored, ${result.durationS} s per endpoint)\n`);
  console.log(
    '| request | connections | requests | errors | req/s | p50 | p99 | max | server CPU | PostgreSQL CPU | load generator CPU | machine busy |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of result.rows) {
    const u = r.usage;
    console.log(
      `| ${r.name} | ${r.connections} | ${r.requests} | ${r.errors} | ${f(r.rps)} | ${f(r.p50, 1)} ms | ${f(r.p99, 1)} ms | ${f(r.max, 1)} ms | ${f(u.server?.cpuPct)} % | ${f(u.postgres?.cpuPct)} % | ${f(u.bench?.cpuPct)} % | ${f(u.machine.cpuPct)} % |`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchApi();
  console.error(JSON.stringify(result));
  printApi(result);
  process.exit(0);
}
