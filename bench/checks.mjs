// Scheduled-checks benchmark (and, with BENCH_DOWN > 0, the alert-latency benchmark under that load).
//
// Seeds N website monitors (one user, interval 60 s, only the http_status condition on, no alert channel)
// straight into a fresh database, their first slots spread evenly over one minute, all pointing at a local
// target server (bench/target-server.mjs, a separate process); starts K `ROLE=worker` processes on
// PostgreSQL (or one `ROLE=all` process on PGlite), lets them run a warm-up, then measures a window:
// checks/s, start drift (checked_at − slot_at) p50/p99/max for the slots in the window, missed slots
// (expected slots of every monitor in the window minus results), double checks (two target hits of one
// monitor < 30 s apart, and duplicate (monitor, slot) rows), CPU % (100 % = one core) and peak RSS of the
// workers, the PostgreSQL processes and the target server, and the whole machine's busy %.
//
// Alert latency: BENCH_DOWN monitors more, at /down/<i>, with confirmations 1 and email to a verified
// address each; at the start of the window the target server starts answering 503 under /down/, and the
// time from each incident's opened_at to the benchmark's SMTP server receiving its email is measured.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  startSmtp,
  freshDatabase,
  num,
  percentile,
  postgresPids,
  sampler,
  sleep,
  spawnChild,
  startServer,
  stopChild,
  waitForTable,
  CONDITIONS,
  NO_ALERTS,
  insertAlertingMonitor,
} from './lib.mjs';

const INTERVAL_MS = 60_000;

/** Inserts the user and the monitors with set-based SQL (generate_series), so 100k rows take seconds. */
export async function seed(query, { n, down, targetBase, firstSlotMs }) {
  // limits_plan: the plan's limits count as applied, or the minute's plan-limits sweep would pause every monitor
  // past Business's 500 (the benchmark measures the scheduler, not plans).
  const user = await query(
    `insert into users (email, password_hash, monitor_key, plan, plan_expires_at, limits_plan)
     values ('bench@bench.local', null, 'bench-key', 'Business', 4102444800, 'Business') returning id`,
  );
  const userId = user.rows[0].id;
  const batch = 20_000;
  for (let from = 0; from < n; from += batch) {
    const to = Math.min(n, from + batch) - 1;
    await query(
      `insert into monitors (user_id, name, service, target, conditions, interval_seconds,
         repeat_interval_minutes, confirmations, alert_settings, language_code, next_check_at, created_at, updated_at)
       select $1, 'm' || i, 'website', jsonb_build_object('url', $2 || '/m/' || i), $3::jsonb, 60, 0, 1,
         $4::jsonb, 'en-US', to_timestamp(($5::float8 + i * $6::float8) / 1000), now(), now()
       from generate_series($7::int, $8::int) as i`,
      [
        userId,
        targetBase,
        JSON.stringify(CONDITIONS),
        JSON.stringify(NO_ALERTS),
        firstSlotMs,
        INTERVAL_MS / n,
        from,
        to,
      ],
    );
  }
  for (let i = 0; i < down; i += 1) {
    await insertAlertingMonitor(query, {
      userId,
      name: `down-${i}`,
      url: `${targetBase}/down/${i}`,
      channel: 'email',
      address: `down-${i}@bench.local`,
      slotMs: firstSlotMs + (i * INTERVAL_MS) / Math.max(down, 1),
    });
  }
}

/** Slots of all monitors in [fromMs, toMs): monitor i's slots are firstSlot + i·60 s/n + k·60 s. */
function expectedSlots(n, firstSlotMs, fromMs, toMs) {
  let count = 0;
  for (let i = 0; i < n; i += 1) {
    const offset = firstSlotMs + (i * INTERVAL_MS) / n;
    const k0 = Math.max(0, Math.ceil((fromMs - offset) / INTERVAL_MS));
    const k1 = Math.ceil((toMs - offset) / INTERVAL_MS); // first k at or after toMs
    count += Math.max(0, k1 - k0);
  }
  return count;
}

export async function measure(query, { fromMs, toMs }) {
  const { rows } = await query(
    `select count(*)::int as results,
       count(distinct (monitor_id, slot_at))::int as distinct_slots,
       percentile_cont(0.5) within group (order by extract(epoch from checked_at - slot_at) * 1000) as p50,
       percentile_cont(0.99) within group (order by extract(epoch from checked_at - slot_at) * 1000) as p99,
       max(extract(epoch from checked_at - slot_at) * 1000)::float8 as max
     from check_results c join monitors m on m.id = c.monitor_id
     where m.name like 'm%' and slot_at >= to_timestamp($1::float8 / 1000) and slot_at < to_timestamp($2::float8 / 1000)`,
    [fromMs, toMs],
  );
  const done = await query(
    `select count(*)::int as n from check_results
     where checked_at >= to_timestamp($1::float8 / 1000) and checked_at < to_timestamp($2::float8 / 1000)`,
    [fromMs, toMs],
  );
  return { ...rows[0], checkedInWindow: done.rows[0].n };
}

export async function benchChecks({
  database = 'postgres',
  n = 10_000,
  workers = 1,
  down = 0,
  warmMs = num('BENCH_WARM_S', 60) * 1000,
  windowMs = num('BENCH_WINDOW_S', 120) * 1000,
  concurrency = process.env.CHECK_CONCURRENCY,
  batchSize = process.env.CHECK_BATCH_SIZE,
} = {}) {
  const targetPort = 3390;
  const smtpPort = 3391;
  const apiPort = 3392;
  const targetBase = `http://127.0.0.1:${targetPort}`;
  const target = spawnChild(
    ['bench/target-server.mjs', String(targetPort)],
    {},
    { readyLine: 'ready', name: 'target' },
  );
  await target.ready;
  const smtp = await startSmtp(smtpPort);
  const serverEnv = {
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    SANDBOX: 'off',
    PUBLIC_URL: 'http://127.0.0.1:3392',
    ...(concurrency ? { CHECK_CONCURRENCY: String(concurrency) } : {}),
    ...(batchSize ? { CHECK_BATCH_SIZE: String(batchSize) } : {}),
  };
  let cleanup = async () => {};
  let query;
  let workerChildren = [];
  let firstSlotMs;
  let dataDirOf;
  const label = `${database}, N=${n}, ${database === 'postgres' ? `${workers} worker(s)` : '1 process'}${down ? `, ${down} failing` : ''}`;
  console.error(`checks: ${label}, warm-up ${warmMs / 1000} s, window ${windowMs / 1000} s`);
  try {
    if (database === 'postgres') {
      const db = await freshDatabase('checks');
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      query = (text, params) => client.query(text, params);
      cleanup = async () => {
        await client.end();
        await db.drop();
      };
      for (let w = 0; w < workers; w += 1) {
        workerChildren.push(
          await startServer({ ...serverEnv, ROLE: 'worker', DATABASE_URL: db.url }, { name: `worker${w}` }),
        );
        if (w === 0) await waitForTable(client, 'monitors');
      }
      await waitForTable(client, 'pgboss.job');
      await sleep(2000);
      firstSlotMs = Date.now() + 2000;
      const seeded = Date.now();
      await seed(query, { n, down, targetBase, firstSlotMs });
      console.error(`seeded ${n + down} monitors in ${Date.now() - seeded} ms`);
    } else {
      const { PGlite } = await import('@electric-sql/pglite');
      const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-checks-'));
      dataDirOf = dataDir;
      const env = { ...serverEnv, ROLE: 'all', DATA_DIR: dataDir, PORT: String(apiPort) };
      cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
      const first = await startServer(env, { port: apiPort, name: 'pglite' });
      await stopChild(first);
      const lite = new PGlite(join(dataDir, 'pglite'));
      firstSlotMs = Date.now() + 12_000; // the warm start takes a few seconds
      await seed((text, params) => lite.query(text, params), { n, down, targetBase, firstSlotMs });
      await lite.close();
      workerChildren.push(await startServer(env, { port: apiPort, name: 'pglite' }));
      console.error(`seeded and restarted; first slot in ${firstSlotMs - Date.now()} ms`);
    }

    const fromMs = firstSlotMs + warmMs;
    const toMs = fromMs + windowMs;
    await sleep(fromMs - Date.now());
    if (down) await fetch(`${targetBase}/__fail`, { method: 'POST' });
    const pids = workerChildren.map((c) => c.pid);
    const sample = sampler(() => ({
      workers: pids,
      postgres: database === 'postgres' ? postgresPids() : [],
      target: [target.child.pid],
    }));
    await sleep(toMs - Date.now());
    const usage = sample.stop();
    await sleep(5000); // slots due just before the end get written
    const targetStats = await (await fetch(`${targetBase}/__stats?since=${fromMs}&until=${toMs}`)).json();
    for (const child of workerChildren) await stopChild(child);
    workerChildren = [];

    let closeLite = async () => {};
    if (database !== 'postgres') {
      const { PGlite } = await import('@electric-sql/pglite');
      const lite = new PGlite(join(dataDirOf, 'pglite'));
      query = (text, params) => lite.query(text, params);
      closeLite = () => lite.close();
    }
    const m = await measure(query, { fromMs, toMs });
    const expected = expectedSlots(n, firstSlotMs, fromMs, toMs);
    const result = {
      label,
      database,
      n,
      workers: database === 'postgres' ? workers : 1,
      warmS: warmMs / 1000,
      windowS: windowMs / 1000,
      checksPerS: m.checkedInWindow / (windowMs / 1000),
      expected,
      results: m.results,
      missed: expected - m.distinct_slots,
      duplicateRows: m.results - m.distinct_slots,
      doubleHits: targetStats.doubles,
      targetHits: targetStats.inWindow,
      driftP50: m.p50,
      driftP99: m.p99,
      driftMax: m.max,
      usage,
    };
    if (down) {
      const { rows } = await query(
        `select m.name, (extract(epoch from i.opened_at) * 1000)::float8 as opened_ms,
           (extract(epoch from d.sent_at) * 1000)::float8 as sent_ms, d.status
         from incidents i join monitors m on m.id = i.monitor_id
         left join alert_deliveries d on d.incident_id = i.id and d.event = 'opened'
         where m.name like 'down-%'`,
      );
      const latencies = [];
      const sentLatencies = [];
      for (const row of rows) {
        const at = smtp.received.get(`${row.name}@bench.local`)?.[0];
        if (at !== undefined) latencies.push(at - row.opened_ms);
        if (row.sent_ms) sentLatencies.push(row.sent_ms - row.opened_ms);
      }
      latencies.sort((a, b) => a - b);
      sentLatencies.sort((a, b) => a - b);
      result.alerts = {
        failing: down,
        incidents: rows.length,
        emails: latencies.length,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: latencies.at(-1),
        sentP50: percentile(sentLatencies, 50),
        sentP99: percentile(sentLatencies, 99),
      };
    }
    await closeLite();
    await cleanup();
    return result;
  } catch (error) {
    for (const child of workerChildren) await stopChild(child, 'SIGKILL');
    await cleanup();
    throw error;
  } finally {
    await stopChild(target.child, 'SIGTERM');
    smtp.server.close();
  }
}

const f0 = (v) => (Number.isFinite(v) ? v.toFixed(0) : '–');
export function printChecks(rows) {
  console.log('\n## Scheduled checks\n');
  console.log(
    '| database | N | workers | warm-up / window | checks/s | drift p50 | drift p99 | drift max | missed slots | double checks | workers CPU / RSS | PostgreSQL CPU | target CPU | machine busy |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const u = r.usage;
    console.log(
      `| ${r.database} | ${r.n} | ${r.workers} | ${r.warmS} s / ${r.windowS} s | ${r.checksPerS.toFixed(0)} | ${f0(r.driftP50)} ms | ${f0(r.driftP99)} ms | ${f0(r.driftMax)} ms | ${r.missed} of ${r.expected} | ${r.duplicateRows} rows, ${r.doubleHits} hits | ${f0(u.workers?.cpuPct)} % / ${f0(u.workers?.rssMiB)} MiB | ${f0(u.postgres?.cpuPct)} % | ${f0(u.target?.cpuPct)} % | ${f0(u.machine.cpuPct)} % |`,
    );
  }
  const alerts = rows.filter((r) => r.alerts);
  if (alerts.length) {
    console.log('\n## Alert latency (incident opened → SMTP server has the email)\n');
    console.log(
      '| load | failing monitors | incidents | emails | p50 | p99 | max | opened → sent_at p50 / p99 |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const r of alerts) {
      const a = r.alerts;
      console.log(
        `| ${r.database}, N=${r.n}, ${r.workers} worker(s) | ${a.failing} | ${a.incidents} | ${a.emails} | ${f0(a.p50)} ms | ${f0(a.p99)} ms | ${f0(a.max)} ms | ${f0(a.sentP50)} / ${f0(a.sentP99)} ms |`,
      );
    }
  }
}

/**
 * `node bench/checks.mjs [postgres|pglite] [N] [workers] [down]`; env BENCH_WARM_S, BENCH_WINDOW_S,
 * CHECK_CONCURRENCY, CHECK_BATCH_SIZE. Prints the JSON and the table row.
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  const [database = 'postgres', n = '10000', workers = '1', down = '0'] = process.argv.slice(2);
  const row = await benchChecks({ database, n: Number(n), workers: Number(workers), down: Number(down) });
  console.error(JSON.stringify(row));
  printChecks([row]);
  process.exit(0);
}
