// The code an issue measured, beside today's, on this machine at the same time (`npm run bench -- baseline`,
// issue 14). The checks benchmark's figures move with the machine's speed from one session to the next
// (bench/README.md); run alternately, the two builds meet the same machine. The baseline commit
// (BENCH_BASELINE_COMMIT, 0d644ea: where issue 14 measured) is checked out in a git worktree under the system's
// temporary folder, installed (`npm ci`) and built once and kept for later runs; its own `bench/checks.mjs` runs each
// of BENCH_BASELINE (`database:N:workers`, comma-separated) on a fresh database, then today's with
// `BENCH_HISTORY_HOURS=0`, the same fresh database, BENCH_BASELINE_ROUNDS (1) times. `BENCH_WARM_S` and
// `BENCH_WINDOW_S` reach both (60 s and 120 s unless set). CPU per check is the workers' and PostgreSQL's CPU over
// the window divided by the checks written in it, for both alike.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { num, plan, root } from './lib.mjs';

const COMMIT = process.env.BENCH_BASELINE_COMMIT ?? '0d644ea';
const RUNS =
  process.env.BENCH_BASELINE ?? 'postgres:100000:2,postgres:10000:1,postgres:10000:2,pglite:10000:1';
const ROUNDS = num('BENCH_BASELINE_ROUNDS', 1);

/** The baseline's worktree, installed and built; made on the first run. */
function baselineTree() {
  const dir = join(tmpdir(), `vigil-baseline-${COMMIT}`);
  if (!existsSync(join(dir, 'package.json')))
    execFileSync('git', ['worktree', 'add', '--force', '--detach', dir, COMMIT], {
      cwd: root,
      stdio: 'inherit',
    });
  if (!existsSync(join(dir, 'node_modules'))) execFileSync('npm', ['ci'], { cwd: dir, stdio: 'inherit' });
  execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'inherit' });
  return dir;
}

/** Runs one checks benchmark in `cwd` and answers the row it printed (its last JSON line on stderr). */
function checksRun(cwd, run, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['bench/checks.mjs', run.database, String(run.n), String(run.workers)],
      { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let text = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      text += chunk;
      process.stderr.write(chunk);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = text
        .split('\n')
        .filter((l) => l.startsWith('{"label"'))
        .at(-1);
      if (code !== 0 || !line) reject(new Error(`checks benchmark in ${cwd} exited with ${code}`));
      else resolve(JSON.parse(line));
    });
  });
}

/** The workers' and PostgreSQL's CPU (PGlite's is the worker's own) per check written, in ms. */
const perCheckMs = (row) =>
  ((row.usage.workers.cpuPct + (row.database === 'postgres' ? row.usage.postgres.cpuPct : 0)) * 10) /
  row.checksPerS;

export async function benchBaseline() {
  const dir = baselineTree();
  const runs = plan(RUNS);
  const rows = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const run of runs) {
      for (const [code, cwd, env] of [
        [COMMIT, dir, {}],
        ['today', root, { BENCH_HISTORY_HOURS: '0' }],
      ]) {
        const started = new Date().toISOString().slice(11, 16);
        const row = await checksRun(cwd, run, env);
        rows.push({ ...run, code, started, row, perCheckMs: perCheckMs(row) });
      }
    }
  }
  return rows;
}

export function printBaseline(rows) {
  const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
  console.log(`\n## The issue's code (${COMMIT}) beside today's\n`);
  console.log(
    '| started | code | database | N | workers | checks/s | drift p50 / p99 / max | missed | workers CPU | PostgreSQL CPU | CPU per check |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const { database, n, workers, code, started, row, perCheckMs: ms } of rows) {
    const postgres = database === 'postgres' ? `${fmt(row.usage.postgres.cpuPct, 1)} %` : '(in process)';
    console.log(
      `| ${started} | ${code} | ${database} | ${fmt(n)} | ${workers} | ${fmt(row.checksPerS)} | ${fmt(row.driftP50)} / ${fmt(row.driftP99)} / ${fmt(row.driftMax)} ms | ${fmt(row.missed)} of ${fmt(row.expected)} | ${fmt(row.usage.workers.cpuPct, 1)} % | ${postgres} | ${ms.toFixed(2)} ms |`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printBaseline(await benchBaseline());
  process.exit(0);
}
