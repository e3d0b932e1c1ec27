// Idle cost (`npm run bench -- idle`, issue 14): what the built server costs with nothing to do. Embedded: one
// `ROLE=all` process on a fresh PGlite data folder, measured after its first start and again after a restart on
// the same folder (data in place). PostgreSQL: a fresh database, one `ROLE=api` and one `ROLE=worker` process,
// measured side by side, with the database's own backends. CPU is the process's own ticks (utime + stime from
// /proc/<pid>/stat) over the window, so other load on the machine changes it little; RSS is VmRSS at the end.
// The memory probe (bench/memory-probe.mjs, preloaded) reports the V8 heap, external memory and ArrayBuffers
// (PGlite's WebAssembly memory among them) at the end of each window.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freshDatabase, num, procStat, sleep, startServer, stopChild, waitForTable } from './lib.mjs';

const PORT = num('BENCH_IDLE_PORT', 3370);
const WINDOW_MS = num('BENCH_IDLE_S', 60) * 1000;
/** Start-up work (migrations, the first housekeeping round, JIT) settles before the window opens. */
const SETTLE_MS = num('BENCH_IDLE_SETTLE_S', 10) * 1000;
const RUNS = (process.env.BENCH_IDLE_RUNS ?? 'embedded,postgres').split(',').map((run) => run.trim());
const SERVER = process.env.BENCH_IDLE_SERVER ?? 'apps/server/dist/main.js';
const NODE_ARGS = (process.env.BENCH_IDLE_NODE_ARGS ?? '').split(' ').filter(Boolean);

const serverEnv = {
  PORT: String(PORT),
  SANDBOX_SMTP_PORT: String(PORT + 1),
  SANDBOX_STRIPE_PORT: String(PORT + 2),
};

/** Starts the server with the memory probe; `memory()` asks it for its breakdown. */
async function start(env, { port, name }) {
  const child = await startServer(env, {
    port,
    name,
    nodeArgs: ['--import', './bench/memory-probe.mjs', ...NODE_ARGS],
    script: SERVER,
  });
  let waiting;
  child.stderr.on('data', (chunk) => {
    const line = /memory-probe (\{.*\})/.exec(chunk.toString());
    if (line && waiting) waiting(JSON.parse(line[1]));
  });
  return {
    child,
    memory: () =>
      new Promise((resolve) => {
        waiting = resolve;
        child.kill('SIGUSR2');
        setTimeout(() => resolve(null), 2000);
      }),
  };
}

/**
 * CPU % of one core each group used over the window, and each group's RSS at its end. `groups()` is asked at both
 * ends: a process that appeared meanwhile (a PostgreSQL backend) counts all its CPU, and one gone by the end
 * (its connection closed) counts for nothing.
 */
async function measure(groups) {
  const before = new Map(
    Object.values(await groups()).flatMap((pids) => pids.map((pid) => [pid, procStat(pid).cpu])),
  );
  const started = performance.now();
  await sleep(WINDOW_MS);
  const seconds = (performance.now() - started) / 1000;
  const out = {};
  for (const [name, pids] of Object.entries(await groups())) {
    const after = pids.map((pid) => ({ pid, ...procStat(pid) })).filter((s) => s.rss > 0);
    const used = after.reduce((sum, s) => sum + s.cpu - (before.get(s.pid) ?? 0), 0);
    out[name] = {
      cpuPct: (used / seconds) * 100,
      rssMiB: after.reduce((sum, s) => sum + s.rss, 0),
    };
  }
  return out;
}

async function embedded() {
  const rows = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-idle-'));
  try {
    for (const start_ of ['first start', 'restart, data in place']) {
      const env = { ...serverEnv, ROLE: 'all', DATA_DIR: dataDir };
      const server = await start(env, { port: PORT, name: 'embedded' });
      await sleep(SETTLE_MS);
      const usage = await measure(() => ({ process: [server.child.pid] }));
      const memory = await server.memory();
      await stopChild(server.child);
      rows.push({ setup: `embedded (PGlite), ${start_}`, process: 'ROLE=all', ...usage.process, memory });
      console.error(JSON.stringify(rows.at(-1)));
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

async function postgres() {
  const rows = [];
  const db = await freshDatabase('idle');
  const client = new pg.Client({ connectionString: db.url });
  const servers = [];
  try {
    await client.connect();
    const env = { ...serverEnv, DATABASE_URL: db.url };
    servers.push(await start({ ...env, ROLE: 'api' }, { port: PORT, name: 'api' }));
    servers.push(await start({ ...env, ROLE: 'worker' }, { name: 'worker' }));
    await waitForTable(client, 'pgboss.job');
    await sleep(SETTLE_MS);
    const backends = async () =>
      (
        await client.query(
          `select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
          [db.name],
        )
      ).rows.map((row) => row.pid);
    let pids = [];
    const usage = await measure(async () => {
      pids = await backends();
      return { api: [servers[0].child.pid], worker: [servers[1].child.pid], backends: pids };
    });
    for (const [i, role] of ['api', 'worker'].entries()) {
      rows.push({
        setup: 'PostgreSQL',
        process: `ROLE=${role}`,
        ...usage[role],
        memory: await servers[i].memory(),
      });
      console.error(JSON.stringify(rows.at(-1)));
    }
    rows.push({ setup: 'PostgreSQL', process: `its backends (${pids.length})`, ...usage.backends });
  } finally {
    for (const server of servers) await stopChild(server.child);
    await client.end();
    await db.drop();
  }
  return rows;
}

export async function benchIdle() {
  const rows = [];
  if (RUNS.includes('embedded')) rows.push(...(await embedded()));
  if (RUNS.includes('postgres')) rows.push(...(await postgres()));
  return rows;
}

export function printIdle(rows) {
  const f1 = (n) => (n === undefined ? '–' : n.toFixed(1));
  console.log(`\n## Idle, no monitors (window ${WINDOW_MS / 1000} s after ${SETTLE_MS / 1000} s settling)\n`);
  console.log(
    '| setup | process | CPU (% of a core) | RSS | V8 heap used / total | external (ArrayBuffers) |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    const m = r.memory;
    console.log(
      `| ${r.setup} | ${r.process} | ${r.cpuPct.toFixed(2)} % | ${f1(r.rssMiB)} MiB | ${m ? `${f1(m.heapUsed)} / ${f1(m.heapTotal)} MiB` : '–'} | ${m ? `${f1(m.external)} MiB (${f1(m.arrayBuffers)} MiB)` : '–'} |`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printIdle(await benchIdle());
  process.exit(0);
}
