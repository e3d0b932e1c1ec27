// Helpers shared by the long benchmarks: child processes, databases, /proc sampling, the SMTP stub, check results.
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const num = (name, fallback) => Number(process.env[name] ?? fallback);
/** Benchmark runs written `database:N:workers[:failing]`, comma-separated. */
export const plan = (value) =>
  value.split(',').map((run) => {
    const [database, n, workers = '1', down = '0'] = run.trim().split(':');
    return { database, n: Number(n), workers: Number(workers), down: Number(down) };
  });

/** The benchmarks' website monitors: only the HTTP status judged, no alert channel ticked. */
export const CONDITIONS = {
  http_status: { enabled: true },
  timeout: { enabled: false, timeoutMs: 10_000 },
  keyword: { enabled: false, keyword: '', mode: 'missing' },
  slow_response: { enabled: false, thresholdMs: 3000 },
  tls_expiry: { enabled: false, days: 14 },
  password_page: { enabled: false },
};
const unchecked = { checked: false, name: '', isAgree: false };
export const NO_ALERTS = {
  callSettings: { ...unchecked, phone: '' },
  smsSettings: { ...unchecked, phone: '' },
  emailSettings: { ...unchecked, email: '' },
};

const children = new Set();
function killAll() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
}
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });

/** Spawns a child that dies with this process; resolves once `ready` (a predicate on stdout) is true. */
export function spawnChild(args, env, { readyLine, name = 'child' } = {}) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let buffer = '';
  child.stderr.on('data', (chunk) => process.stderr.write(`[${name}] ${chunk}`));
  const ready = new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
    child.stdout.on('data', (chunk) => {
      buffer = (buffer + chunk).slice(-4096);
      if (process.env.BENCH_VERBOSE) process.stdout.write(`[${name}] ${chunk}`);
      if (readyLine && buffer.includes(readyLine)) resolve();
    });
    if (!readyLine) resolve();
  });
  ready.catch(() => {});
  return { child, ready };
}

export async function stopChild(child, signal = 'SIGINT', graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the built server; resolves once /healthz answers (or, for ROLE=worker, once it logged its start).
 * `nodeArgs` go before the script (e.g. `--cpu-prof`, which NODE_OPTIONS does not accept); `script` is another
 * build of the server to run (bench/idle.mjs compares one kept from before a change).
 */
export async function startServer(
  env,
  { port, name = 'server', nodeArgs = [], script = 'apps/server/dist/main.js' } = {},
) {
  const { child } = spawnChild([...nodeArgs, script], { LOG_LEVEL: 'warn', ...env }, { name });
  const started = Date.now();
  if (port) {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
      if (Date.now() - started > 60_000) throw new Error(`${name} not ready after 60 s`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
  }
  return child;
}

/** A fresh PostgreSQL database for one run; `drop()` removes it. */
export async function freshDatabase(tag) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const name = `vigil_bench_${tag}_${process.pid}`;
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** Waits until a table exists (the server ran its migrations). */
export async function waitForTable(client, table, timeoutMs = 60_000) {
  const started = Date.now();
  for (;;) {
    const { rows } = await client.query(`select to_regclass($1) as t`, [table]);
    if (rows[0].t) return;
    if (Date.now() - started > timeoutMs) throw new Error(`${table} never appeared`);
    await sleep(200);
  }
}

const TICK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU seconds (user + system) a process has used, and its resident memory in MiB. */
export function procStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpu = (Number(fields[11]) + Number(fields[12])) / TICK;
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    return { cpu, rss };
  } catch {
    return { cpu: 0, rss: 0 };
  }
}

/** Pids of every process named `postgres` (the server and its backends). */
export function postgresPids() {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

/**
 * The pids of `postgresPids()` grouped by what each process is, read from its title: `backend` (a
 * client's connection), the background process's name (`checkpointer`, `walwriter`, …) or `postmaster`.
 */
export function postgresPidsByRole() {
  const byRole = {};
  for (const pid of postgresPids()) {
    let title = '';
    try {
      title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      continue; // gone
    }
    const rest = /^postgres: (?:[^:\s]+: )?(.*)$/.exec(title)?.[1]; // `cluster_name: ` when it is set
    const background =
      rest &&
      /^(checkpointer|background writer|walwriter|autovacuum \w+|logical replication \w+|archiver)/.exec(
        rest,
      );
    const role = rest === undefined ? 'postmaster' : background ? background[1] : 'backend';
    (byRole[role] ??= []).push(pid);
  }
  return byRole;
}

/** Whole-machine busy CPU seconds (all cores) from /proc/stat. */
export function machineBusy() {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  const idle = line[3] + line[4];
  const total = line.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / TICK, total: total / TICK };
}

/**
 * Samples CPU and memory of named groups of processes every `everyMs`. `groups()` returns
 * `{ name: [pid, …] }` (called at each sample, so backends that come and go are counted).
 * `stop()` returns per group: average CPU % (of one core) over the span and the highest RSS seen (sum).
 */
export function sampler(groups, everyMs = 2000) {
  const first = new Map();
  const last = new Map();
  const peakRss = {};
  const startedAt = Date.now();
  const machine0 = machineBusy();
  const take = () => {
    for (const [group, pids] of Object.entries(groups())) {
      let rss = 0;
      for (const pid of pids) {
        const s = procStat(pid);
        const key = `${group}:${pid}`;
        if (!first.has(key)) first.set(key, s.cpu);
        last.set(key, s.cpu);
        rss += s.rss;
      }
      peakRss[group] = Math.max(peakRss[group] ?? 0, rss);
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      take();
      clearInterval(timer);
      const seconds = (Date.now() - startedAt) / 1000;
      const out = {};
      for (const [key, cpu0] of first) {
        const group = key.slice(0, key.indexOf(':'));
        out[group] ??= { cpuPct: 0, rssMiB: peakRss[group] };
        out[group].cpuPct += ((last.get(key) - cpu0) / seconds) * 100;
      }
      const machine1 = machineBusy();
      out.machine = {
        cpuPct: ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * 100,
        rssMiB: 0,
      };
      return out;
    },
  };
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * A monitor at `url` (60 s, confirmations 1, first slot at `slotMs`) whose one alert channel goes to a
 * contact inserted as verified: `channel` 'email' alerts `address` by email, 'call' rings it.
 */
export async function insertAlertingMonitor(query, { userId, name, url, channel, address, slotMs }) {
  await query(
    `insert into verified_contacts (user_id, channel, address, verified_at) values ($1, $2, $3, now())`,
    [userId, channel === 'email' ? 'email' : 'phone', address],
  );
  const group =
    channel === 'email'
      ? { emailSettings: { checked: true, name: 'Bench', isAgree: true, email: address } }
      : { callSettings: { checked: true, name: 'Bench', isAgree: true, phone: address } };
  await query(
    `insert into monitors (user_id, name, service, target, conditions, interval_seconds,
       repeat_interval_minutes, confirmations, alert_settings, language_code, next_check_at, created_at, updated_at)
     values ($1, $2, 'website', $3::jsonb, $4::jsonb, 60, 0, 1, $5::jsonb, 'en-US', to_timestamp($6::float8 / 1000), now(), now())`,
    [
      userId,
      name,
      JSON.stringify({ url }),
      JSON.stringify(CONDITIONS),
      JSON.stringify({ ...NO_ALERTS, ...group }),
      slotMs,
    ],
  );
}

/**
 * The benchmark's SMTP server (SMTP_URL of the processes it runs) on 127.0.0.1:`port`: every message's arrival
 * time (ms), by lower-cased recipient, in order.
 */
export function startSmtp(port) {
  const received = new Map();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const at = Date.now();
      stream.on('data', () => {});
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo) {
          const address = rcpt.address.toLowerCase();
          received.set(address, [...(received.get(address) ?? []), at]);
        }
        callback();
      });
    },
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, received })));
}

/** Runs `work` over `items` with at most `limit` at once. */
export async function pool(items, limit, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index], index);
      }
    }),
  );
}

/** Count, p50, p99, max and mean of the finite values. */
export function spreadOf(values) {
  const s = values.filter(Number.isFinite).sort((a, b) => a - b);
  return {
    n: s.length,
    p50: percentile(s, 50),
    p99: percentile(s, 99),
    max: s.at(-1),
    mean: s.reduce((a, b) => a + b, 0) / Math.max(s.length, 1),
  };
}

/** Counts a server's warnings and errors (pino JSON lines on stdout) by message, with when they came. */
export function watchLog(child) {
  const lines = [];
  let partial = '';
  child.stdout.on('data', (chunk) => {
    const text = partial + chunk;
    const parts = text.split('\n');
    partial = parts.pop();
    for (const line of parts) {
      try {
        const entry = JSON.parse(line);
        if (entry.level >= 40)
          lines.push({ at: Date.now(), level: entry.level, msg: String(entry.msg), entry });
      } catch {
        if (line.trim()) lines.push({ at: Date.now(), level: 0, msg: line.slice(0, 200) });
      }
    }
  });
  return {
    between(fromMs, toMs) {
      const counts = {};
      for (const entry of lines)
        if (entry.at >= fromMs && entry.at < toMs) counts[entry.msg] = (counts[entry.msg] ?? 0) + 1;
      return counts;
    },
    /** The first whole line of each message in the span, to quote in a report. */
    examples(fromMs, toMs) {
      const first = {};
      for (const entry of lines)
        if (entry.at >= fromMs && entry.at < toMs && !(entry.msg in first)) first[entry.msg] = entry.entry;
      return first;
    },
  };
}

/**
 * The check results of the window [fromMs, toMs), whole intervals of `intervalMs`: checks/s, start drift
 * (`checked_at − slot_at`) of its slots, slots checked twice, results that failed or could not judge every
 * condition ("Not checked: why"), and missed slots. A monitor's interval counts as missed when no slot of it in
 * that interval was checked: slots sit on each group's own grid (offset within the interval by a hash of the
 * group), and a re-check stands in for the slot it moved. With `service`, only that service's monitors count.
 */
export async function measureChecks(query, { fromMs, toMs, intervalMs, monitors, service = null }) {
  const ofService = `($3::text is null or monitor_id in (select id from monitors where service = $3))`;
  const { rows } = await query(
    `select count(*)::int as results, count(distinct (monitor_id, slot_at))::int as distinct_slots,
       percentile_cont(0.5) within group (order by extract(epoch from checked_at - slot_at) * 1000) as p50,
       percentile_cont(0.99) within group (order by extract(epoch from checked_at - slot_at) * 1000) as p99,
       max(extract(epoch from checked_at - slot_at) * 1000)::float8 as max
     from check_results
     where slot_at >= to_timestamp($1::float8 / 1000) and slot_at < to_timestamp($2::float8 / 1000)
       and ${ofService}`,
    [fromMs, toMs, service],
  );
  const { rows: all } = await query(
    `select count(*)::int as n, count(*) filter (where not ok)::int as failed,
       count(*) filter (where error like 'Not checked:%')::int as unjudged
     from check_results
     where checked_at >= to_timestamp($1::float8 / 1000) and checked_at < to_timestamp($2::float8 / 1000)
       and ${ofService}`,
    [fromMs, toMs, service],
  );
  const intervals = Math.round((toMs - fromMs) / intervalMs);
  const { rows: gaps } = await query(
    `with slots as (
       select m.id, to_timestamp(($1::float8 + k * $2) / 1000) as s
       from monitors m cross join generate_series(0, $3::int - 1) k
       where $4::text is null or m.service = $4)
     select count(*) filter (where not exists (select 1 from check_results r
         where r.monitor_id = slots.id and r.slot_at >= slots.s
           and r.slot_at < slots.s + $2 * interval '1 millisecond'))::int as missed
     from slots`,
    [fromMs, intervalMs, intervals, service],
  );
  return {
    checksPerS: all[0].n / ((toMs - fromMs) / 1000),
    results: all[0].n,
    failedResults: all[0].failed,
    unjudged: all[0].unjudged,
    expected: monitors * intervals,
    missed: gaps[0].missed,
    duplicates: rows[0].results - rows[0].distinct_slots,
    driftP50: rows[0].p50,
    driftP99: rows[0].p99,
    driftMax: rows[0].max,
  };
}

/**
 * The environment of a `ROLE=all` Vigil with the sandbox on PostgreSQL, on loopback, whose alerts go to the
 * benchmark's SMTP server: what the Shopify and ads benchmarks start. CHECK_CONCURRENCY and CHECK_BATCH_SIZE pass
 * through from the benchmark's own environment.
 */
export function sandboxedServerEnv({ databaseUrl, port, smtpPort, sandboxSmtpPort, sandboxStripePort }) {
  return {
    ROLE: 'all',
    SANDBOX: 'on',
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SANDBOX_SMTP_PORT: String(sandboxSmtpPort),
    SANDBOX_STRIPE_PORT: String(sandboxStripePort),
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    TOKEN_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    // Each benchmark user registers from its own X-Forwarded-For address (http.mjs), as separate people would:
    // registrations are limited to 20 an hour per address.
    TRUST_PROXY: 'on',
    ...(process.env.CHECK_CONCURRENCY ? { CHECK_CONCURRENCY: process.env.CHECK_CONCURRENCY } : {}),
    ...(process.env.CHECK_BATCH_SIZE ? { CHECK_BATCH_SIZE: process.env.CHECK_BATCH_SIZE } : {}),
  };
}
