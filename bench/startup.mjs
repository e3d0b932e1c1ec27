// Embedded start time and idle memory: starts the built server as `npm start` does, times how long until
// /healthz answers (first start on an empty data folder, then a warm start on the same folder), then reads
// the process's resident memory after it has sat idle. Runs on PGlite and, when reachable, PostgreSQL.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = 3299;
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 15_000);

function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

async function waitHealthy(child, started) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function startOnce(env, { idle = false } = {}) {
  const started = performance.now();
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      SANDBOX_SMTP_PORT: String(port + 1),
      SANDBOX_STRIPE_PORT: String(port + 2),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const readyMs = await waitHealthy(child, started);
    let idleRss;
    if (idle) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      idleRss = rssMiB(child.pid);
    }
    return { readyMs, idleRss };
  } finally {
    child.kill('SIGINT');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

export async function benchStartup() {
  const rows = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  try {
    const first = await startOnce({ DATA_DIR: dataDir });
    const warm = await startOnce({ DATA_DIR: dataDir }, { idle: true });
    rows.push({
      database: 'PGlite (./data)',
      firstMs: first.readyMs,
      warmMs: warm.readyMs,
      idleRss: warm.idleRss,
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch {
    console.warn(`PostgreSQL at ${adminUrl} is not reachable: skipping the PostgreSQL start-up figures.`);
    return rows;
  }
  const name = `vigil_bench_${process.pid}`;
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const dataDir2 = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
    const env = { DATABASE_URL: url.toString(), DATA_DIR: dataDir2 };
    const first = await startOnce(env);
    const warm = await startOnce(env, { idle: true });
    rows.push({
      database: 'PostgreSQL',
      firstMs: first.readyMs,
      warmMs: warm.readyMs,
      idleRss: warm.idleRss,
    });
    rmSync(dataDir2, { recursive: true, force: true });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  return rows;
}
