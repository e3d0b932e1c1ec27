// PostgreSQL-restart benchmark: the checks benchmark's load, with PostgreSQL stopped and started again mid-run.
//
// Makes a throwaway PostgreSQL cluster of its own (pg_createcluster, on BENCH_RESTART_PORT; the machine's main
// cluster is never touched), seeds N website monitors there as checks.mjs does (60 s, first slots spread over a
// minute, against bench/target-server.mjs) and starts K `ROLE=worker` processes on it. After the warm-up it
// measures a window; part way into it the cluster is stopped (`pg_ctlcluster … stop`, fast mode: every
// connection is cut), left down for BENCH_RESTART_DOWN_S and started again, while the workers keep running.
// Measured: when PostgreSQL accepts connections again; when the engine wrote its first result after that; when
// the job queue ran a job again (C canary monitors, inserted the moment PostgreSQL is back and due since the stop,
// answer 503, open an incident each, and their alert email reaches the benchmark's SMTP server through the
// deliver-alert job; and the first pg-boss job of each kind completed after the restart); slots checked twice (duplicate (monitor, slot)
// rows; target hits placed on their monitor's slot grid, more than one hit for one slot; and checks.mjs's two
// hits of one URL < 30 s apart); missed slots, split into those due while PostgreSQL was away (from the stop to
// back, ± BENCH_RESTART_MARGIN_S) and those due outside it (which must be 0); start drift; whether a worker
// exited, and what the workers logged.
import { execFile, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';
import { seed } from './checks.mjs';
import {
  insertAlertingMonitor,
  num,
  percentile,
  sampler,
  sleep,
  spawnChild,
  startServer,
  startSmtp,
  stopChild,
  waitForTable,
  watchLog,
} from './lib.mjs';

const run = promisify(execFile);
const INTERVAL_MS = 60_000;
// Not the other benchmarks' ports (3390–3397), so a run does not collide with theirs.
const TARGET_PORT = 3398;
const SMTP_PORT = 3399;
/** How long the benchmark waits for the engine and the job queue to come back before it calls them stuck. */
const RESUME_LIMIT_MS = 60_000;

/** The newest PostgreSQL installed (`/etc/postgresql/<version>`), unless BENCH_RESTART_PG_VERSION says. */
function postgresVersion() {
  if (process.env.BENCH_RESTART_PG_VERSION) return process.env.BENCH_RESTART_PG_VERSION;
  const versions = readdirSync('/etc/postgresql').filter((name) => /^\d+$/.test(name));
  if (versions.length === 0) throw new Error('No PostgreSQL in /etc/postgresql: install postgresql-common.');
  return versions.sort((a, b) => Number(b) - Number(a))[0];
}

/** `pg_lsclusters` as { version, name, port, dataDir }. */
async function clusters() {
  const { stdout } = await run('pg_lsclusters', ['--no-header']);
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [version, name, port, , , dataDir] = line.split(/\s+/);
      return { version, name, port: Number(port), dataDir };
    });
}

/**
 * A PostgreSQL cluster made for this run, owned by the postgres user, trusting loopback, with the main
 * cluster's settings that matter here (`listen_addresses`, `autovacuum = off`) and room for the connections.
 * A leftover of an interrupted run of the same name is dropped first; `drop()` removes it (also at exit).
 */
async function throwawayCluster({ version, name, port }) {
  if (name === 'main' || port === 5432)
    throw new Error('BENCH_RESTART_CLUSTER/PORT must not name the main cluster: this benchmark stops it.');
  if ((await clusters()).some((c) => c.version === version && c.name === name))
    await run('pg_dropcluster', ['--stop', version, name]);
  const taken = (await clusters()).find((c) => c.port === port);
  if (taken)
    throw new Error(
      `Port ${port} belongs to cluster ${taken.version}/${taken.name}: set BENCH_RESTART_PORT.`,
    );
  await run('pg_createcluster', [
    version,
    name,
    '-p',
    String(port),
    '--start-conf',
    'manual',
    '--',
    '--auth=trust',
  ]);
  writeFileSync(
    `/etc/postgresql/${version}/${name}/conf.d/90-bench.conf`,
    `listen_addresses = '127.0.0.1'\nmax_connections = 200\nautovacuum = off\n`,
  );
  const dataDir = (await clusters()).find((c) => c.version === version && c.name === name).dataDir;
  // Synchronous, so it also runs from the 'exit' handler when the run is interrupted.
  const dropNow = () => {
    try {
      execFileSync('pg_dropcluster', ['--stop', version, name], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  };
  process.on('exit', dropNow);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => run('pg_ctlcluster', [version, name, 'start']),
    stop: () => run('pg_ctlcluster', [version, name, 'stop', '-m', process.env.BENCH_RESTART_MODE ?? 'fast']),
    drop() {
      process.off('exit', dropNow);
      dropNow();
    },
    /** The postmaster and its children (backends, background workers) while it runs. */
    pids() {
      let postmaster;
      try {
        postmaster = Number(readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
      } catch {
        return [];
      }
      const pids = [postmaster];
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
          if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster)
            pids.push(Number(entry));
        } catch {
          // gone
        }
      }
      return pids;
    },
  };
}

/** Resolves with the time a new connection to `url` first succeeds, trying every 50 ms. */
async function firstConnection(url, timeoutMs = 60_000) {
  const started = Date.now();
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
      const at = Date.now();
      await client.end();
      return at;
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() - started > timeoutMs) throw new Error(`PostgreSQL not back after ${timeoutMs} ms`);
      await sleep(50);
    }
  }
}

async function connect(url) {
  const client = new pg.Client({ connectionString: url });
  // The benchmark ends its own connection before each stop; anything else is a failed run, said by the query.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

const spread = (values) => {
  const s = values.filter(Number.isFinite).sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s.at(-1) };
};

export async function benchRestart({
  n = num('BENCH_RESTART_MONITORS', 10_000),
  workers = num('BENCH_RESTART_WORKERS', 2),
  warmMs = num('BENCH_WARM_S', 60) * 1000,
  windowMs = num('BENCH_WINDOW_S', 120) * 1000,
  restartAtMs = num('BENCH_RESTART_AT_S', 30) * 1000,
  downMs = num('BENCH_RESTART_DOWN_S', 10) * 1000,
  marginMs = num('BENCH_RESTART_MARGIN_S', 5) * 1000,
  canaries = num('BENCH_RESTART_CANARIES', 20),
} = {}) {
  if (restartAtMs + downMs + RESUME_LIMIT_MS > windowMs)
    throw new Error(
      'BENCH_WINDOW_S must leave a minute after PostgreSQL is back (BENCH_RESTART_AT_S + DOWN_S + 60).',
    );
  const version = postgresVersion();
  const clusterName = process.env.BENCH_RESTART_CLUSTER ?? 'vigil_bench_restart';
  const port = num('BENCH_RESTART_PORT', 5433);
  const targetBase = `http://127.0.0.1:${TARGET_PORT}`;
  console.error(
    `restart: N=${n}, ${workers} worker(s), cluster ${version}/${clusterName} on ${port}, warm-up ${warmMs / 1000} s, ` +
      `window ${windowMs / 1000} s, stop at +${restartAtMs / 1000} s for ${downMs / 1000} s`,
  );
  const target = spawnChild(
    ['bench/target-server.mjs', String(TARGET_PORT)],
    {},
    { readyLine: 'ready', name: 'target' },
  );
  await target.ready;
  const smtp = await startSmtp(SMTP_PORT);
  const cluster = await throwawayCluster({ version, name: clusterName, port });
  const children = [];
  try {
    await cluster.start();
    const admin = await connect(cluster.url);
    await admin.query('create database vigil_bench_restart');
    await admin.end();
    const db = { url: cluster.url.replace(/\/postgres$/, '/vigil_bench_restart') };
    let client = await connect(db.url);
    const query = (text, params) => client.query(text, params);
    const serverEnv = {
      ROLE: 'worker',
      DATABASE_URL: db.url,
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      SANDBOX: 'off',
      PUBLIC_URL: 'http://127.0.0.1:3392',
      ...(process.env.CHECK_CONCURRENCY ? { CHECK_CONCURRENCY: process.env.CHECK_CONCURRENCY } : {}),
      ...(process.env.CHECK_BATCH_SIZE ? { CHECK_BATCH_SIZE: process.env.CHECK_BATCH_SIZE } : {}),
    };
    const exits = [];
    for (let w = 0; w < workers; w += 1) {
      const name = `worker${w}`;
      const child = await startServer(serverEnv, { name });
      child.on('exit', (code, signal) => exits.push({ name, code, signal, at: Date.now() }));
      children.push({ name, child, log: watchLog(child) });
      if (w === 0) await waitForTable(client, 'monitors');
    }
    await waitForTable(client, 'pgboss.job');
    await sleep(2000);
    const firstSlotMs = Date.now() + 2000;
    await seed(query, { n, down: 0, targetBase, firstSlotMs });
    const userId = (await query(`select id from users where email = 'bench@bench.local'`)).rows[0].id;
    // Only the canaries' paths fail (/down/), from the start: each opens one incident when it is first checked.
    await fetch(`${targetBase}/__fail`, { method: 'POST' });

    const fromMs = firstSlotMs + warmMs;
    const toMs = fromMs + windowMs;
    await sleep(fromMs - Date.now());
    const sample = sampler(() => ({
      workers: children.map((c) => c.child.pid),
      postgres: cluster.pids(),
      target: [target.child.pid],
    }));
    await sleep(fromMs + restartAtMs - Date.now());

    await client.end();
    const stopAt = Date.now();
    await cluster.stop();
    const stoppedAt = Date.now();
    await sleep(downMs);
    const startAt = Date.now();
    // pg_ctlcluster returns a while after the server is up: the outage ends at the first connection.
    const started = cluster.start();
    started.catch(() => undefined);
    const backAt = await firstConnection(db.url);
    client = await connect(db.url);
    console.error(
      `stopped ${stoppedAt - stopAt} ms after the stop, down until ${backAt - stopAt} ms after it`,
    );

    // The engine is back when a result of a check started after PostgreSQL came back is committed (watched on a
    // connection of its own while the canaries are inserted); the job queue when a canary's alert email, sent by
    // a deliver-alert job, reaches the SMTP server.
    const watcher = await connect(db.url);
    let firstResultAt = null;
    const engineBack = (async () => {
      while (firstResultAt === null && Date.now() - backAt < RESUME_LIMIT_MS) {
        const { rows } = await watcher.query(
          `select exists (select 1 from check_results where checked_at >= to_timestamp($1::float8 / 1000)) as any`,
          [backAt],
        );
        if (rows[0].any) firstResultAt = Date.now();
        else await sleep(50);
      }
    })();
    for (let i = 0; i < canaries; i += 1) {
      await insertAlertingMonitor(query, {
        userId,
        name: `canary-${i}`,
        url: `${targetBase}/down/canary-${i}`,
        channel: 'email',
        address: `canary-${i}@bench.local`,
        // Due when PostgreSQL went away, like the slots it missed: they are among the first checked.
        slotMs: stopAt,
      });
    }
    const canariesAt = Date.now();
    await engineBack;
    await watcher.end();
    let firstEmailAt = null;
    while (firstEmailAt === null && Date.now() - backAt < RESUME_LIMIT_MS) {
      const times = [...smtp.received.entries()]
        .filter(([address]) => address.startsWith('canary-'))
        .map(([, at]) => at[0]);
      if (times.length) firstEmailAt = Math.min(...times);
      else await sleep(50);
    }

    await started;
    await sleep(toMs - Date.now());
    const usage = sample.stop();
    await sleep(5000); // slots due just before the end get written
    const hits = await (await fetch(`${targetBase}/__hits`)).json();
    const stats = await (await fetch(`${targetBase}/__stats?since=${fromMs}&until=${toMs}`)).json();
    const exited = [...exits];
    const logged = Object.fromEntries(
      children.map(({ name, log }) => [
        name,
        {
          duringRestart: log.between(stopAt, backAt + 30_000),
          after: log.between(backAt + 30_000, toMs + 5000),
        },
      ]),
    );
    const examples = Object.fromEntries(children.map(({ name, log }) => [name, log.examples(stopAt, toMs)]));
    for (const { child } of children) await stopChild(child);
    children.length = 0;

    const result = {
      n,
      workers,
      warmS: warmMs / 1000,
      windowS: windowMs / 1000,
      version,
      // Outage: the stop issued → a new connection succeeds. `stoppedMs` is how long the fast stop took.
      stoppedMs: stoppedAt - stopAt,
      downMs: backAt - stopAt,
      startToBackMs: backAt - startAt,
      firstResultMs: firstResultAt === null ? null : firstResultAt - backAt,
      firstEmailMs: firstEmailAt === null ? null : firstEmailAt - backAt,
      canariesInsertedMs: canariesAt - backAt,
      exited,
      logged,
      examples,
      usage,
      marginS: marginMs / 1000,
      ...(await slotsOf(query, {
        n,
        firstSlotMs,
        fromMs,
        toMs,
        outage: [stopAt - marginMs, backAt + marginMs],
        hits,
      })),
      canaries: await canariesOf(query, { smtp, backAt, count: canaries }),
      jobs: await jobsAfter(query, { stopAt, backAt }),
      doubleHitsUnder30s: stats.doubles,
      firstCheckStartedMs: (
        await query(
          `select (extract(epoch from min(checked_at)) * 1000)::float8 - $1 as ms from check_results
           where checked_at >= to_timestamp($1::float8 / 1000)`,
          [backAt],
        )
      ).rows[0].ms,
      paused: (await query(`select count(*)::int as n from monitors where paused`)).rows[0].n,
    };
    await client.end();
    return result;
  } catch (error) {
    for (const { child } of children) await stopChild(child, 'SIGKILL');
    throw error;
  } finally {
    cluster.drop();
    await stopChild(target.child, 'SIGTERM');
    smtp.server.close();
  }
}

/**
 * Every slot of the seeded monitors due in [fromMs, toMs): monitor i's slots are firstSlot + i·60 s/n + k·60 s.
 * Each is missed (no result), checked (drift = checked_at − slot), and hit at the target once or more (a hit
 * belongs to the latest slot of its monitor at or before it: checks never start early, nor a minute late here).
 * Split by whether the slot was due in `outage`.
 */
async function slotsOf(query, { n, firstSlotMs, fromMs, toMs, outage, hits }) {
  const offsetOf = (i) => firstSlotMs + (i * INTERVAL_MS) / n;
  const { rows } = await query(
    `select substr(m.name, 2)::int as i, (extract(epoch from c.slot_at) * 1000)::float8 as slot_ms,
       (extract(epoch from c.checked_at) * 1000)::float8 as checked_ms
     from check_results c join monitors m on m.id = c.monitor_id
     where m.name ~ '^m[0-9]+$'
       and c.slot_at >= to_timestamp($1::float8 / 1000) and c.slot_at < to_timestamp($2::float8 / 1000)`,
    [fromMs, toMs],
  );
  const results = new Map();
  for (const row of rows) {
    const key = `${row.i}:${Math.round((row.slot_ms - offsetOf(row.i)) / INTERVAL_MS)}`;
    results.set(key, [...(results.get(key) ?? []), row.checked_ms - row.slot_ms]);
  }
  const hitsPerSlot = new Map();
  for (const [path, times] of Object.entries(hits)) {
    const match = /^\/m\/(\d+)$/.exec(path);
    if (!match) continue;
    const i = Number(match[1]);
    for (const t of times) {
      const k = Math.floor((t - offsetOf(i)) / INTERVAL_MS);
      const key = `${i}:${k}`;
      hitsPerSlot.set(key, (hitsPerSlot.get(key) ?? 0) + 1);
    }
  }
  const empty = () => ({ slots: 0, missed: 0, checkedTwice: 0, hitTwice: 0, drift: [], lateOver1s: 0 });
  const inside = empty();
  const outside = empty();
  let lastLateAfterBack = null;
  for (let i = 0; i < n; i += 1) {
    const offset = offsetOf(i);
    const k0 = Math.max(0, Math.ceil((fromMs - offset) / INTERVAL_MS));
    const k1 = Math.ceil((toMs - offset) / INTERVAL_MS);
    for (let k = k0; k < k1; k += 1) {
      const due = offset + k * INTERVAL_MS;
      const group = due >= outage[0] && due <= outage[1] ? inside : outside;
      group.slots += 1;
      const drifts = results.get(`${i}:${k}`);
      if (!drifts) group.missed += 1;
      else {
        if (drifts.length > 1) group.checkedTwice += drifts.length - 1;
        group.drift.push(drifts[0]);
        if (drifts[0] > 1000) {
          group.lateOver1s += 1;
          if (due > outage[1]) lastLateAfterBack = Math.max(lastLateAfterBack ?? 0, due - outage[1]);
        }
      }
      if ((hitsPerSlot.get(`${i}:${k}`) ?? 0) > 1) group.hitTwice += 1;
    }
  }
  const summary = (group) => ({ ...group, drift: spread(group.drift) });
  return {
    duplicateRows: rows.length - results.size,
    insideOutage: summary(inside),
    outsideOutage: summary(outside),
    // The last slot due after the outage window (+ margin) that was checked over 1 s late, in ms after it.
    lastLateAfterBackMs: lastLateAfterBack,
  };
}

/** The canaries' incidents and alert emails: opened after PostgreSQL was back → SMTP, and → `sent_at`. */
async function canariesOf(query, { smtp, backAt, count }) {
  const { rows } = await query(
    `select m.name, (extract(epoch from i.opened_at) * 1000)::float8 as opened_ms,
       (extract(epoch from d.queued_at) * 1000)::float8 as queued_ms,
       (extract(epoch from d.sent_at) * 1000)::float8 as sent_ms
     from monitors m left join incidents i on i.monitor_id = m.id
     left join alert_deliveries d on d.incident_id = i.id and d.event = 'opened'
     where m.name like 'canary-%'`,
  );
  // The deliver-alert jobs of the canaries' deliveries: the only ones of the run (no other monitor fails).
  const { rows: jobs } = await query(
    `select (extract(epoch from created_on) * 1000)::float8 as created_ms,
       (extract(epoch from started_on) * 1000)::float8 as started_ms,
       (extract(epoch from completed_on) * 1000)::float8 as completed_ms
     from pgboss.job where name = 'deliver-alert'`,
  );
  const emails = rows.map((row) => smtp.received.get(`${row.name}@bench.local`) ?? []);
  return {
    count,
    incidents: rows.filter((row) => row.opened_ms !== null).length,
    emails: emails.filter((at) => at.length > 0).length,
    duplicateEmails: emails.reduce((sum, at) => sum + Math.max(0, at.length - 1), 0),
    openedAfterBack: spread(rows.map((row) => row.opened_ms - backAt)),
    emailAfterBack: spread(emails.map((at) => at[0] - backAt)),
    emailAfterOpened: spread(rows.map((row, index) => emails[index][0] - row.opened_ms)),
    // opened → handed to pg-boss (`queued_at`, unless re-queued since) → job started → job completed.
    queuedAfterOpened: spread(rows.map((row) => row.queued_ms - row.opened_ms)),
    jobStartedAfterCreated: spread(jobs.map((job) => job.started_ms - job.created_ms)),
    jobRan: spread(jobs.map((job) => job.completed_ms - job.started_ms)),
  };
}

/** pg-boss across the restart: the first job of each kind completed after it, and jobs left unfinished. */
async function jobsAfter(query, { stopAt, backAt }) {
  const { rows: first } = await query(
    `select name, (extract(epoch from min(completed_on)) * 1000)::float8 - $1 as after_back_ms
     from pgboss.job where completed_on >= to_timestamp($1::float8 / 1000) and state = 'completed'
     group by name order by 2`,
    [backAt],
  );
  const { rows: states } = await query(
    `select name, state::text, count(*)::int as n from pgboss.job
     where created_on >= to_timestamp($1::float8 / 1000) - interval '2 minutes' group by 1, 2 order by 1, 2`,
    [stopAt],
  );
  return { firstCompleted: first, states };
}

const f0 = (v) => (Number.isFinite(v) ? v.toFixed(0) : '–');
const s1 = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '–');
export function printRestart(r) {
  console.log('\n## PostgreSQL restarted under load\n');
  console.log(
    '| N | workers | down (stop → back) | first result after back | first alert email after back | duplicate rows | slots hit twice (in / out of outage) | hits < 30 s apart | missed in outage | missed outside | workers exited |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  const a = r.insideOutage;
  const b = r.outsideOutage;
  console.log(
    `| ${r.n} | ${r.workers} | ${s1(r.downMs)} | ${s1(r.firstResultMs)} | ${s1(r.firstEmailMs)} | ${r.duplicateRows} | ${a.hitTwice} / ${b.hitTwice} | ${r.doubleHitsUnder30s} | ${a.missed} of ${a.slots} | ${b.missed} of ${b.slots} | ${r.exited.length} |`,
  );
  console.log(
    `\nDrift in the outage (± ${r.marginS} s): p50 ${f0(a.drift.p50)} ms, max ${f0(a.drift.max)} ms; outside: p50 ${f0(b.drift.p50)} ms, p99 ${f0(b.drift.p99)} ms, max ${f0(b.drift.max)} ms (${b.lateOver1s} over 1 s, the last due ${s1(r.lastLateAfterBackMs)} after the window).`,
  );
  const c = r.canaries;
  console.log(
    `Canaries: ${c.incidents} incidents, ${c.emails} of ${c.count} emails (${c.duplicateEmails} repeated); opened after back p50 ${s1(c.openedAfterBack.p50)}, email after back p50 ${s1(c.emailAfterBack.p50)} / max ${s1(c.emailAfterBack.max)}; opened → email p50 ${f0(c.emailAfterOpened.p50)} ms, max ${f0(c.emailAfterOpened.max)} ms (opened → queued p50 ${f0(c.queuedAfterOpened.p50)} ms, job created → started p50 ${f0(c.jobStartedAfterCreated.p50)} ms, started → completed p50 ${f0(c.jobRan.p50)} ms).`,
  );
  console.log(
    `First pg-boss job completed after back: ${r.jobs.firstCompleted.map((j) => `${j.name} ${s1(j.after_back_ms)}`).join(', ') || 'none'}.`,
  );
  const u = r.usage;
  console.log(
    `Over the window: workers ${f0(u.workers?.cpuPct)} % CPU / ${f0(u.workers?.rssMiB)} MiB, PostgreSQL ${f0(u.postgres?.cpuPct)} %, target ${f0(u.target?.cpuPct)} %, machine busy ${f0(u.machine.cpuPct)} %; monitors paused ${r.paused}.`,
  );
  for (const [name, log] of Object.entries(r.logged))
    console.log(
      `${name} logged during the restart: ${JSON.stringify(log.duringRestart)}; after: ${JSON.stringify(log.after)}`,
    );
  if (r.exited.length) console.log(`Exited: ${JSON.stringify(r.exited)}`);
}

/** `node bench/restart.mjs [N] [workers]`, with the BENCH_RESTART_* variables. Prints the JSON and the figures. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const [n = '10000', workers = '2'] = process.argv.slice(2);
  const row = await benchRestart({ n: Number(n), workers: Number(workers) });
  console.error(JSON.stringify(row));
  printRestart(row);
  process.exit(0);
}
