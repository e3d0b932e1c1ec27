// Call-latency benchmark: incident opened → the Twilio stand-in receiving the alert call, under check load.
//
// The alerts benchmark's load (N website monitors at 60 s against bench/target-server.mjs, K `ROLE=worker`
// processes on a fresh PostgreSQL database) plus one `ROLE=api` process with the sandbox on. With no
// TWILIO_ACCOUNT_SID every process places its calls through that process's Twilio stand-in
// (`${PUBLIC_URL}/sandbox/twilio`), which also sends Twilio's status callbacks back to it. F more monitors at
// /down/<i>, confirmations 1, each with a call alert to its own verified number, on Business users of 100
// monitors each (under the plan's 500 calls a month). After the warm-up the target answers 503 under /down/,
// and the F monitors' slots, spread over BENCH_PHONE_SPREAD_S, open F incidents. Latency = the sandbox's
// `createdAt` of the call to the incident's number − the incident's `opened_at`: PostgreSQL's and Node's
// clocks, both this machine's. Calls ring 30 s unanswered and are retried 2 minutes later, so every call
// the sandbox lists before the end of the run is a first call: exactly one per incident is expected.
import pg from 'pg';
import { measure, seed } from './checks.mjs';
import {
  freshDatabase,
  num,
  sampler,
  sleep,
  spawnChild,
  spreadOf,
  startServer,
  stopChild,
  waitForTable,
  insertAlertingMonitor,
} from './lib.mjs';

const INTERVAL_MS = 60_000;
const MONITORS_PER_USER = 100;
// Not the checks (3390–3392) or API (3393) benchmarks' ports, so a run does not collide with theirs.
const TARGET_PORT = 3394;
const API_PORT = 3395;
const SANDBOX_SMTP_PORT = 3396;
const SANDBOX_STRIPE_PORT = 3397;
const POLL_MS = 1000;

/** One number per failing monitor: +1 415 555 0000 … 9999. */
const phoneOf = (i) => `+1415555${String(i).padStart(4, '0')}`;

/** The call monitors: `call-<i>` at /down/<i>, its slot at `slotOf(i)`, calling phoneOf(i), verified. */
async function seedCallMonitors(query, { failing, targetBase, slotOf }) {
  let userId;
  for (let i = 0; i < failing; i += 1) {
    if (i % MONITORS_PER_USER === 0) {
      const u = i / MONITORS_PER_USER;
      const user = await query(
        `insert into users (email, password_hash, monitor_key, plan, plan_expires_at)
         values ($1, null, $2, 'Business', 4102444800) returning id`,
        [`phone-${u}@bench.local`, `phone-key-${u}`],
      );
      userId = user.rows[0].id;
    }
    await insertAlertingMonitor(query, {
      userId,
      name: `call-${i}`,
      url: `${targetBase}/down/${i}`,
      channel: 'call',
      address: phoneOf(i),
      slotMs: slotOf(i),
    });
  }
}

async function getJson(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return (await response.json()).data;
}

/** Adds the sandbox's calls to `calls` (by SID): it keeps only its newest 200, so it is read every second. */
async function collectCalls(apiBase, calls) {
  const { list } = await getJson(`${apiBase}/sandbox/api/twilio/calls`);
  for (const call of list) calls.set(call.sid, { to: call.to, createdMs: Date.parse(call.createdAt) });
}

const sorted = (values) => values.filter(Number.isFinite).sort((a, b) => a - b);

export async function benchPhone({
  n = 10_000,
  workers = 2,
  failing = 200,
  warmMs = num('BENCH_WARM_S', 60) * 1000,
  spreadMs = num('BENCH_PHONE_SPREAD_S', 30) * 1000,
  tailMs = num('BENCH_PHONE_TAIL_S', 10) * 1000,
} = {}) {
  if (failing > 10_000) throw new Error('At most 10,000 failing monitors: one +1415555xxxx number each.');
  const targetBase = `http://127.0.0.1:${TARGET_PORT}`;
  const apiBase = `http://127.0.0.1:${API_PORT}`;
  const label = `postgres, N=${n}, ${workers} worker(s) + api, ${failing} call alerts`;
  console.error(
    `phone: ${label}, warm-up ${warmMs / 1000} s, spread ${spreadMs / 1000} s, tail ${tailMs / 1000} s`,
  );
  const target = spawnChild(
    ['bench/target-server.mjs', String(TARGET_PORT)],
    {},
    { readyLine: 'ready', name: 'target' },
  );
  await target.ready;
  const env = {
    SANDBOX: 'on',
    PUBLIC_URL: apiBase,
    SANDBOX_SMTP_PORT: String(SANDBOX_SMTP_PORT),
    SANDBOX_STRIPE_PORT: String(SANDBOX_STRIPE_PORT),
    SMTP_URL: `smtp://127.0.0.1:${SANDBOX_SMTP_PORT}`,
    ...(process.env.CHECK_CONCURRENCY ? { CHECK_CONCURRENCY: process.env.CHECK_CONCURRENCY } : {}),
    ...(process.env.CHECK_BATCH_SIZE ? { CHECK_BATCH_SIZE: process.env.CHECK_BATCH_SIZE } : {}),
  };
  const db = await freshDatabase('phone');
  const client = new pg.Client({ connectionString: db.url });
  const query = (text, params) => client.query(text, params);
  const children = [];
  let pgPoll;
  try {
    await client.connect();
    // The API process migrates and hosts the sandbox; the workers come once the schema is there.
    children.push(
      await startServer(
        { ...env, ROLE: 'api', DATABASE_URL: db.url, PORT: String(API_PORT), HOST: '127.0.0.1' },
        { port: API_PORT, name: 'api' },
      ),
    );
    await waitForTable(client, 'pgboss.job');
    for (let w = 0; w < workers; w += 1) {
      children.push(
        await startServer({ ...env, ROLE: 'worker', DATABASE_URL: db.url }, { name: `worker${w}` }),
      );
    }
    await sleep(3000);

    const firstSlotMs = Date.now() + 2000;
    const failAt = firstSlotMs + warmMs;
    // Monitor i fails at its slot 1 s + i·spread/F after failing starts; earlier slots of it (if the
    // warm-up is a minute or more) are checked while the target still answers 200.
    const minutesBefore = Math.floor((warmMs + 1000) / INTERVAL_MS);
    const slotOf = (i) => failAt + 1000 + (i * spreadMs) / failing - minutesBefore * INTERVAL_MS;
    const seeded = Date.now();
    await seed(query, { n, down: 0, targetBase, firstSlotMs });
    await seedCallMonitors(query, { failing, targetBase, slotOf });
    console.error(`seeded ${n + failing} monitors in ${Date.now() - seeded} ms`);

    const calls = new Map();
    await sleep(failAt - Date.now());
    await fetch(`${targetBase}/__fail`, { method: 'POST' });
    const workerPids = children.slice(1).map((child) => child.pid);
    // Only this run's backends and PostgreSQL's own background processes: others may share the server.
    let pgPids = [];
    const readPgPids = async () => {
      const { rows } = await query(`select pid from pg_stat_activity where datname = $1 or datname is null`, [
        db.name,
      ]);
      pgPids = rows.map((row) => row.pid);
    };
    await readPgPids();
    pgPoll = setInterval(() => void readPgPids().catch(() => {}), 1000);
    const sample = sampler(() => ({
      workers: workerPids,
      api: [children[0].pid],
      postgres: pgPids,
      target: [target.child.pid],
    }));
    const endMs = failAt + 1000 + spreadMs + tailMs;
    while (Date.now() < endMs) {
      await collectCalls(apiBase, calls);
      await sleep(Math.min(POLL_MS, endMs - Date.now()));
    }
    const usage = sample.stop();
    clearInterval(pgPoll);
    await collectCalls(apiBase, calls);
    const { requests } = await getJson(`${apiBase}/sandbox/api/twilio`);
    const load = await measure(query, { fromMs: failAt, toMs: endMs - 5000 });

    const { rows: incidents } = await query(
      `select m.name, (extract(epoch from i.opened_at) * 1000)::float8 as opened_ms, r.response_ms,
         -- a call that rang out was queued again for its retry: its queued_at is no longer the first
         (extract(epoch from case when d.status = 'sent' then d.queued_at end) * 1000)::float8 as queued_ms,
         (select extract(epoch from min(a.started_at)) * 1000 from delivery_attempts a
           where a.delivery_id = d.id)::float8 as started_ms,
         (extract(epoch from d.sent_at) * 1000)::float8 as sent_ms
       from incidents i join monitors m on m.id = i.monitor_id
       left join check_results r on r.monitor_id = m.id and r.checked_at = i.opened_at
       left join alert_deliveries d on d.incident_id = i.id and d.event = 'opened' and d.channel = 'call'
       where m.name like 'call-%'`,
    );
    const { rows: deliveries } = await query(
      `select d.channel, d.status, d.last_error, count(*)::int as n
       from alert_deliveries d join incidents i on i.id = d.incident_id join monitors m on m.id = i.monitor_id
       where m.name like 'call-%' group by 1, 2, 3 order by 4 desc`,
    );

    const callsTo = new Map();
    for (const call of calls.values()) {
      const list = callsTo.get(call.to) ?? [];
      list.push(call.createdMs);
      callsTo.set(call.to, list);
    }
    const latencies = [];
    const slow = []; // over DESIGN.md §5's p99 of 1 s, with when (s after failing started) they opened
    let missing = 0;
    let duplicates = 0;
    const numbers = new Set();
    for (const row of incidents) {
      const number = phoneOf(Number(row.name.slice('call-'.length)));
      numbers.add(number);
      const received = callsTo.get(number) ?? [];
      if (received.length === 0) missing += 1;
      duplicates += Math.max(0, received.length - 1);
      if (received.length) {
        const ms = Math.min(...received) - row.opened_ms;
        latencies.push(ms);
        if (ms > 1000) slow.push({ ms, openedS: (row.opened_ms - failAt) / 1000 });
      }
    }
    const stray = [...callsTo.keys()].filter((number) => !numbers.has(number)).length;
    const since = (key) => incidents.map((row) => (row[key] === null ? NaN : row[key] - row.opened_ms));
    const openedMs = sorted(incidents.map((row) => row.opened_ms));
    return {
      label,
      n,
      workers,
      failing,
      warmS: warmMs / 1000,
      spreadS: spreadMs / 1000,
      tailS: tailMs / 1000,
      incidents: incidents.length,
      incidentsOverS: (openedMs.at(-1) - openedMs[0]) / 1000,
      calls: calls.size,
      callRequests: requests.Calls,
      missing,
      duplicates,
      stray,
      call: spreadOf(latencies),
      slow: slow.sort((a, b) => a.openedS - b.openedS),
      checkMs: spreadOf(incidents.map((row) => row.response_ms ?? NaN)),
      queued: spreadOf(since('queued_ms')),
      pickedUp: spreadOf(since('started_ms')),
      sent: spreadOf(since('sent_ms')),
      deliveries,
      checksPerS: load.checkedInWindow / ((endMs - 5000 - failAt) / 1000),
      driftP99: load.p99,
      usage,
    };
  } finally {
    clearInterval(pgPoll);
    for (const child of children) await stopChild(child);
    await stopChild(target.child, 'SIGTERM');
    await client.end().catch(() => {});
    await db.drop();
  }
}

const f0 = (v) => (Number.isFinite(v) ? v.toFixed(0) : '–');
const trio = (s) => `${f0(s.p50)} / ${f0(s.p99)} / ${f0(s.max)} ms`;

export function printPhone(rows) {
  console.log('\n## Call latency (incident opened → the Twilio sandbox has the call request)\n');
  console.log(
    "| load | incidents (over) | calls (requests) | missing / duplicates / stray | p50 | p99 | max | over 1 s | failing check's time; opened → queued (calls not yet retried); → picked up; → sent_at (p50 / p99 / max) | checks/s, drift p99 | workers / api / PostgreSQL CPU | machine busy |",
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const u = r.usage;
    console.log(
      `| PostgreSQL, ${r.n} monitors, ${r.workers} workers + api | ${r.incidents} (${r.incidentsOverS.toFixed(1)} s) | ${r.calls} (${r.callRequests}) | ${r.missing} / ${r.duplicates} / ${r.stray} | ${f0(r.call.p50)} ms | ${f0(r.call.p99)} ms | ${f0(r.call.max)} ms | ${r.slow.length} | ${trio(r.checkMs)}; ${trio(r.queued)}; ${trio(r.pickedUp)}; ${trio(r.sent)} | ${f0(r.checksPerS)}, ${f0(r.driftP99)} ms | ${f0(u.workers?.cpuPct)} % / ${f0(u.api?.cpuPct)} % / ${f0(u.postgres?.cpuPct)} % | ${f0(u.machine.cpuPct)} % |`,
    );
    // A call that rang out unanswered (30 s) waits 2 minutes for its retry: 'pending' with that reason.
    for (const d of r.deliveries) {
      if (d.status !== 'sent')
        console.log(`\n${d.n} ${d.channel} deliveries ${d.status}: ${d.last_error ?? ''}`);
    }
  }
}

/** `node bench/phone.mjs [N] [workers] [failing]`; env BENCH_WARM_S, BENCH_PHONE_SPREAD_S, BENCH_PHONE_TAIL_S. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const [n = '10000', workers = '2', failing = '200'] = process.argv.slice(2);
  const row = await benchPhone({ n: Number(n), workers: Number(workers), failing: Number(failing) });
  console.error(JSON.stringify(row));
  printPhone([row]);
  process.exit(0);
}
