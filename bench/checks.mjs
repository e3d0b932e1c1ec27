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
// Steady state (issue 14): unless BENCH_HISTORY_HOURS is 0, the database first holds what a running system keeps
// (bench/history.mjs: 48 h of one-minute results, their hourly roll-ups and the tallies), seeded after the first
// start made the partitions and before the workers run; the workers' own roll-up job (sent every 10 min by each
// engine, one run per 10-minute slot) rolls up and drops expired partitions during the run, and the result says
// whether a run and a drop fell in the window, and the CPU per check with and without the runs.
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
  postgresPidsByRole,
  sampler,
  sleep,
  spawnChild,
  startServer,
  stopChild,
  waitForTable,
  CONDITIONS,
  NO_ALERTS,
  insertAlertingMonitor,
  procStat,
} from './lib.mjs';
import { HOUR, RETENTION_HOURS, seedHistory } from './history.mjs';

const INTERVAL_MS = 60_000;
/**
 * The first of the three ports a run uses (target server, SMTP, API), 3390 unless BENCH_PORT_BASE says: two runs
 * side by side, e.g. two builds at once, meet the machine's changes of speed together.
 */
const PORT_BASE = num('BENCH_PORT_BASE', 3390);
/** Another build of the server to run (BENCH_SERVER, e.g. one kept from before a change, for alternating runs). */
const SERVER = process.env.BENCH_SERVER ? { script: process.env.BENCH_SERVER } : {};
/**
 * A folder for the CPU profile (BENCH_CPU_PROF, `--cpu-prof`; read it with bench/profile-top.mjs) of the first worker,
 * or of the embedded process on PGlite.
 */
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
const profiled = PROFILE_DIR ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] } : {};
/** How worker `w` is started: the build to run, and the profile of the first one when asked for. */
const workerStart = (w) => ({ ...SERVER, name: `worker${w}`, ...(w === 0 ? profiled : {}) });

/**
 * Inserts the user and the monitors with set-based SQL (generate_series), so 100k rows take seconds. Slots fall on
 * whole milliseconds, as the API and the engine place them (the engine reads a slot to the millisecond): spread
 * finer, a slot within half a millisecond of the window's end moved across it after its first check, and runs of
 * 200,000 monitors (0.3 ms apart) counted one slot missed that was checked.
 */
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
         $4::jsonb, 'en-US', to_timestamp(($5::float8 + floor(i * $6::float8)) / 1000), now(), now()
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
  return userId;
}

/**
 * Monitor-hours of history seeded at most per run (N × hours), so no run seeds more than the default 10,000-monitor
 * run: 10,000 × 48 h on PostgreSQL (28.8 M rows, a few GB with the key; 4 h at N = 100,000), 1,000 × 48 h on
 * PGlite (its single-threaded WASM engine writes far slower). A larger N gets fewer hours, whole ones.
 */
const HISTORY_BUDGET = { postgres: 10_000 * 48, pglite: 1_000 * 48 };
export function historyHoursFor(database, n, requested) {
  return Math.min(requested, Math.floor(HISTORY_BUDGET[database === 'postgres' ? 'postgres' : 'pglite'] / n));
}

const iso = (ms) => new Date(ms).toISOString();
/** The server's partition name (apps/server/src/engine/result-partitions.ts, partitionName). */
const partitionName = (ms) => {
  const at = iso(ms);
  return `check_results_p${at.slice(0, 4)}${at.slice(5, 7)}${at.slice(8, 10)}t${at.slice(11, 13)}`;
};

export async function listPartitions(query) {
  const { rows } = await query(
    `select name, (extract(epoch from from_at) * 1000)::float8 as from_ms, (extract(epoch from to_at) * 1000)::float8 as to_ms
     from check_result_partitions order by to_at`,
  );
  const { rows: attached } = await query(
    `select count(*)::int as n from pg_inherits where inhparent = 'check_results'::regclass`,
  );
  return { partitions: rows, attached: attached[0].n };
}

/**
 * Replaces the partitions the server made at start-up (6 h wide at the default retention, on UTC 0, 6, 12 and
 * 18 h) that begin less than 7 h past the retention cutoff with one-hour partitions from the cutoff on, before any
 * result is written. At 6 h the oldest partition is only dropped in the first roll-up run after 0, 6, 12 or 18 h
 * UTC; one-hour partitions expire at every whole hour, so a window holding a whole hour and the roll-up run after
 * it sees a real drop, whenever it runs. The partitions are made as the server makes them (a plain table LIKE
 * check_results, ATTACH, a row in check_result_partitions), and the server plans its next ones forward from them.
 */
async function hourlyOldestPartitions(query) {
  const cutoff = Math.floor((Date.now() - RETENTION_HOURS * HOUR) / HOUR) * HOUR;
  const { partitions } = await listPartitions(query);
  const old = partitions.filter((p) => p.from_ms !== null && p.from_ms < cutoff + 7 * HOUR);
  if (old.length === 0) return;
  const until = Math.max(...old.map((p) => p.to_ms));
  for (const p of old) {
    await query(`drop table ${p.name}`);
    await query(`delete from check_result_partitions where name = $1`, [p.name]);
  }
  for (let from = cutoff; from < until; from += HOUR) {
    const name = partitionName(from);
    await query(`create table ${name} (like check_results including defaults including constraints)`);
    await query(
      `alter table check_results attach partition ${name} for values from ('${iso(from)}') to ('${iso(from + HOUR)}')`,
    );
    await query(`insert into check_result_partitions (name, from_at, to_at) values ($1, $2, $3)`, [
      name,
      iso(from),
      iso(from + HOUR),
    ]);
  }
}

/** Waits until the server's start-up made the partitions of check results. */
async function waitForPartitions(query, timeoutMs = 60_000) {
  const started = Date.now();
  for (;;) {
    const { rows } = await query(`select to_regclass('check_result_partitions') is not null as there`);
    if (rows[0].there && (await listPartitions(query)).partitions.length > 0) return;
    if (Date.now() - started > timeoutMs) throw new Error('no partitions of check_results appeared');
    await sleep(200);
  }
}

/**
 * The history before the run: results, roll-ups and tallies of `hours` for every monitor (bench/history.mjs) in
 * the partitions made at start-up, then the monitors moved on as if they had been checked all along: their first
 * slots shifted to `firstSlotMs()` (asked after the seeding, however long it took) and their status `up`.
 */
async function prepareHistory(query, { userId, hours, provisionalFirstSlotMs, firstSlotMs }) {
  const started = Date.now();
  await hourlyOldestPartitions(query);
  // The rows are consistent by construction: skipping the foreign-key triggers (and waiting for no WAL flush)
  // makes the seeding several times quicker. Only this session's writes.
  await query(`set session_replication_role = replica`);
  await query(`set synchronous_commit = off`);
  await seedHistory(query, userId, { hours, progress: (message) => console.error(message) });
  await query(`reset session_replication_role`);
  await query(`reset synchronous_commit`);
  const first = firstSlotMs();
  await query(
    `update monitors set next_check_at = next_check_at + $1::float8 * interval '1 millisecond', status = 'up',
       last_checked_at = now(), last_response_ms = 42`,
    [first - provisionalFirstSlotMs],
  );
  const seconds = (Date.now() - started) / 1000;
  const { rows } = await query(`select pg_database_size(current_database())::float8 as bytes`);
  console.error(
    `history: ${hours} h seeded in ${seconds.toFixed(0)} s, database ${(rows[0].bytes / 2 ** 30).toFixed(2)} GiB`,
  );
  return { first, seconds };
}

/** The completed runs of the roll-up job (pg-boss's job table, and its archive). */
async function rollUpRuns(query) {
  const { rows: tables } = await query(
    `select to_regclass('pgboss.job') is not null as job, to_regclass('pgboss.archive') is not null as archive`,
  );
  if (!tables[0].job) return [];
  const select = (table) =>
    `select (extract(epoch from started_on) * 1000)::float8 as started_ms,
       (extract(epoch from completed_on) * 1000)::float8 as completed_ms
     from ${table} where name = 'roll-up-results' and state = 'completed'`;
  const { rows } = await query(
    `${select('pgboss.job')}${tables[0].archive ? ` union all ${select('pgboss.archive')}` : ''} order by 1`,
  );
  return rows.map((r) => ({ startedMs: r.started_ms, completedMs: r.completed_ms }));
}

/** The sampler's groups for PostgreSQL's processes by role (`postgres backend`, `postgres checkpointer`, …). */
function postgresRoles() {
  return Object.fromEntries(
    Object.entries(postgresPidsByRole()).map(([role, pids]) => [`postgres ${role}`, pids]),
  );
}

/**
 * The CPU seconds the workers and all PostgreSQL processes used in each second of a span: per process, the
 * change since the sample before; a process first seen after the first sample (a new backend) counts whole.
 */
function cpuTrace(pidsOf, everyMs = 1000) {
  const intervals = [];
  let before = null;
  let at = Date.now();
  const take = () => {
    const now = new Map(pidsOf().map((pid) => [pid, procStat(pid).cpu]));
    const t = Date.now();
    if (before) {
      let cpu = 0;
      for (const [pid, used] of now) cpu += Math.max(0, used - (before.get(pid) ?? 0));
      intervals.push({ fromMs: at, toMs: t, cpu });
    }
    before = now;
    at = t;
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      take();
      clearInterval(timer);
      return intervals;
    },
  };
}

/** Slots of all monitors in [fromMs, toMs): monitor i's slots are firstSlot + i·60 s/n + k·60 s. */
function expectedSlots(n, firstSlotMs, fromMs, toMs) {
  let count = 0;
  for (let i = 0; i < n; i += 1) {
    const offset = firstSlotMs + Math.floor(i * (INTERVAL_MS / n)); // as seed() places it
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

/** ROLL_UP_GRACE_MS (retention.ts): an hour is rolled up by the first roll-up run this long after it ends. */
const ROLL_UP_GRACE_MS = 15 * 60_000;
/** ROLL_UP_EVERY_SECONDS (check-engine.ts): one roll-up run per 10-minute slot. */
const ROLL_UP_EVERY_MS = 10 * 60_000;
/**
 * By this long after an hour, the runs have dropped the partition that expired at it (the first run after it) and
 * rolled the hour up (the first run ROLL_UP_GRACE_MS after it), with 2 min for that run itself.
 */
const RUN_AFTER_HOUR_MS = ROLL_UP_GRACE_MS + ROLL_UP_EVERY_MS + 2 * 60_000;

/**
 * The long mode's window: it starts at `earliestMs` or later, so that it holds a whole hour (when a one-hour
 * partition expires) and 27 min after it (the drop, then the roll-up of the hour that ended). For a 30-min window
 * that is at most 57 min later.
 */
function alignWindow(earliestMs, windowMs) {
  if (windowMs < RUN_AFTER_HOUR_MS + 60_000)
    return {
      fromMs: earliestMs,
      hourMs: null,
      note: `window shorter than ${(RUN_AFTER_HOUR_MS + 60_000) / 60_000} min: not aligned to an hour, the hour's roll-up and a partition drop in it are luck`,
    };
  const hourMs = Math.ceil((earliestMs + 30_000) / HOUR) * HOUR;
  return { fromMs: Math.max(earliestMs, hourMs - (windowMs - RUN_AFTER_HOUR_MS)), hourMs };
}

/**
 * What the background jobs did, read after the run: the roll-up job's completed runs that overlap the window
 * (pg-boss's job table), the partitions dropped since the workers started (check_result_partitions before and
 * after) with the run that dropped each (the first to start at or after its end + the retention, as its cutoff is
 * then past the partition), and the CPU per check of the workers and PostgreSQL over the whole window and over its
 * seconds in which no roll-up run was going (from 1 s before its start to 1 s after its end): CPU seconds of
 * those seconds ÷ the results checked in them.
 */
async function backgroundJobs(query, { fromMs, toMs, partitionsBefore, cpuIntervals }) {
  const runs = await rollUpRuns(query);
  const inWindow = runs.filter((r) => r.startedMs < toMs && r.completedMs > fromMs);
  const after = await listPartitions(query);
  const kept = new Set(after.partitions.map((p) => p.name));
  const dropped = partitionsBefore.partitions
    .filter((p) => !kept.has(p.name))
    .map((p) => {
      const run = runs.find((r) => r.startedMs >= p.to_ms + RETENTION_HOURS * HOUR);
      return { name: p.name, droppedMs: run?.startedMs ?? null };
    });
  const droppedInWindow = dropped.filter(
    (d) => d.droppedMs !== null && d.droppedMs >= fromMs && d.droppedMs < toMs,
  );

  const edges = [cpuIntervals[0].fromMs, ...cpuIntervals.map((i) => i.toMs)];
  const { rows } = await query(
    `select width_bucket(extract(epoch from checked_at) * 1000, $1::float8[]) as b, count(*)::int as n
     from check_results
     where checked_at >= to_timestamp($2::float8 / 1000) and checked_at < to_timestamp($3::float8 / 1000)
     group by 1`,
    [edges, edges[0], edges.at(-1)],
  );
  const checks = new Map(rows.map((r) => [Number(r.b) - 1, r.n]));
  const busy = (i) => runs.some((r) => i.fromMs < r.completedMs + 1000 && i.toMs > r.startedMs - 1000);
  const sum = { all: { cpu: 0, checks: 0, s: 0 }, quiet: { cpu: 0, checks: 0, s: 0 } };
  cpuIntervals.forEach((interval, index) => {
    for (const key of busy(interval) ? ['all'] : ['all', 'quiet']) {
      sum[key].cpu += interval.cpu;
      sum[key].checks += checks.get(index) ?? 0;
      sum[key].s += (interval.toMs - interval.fromMs) / 1000;
    }
  });
  const perCheck = (x) => (x.checks > 0 ? (x.cpu * 1000) / x.checks : NaN);
  return {
    rollUpRuns: runs.map((r) => ({
      started: iso(r.startedMs),
      seconds: (r.completedMs - r.startedMs) / 1000,
    })),
    rollUpsInWindow: inWindow.map((r) => ({
      started: iso(r.startedMs),
      seconds: (r.completedMs - r.startedMs) / 1000,
    })),
    partitionsBefore: partitionsBefore.partitions.length,
    partitionsAfter: after.partitions.length,
    attachedBefore: partitionsBefore.attached,
    attachedAfter: after.attached,
    dropped: dropped.map((d) => ({ name: d.name, dropped: d.droppedMs ? iso(d.droppedMs) : null })),
    droppedInWindow: droppedInWindow.map((d) => d.name),
    cpuPerCheckMs: perCheck(sum.all),
    cpuPerCheckQuietMs: perCheck(sum.quiet),
    quietS: sum.quiet.s,
    tracedS: sum.all.s,
  };
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
  historyHours = num('BENCH_HISTORY_HOURS', RETENTION_HOURS),
  alignToHour = false,
} = {}) {
  const requestedHistory = historyHours;
  historyHours = historyHoursFor(database, n, requestedHistory);
  const targetPort = PORT_BASE;
  const smtpPort = PORT_BASE + 1;
  const apiPort = PORT_BASE + 2;
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
    PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
    ...(concurrency ? { CHECK_CONCURRENCY: String(concurrency) } : {}),
    ...(batchSize ? { CHECK_BATCH_SIZE: String(batchSize) } : {}),
  };
  let cleanup = async () => {};
  let query;
  let workerChildren = [];
  let firstSlotMs;
  let dataDirOf;
  let history = { seconds: 0 };
  let partitionsBefore;
  const label = `${database}, N=${n}, ${database === 'postgres' ? `${workers} worker(s)` : '1 process'}${down ? `, ${down} failing` : ''}`;
  console.error(
    `checks: ${label}, history ${historyHours} h${historyHours < requestedHistory ? ` (capped from ${requestedHistory} h at this N)` : ''}, warm-up ${warmMs / 1000} s, window ${windowMs / 1000} s`,
  );
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
      const workerEnv = { ...serverEnv, ROLE: 'worker', DATABASE_URL: db.url };
      if (historyHours > 0) {
        // The first start migrates and makes the partitions; the history goes in while no worker runs.
        const first = await startServer(workerEnv, { ...SERVER, name: 'worker0' });
        await waitForTable(client, 'monitors');
        await waitForTable(client, 'pgboss.job');
        await waitForPartitions(query);
        await stopChild(first);
        const provisional = Date.now();
        const userId = await seed(query, { n, down, targetBase, firstSlotMs: provisional });
        history = await prepareHistory(query, {
          userId,
          hours: historyHours,
          provisionalFirstSlotMs: provisional,
          firstSlotMs: () => Date.now() + 8000, // the workers' warm start takes a few seconds
        });
        firstSlotMs = history.first;
        partitionsBefore = await listPartitions(query);
        for (let w = 0; w < workers; w += 1)
          workerChildren.push(await startServer(workerEnv, workerStart(w)));
      } else {
        for (let w = 0; w < workers; w += 1) {
          workerChildren.push(await startServer(workerEnv, workerStart(w)));
          if (w === 0) await waitForTable(client, 'monitors');
        }
        await waitForTable(client, 'pgboss.job');
        await sleep(2000);
        firstSlotMs = Date.now() + 2000;
        const seeded = Date.now();
        await seed(query, { n, down, targetBase, firstSlotMs });
        console.error(`seeded ${n + down} monitors in ${Date.now() - seeded} ms`);
        partitionsBefore = await listPartitions(query);
      }
    } else {
      const { PGlite } = await import('@electric-sql/pglite');
      const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-checks-'));
      dataDirOf = dataDir;
      const env = { ...serverEnv, ROLE: 'all', DATA_DIR: dataDir, PORT: String(apiPort) };
      cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
      const first = await startServer(env, { ...SERVER, port: apiPort, name: 'pglite' });
      await stopChild(first);
      const lite = new PGlite(join(dataDir, 'pglite'));
      const liteQuery = (text, params) => lite.query(text, params);
      firstSlotMs = Date.now() + 12_000; // the warm start takes a few seconds
      const userId = await seed(liteQuery, { n, down, targetBase, firstSlotMs });
      if (historyHours > 0) {
        history = await prepareHistory(liteQuery, {
          userId,
          hours: historyHours,
          provisionalFirstSlotMs: firstSlotMs,
          firstSlotMs: () => Date.now() + 12_000,
        });
        firstSlotMs = history.first;
      }
      partitionsBefore = await listPartitions(liteQuery);
      await lite.close();
      workerChildren.push(await startServer(env, { ...SERVER, ...profiled, port: apiPort, name: 'pglite' }));
      console.error(`seeded and restarted; first slot in ${firstSlotMs - Date.now()} ms`);
    }

    let fromMs = firstSlotMs + warmMs;
    let aligned = null;
    if (alignToHour) {
      aligned = alignWindow(fromMs, windowMs);
      if (aligned.fromMs !== fromMs)
        console.error(
          `warm-up extended by ${((aligned.fromMs - fromMs) / 1000).toFixed(0)} s: the window holds ${iso(aligned.hourMs).slice(11, 16)} UTC and ${((aligned.fromMs + windowMs - aligned.hourMs) / 60_000).toFixed(0)} min after it`,
        );
      if (aligned.note) console.error(aligned.note);
      fromMs = aligned.fromMs;
    }
    const toMs = fromMs + windowMs;
    await sleep(fromMs - Date.now());
    if (down) await fetch(`${targetBase}/__fail`, { method: 'POST' });
    const pids = workerChildren.map((c) => c.pid);
    const sample = sampler(() => {
      const roles = database === 'postgres' ? postgresRoles() : {};
      return { workers: pids, postgres: Object.values(roles).flat(), ...roles, target: [target.child.pid] };
    });
    const trace = cpuTrace(() => [...pids, ...(database === 'postgres' ? postgresPids() : [])]);
    const walBefore = database === 'postgres' ? await walSoFar(query) : null;
    await sleep(toMs - Date.now());
    const usage = sample.stop();
    const cpuIntervals = trace.stop();
    const walAfter = database === 'postgres' ? await walSoFar(query) : null;
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
    const jobs = await backgroundJobs(query, {
      fromMs,
      toMs,
      partitionsBefore,
      cpuIntervals,
    });
    const result = {
      label,
      database,
      n,
      workers: database === 'postgres' ? workers : 1,
      historyHours,
      historyRequested: requestedHistory,
      historySeedS: history.seconds,
      alignedTo: aligned?.hourMs ? iso(aligned.hourMs) : null,
      ...jobs,
      warmS: (fromMs - firstSlotMs) / 1000,
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
      wal: walBetween(walBefore, walAfter, m.checkedInWindow),
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

/**
 * PostgreSQL's WAL written so far and its checkpoints (the whole cluster's: the benchmark's database is the only
 * busy one), or null where the server has no such view. A check's WAL is mostly full-page images: the first change
 * to a page after a checkpoint logs the whole page.
 */
async function walSoFar(query) {
  try {
    const { rows } = await query(
      `select w.wal_bytes::float8 as bytes, w.wal_fpi::float8 as fpi,
         (b.checkpoints_timed + b.checkpoints_req)::int as checkpoints
       from pg_stat_wal w, pg_stat_bgwriter b`,
    );
    return rows[0];
  } catch {
    return null;
  }
}

function walBetween(before, after, checks) {
  if (!before || !after || checks === 0) return null;
  return {
    kBPerCheck: (after.bytes - before.bytes) / 1024 / checks,
    fpiPerCheck: (after.fpi - before.fpi) / checks,
    checkpoints: after.checkpoints - before.checkpoints,
  };
}

const f0 = (v) => (Number.isFinite(v) ? v.toFixed(0) : '–');
export function printChecks(rows) {
  console.log('\n## Scheduled checks\n');
  console.log(
    '| database | N | workers | history | warm-up / window | checks/s | drift p50 | drift p99 | drift max | missed slots | double checks | workers CPU / RSS | PostgreSQL CPU | target CPU | machine busy | roll-up run in window | partition dropped in window | WAL per check: kB, full-page images (checkpoints) | CPU per check (workers + PostgreSQL): window / without roll-up |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const f2 = (v) => (Number.isFinite(v) ? v.toFixed(2) : '–');
  for (const r of rows) {
    const u = r.usage;
    const runs = r.rollUpsInWindow.length
      ? `yes: ${r.rollUpsInWindow.map((x) => `${x.started.slice(11, 19)} (${x.seconds.toFixed(1)} s)`).join(', ')}`
      : 'no';
    const drops = r.droppedInWindow.length ? `yes: ${r.droppedInWindow.join(', ')}` : 'no';
    const history = `${r.historyHours} h${r.historyHours < r.historyRequested ? ` (capped)` : ''}`;
    const wal = r.wal ? `${f2(r.wal.kBPerCheck)} kB, ${f2(r.wal.fpiPerCheck)} (${r.wal.checkpoints})` : '–';
    console.log(
      `| ${r.database} | ${r.n} | ${r.workers} | ${history} | ${f0(r.warmS)} s / ${r.windowS} s | ${r.checksPerS.toFixed(0)} | ${f0(r.driftP50)} ms | ${f0(r.driftP99)} ms | ${f0(r.driftMax)} ms | ${r.missed} of ${r.expected} | ${r.duplicateRows} rows, ${r.doubleHits} hits | ${f0(u.workers?.cpuPct)} % / ${f0(u.workers?.rssMiB)} MiB | ${f0(u.postgres?.cpuPct)} %${u['postgres backend'] ? ` (backends ${f0(u['postgres backend'].cpuPct)} %)` : ''} | ${f0(u.target?.cpuPct)} % | ${f0(u.machine.cpuPct)} % | ${runs} | ${drops} | ${wal} | ${f2(r.cpuPerCheckMs)} ms / ${f2(r.cpuPerCheckQuietMs)} ms (${f0(r.quietS)} of ${f0(r.tracedS)} s) |`,
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
 * BENCH_HISTORY_HOURS, BENCH_SERVER, CHECK_CONCURRENCY, CHECK_BATCH_SIZE. Prints the JSON and the table row.
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  const [database = 'postgres', n = '10000', workers = '1', down = '0'] = process.argv.slice(2);
  const row = await benchChecks({ database, n: Number(n), workers: Number(workers), down: Number(down) });
  console.error(JSON.stringify(row));
  printChecks([row]);
  process.exit(0);
}
