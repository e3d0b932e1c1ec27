// Results in time partitions (`npm run bench -- partitions`): what migration 0011 locks on a PostgreSQL
// database holding N raw results, and what retention costs before (row deletes) and after (partition drops).
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { tsImport } from 'tsx/esm/api';
import { freshDatabase, num } from './lib.mjs';

const MIGRATIONS = fileURLToPath(new URL('../apps/server/src/db/migrations', import.meta.url));
const HOUR = 3_600_000;
const RETENTION_HOURS = 48;
const MONITORS = 2_000;

/** CPU (user + system, ms) of the database's server processes: the backends serving `dbName`. */
async function backendCpuMs(admin, dbName) {
  const { rows } = await admin.query('select pid from pg_stat_activity where datname = $1', [dbName]);
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the backend ended meanwhile
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

async function migrateThrough(client, tag) {
  const folder = await mkdtemp(join(tmpdir(), 'vigil-bench-migrations-'));
  await cp(MIGRATIONS, folder, { recursive: true });
  const path = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(path, 'utf8'));
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((entry) => entry.tag === tag) + 1);
  await writeFile(path, JSON.stringify(journal));
  await migrate(drizzle({ client }), { migrationsFolder: folder });
  await rm(folder, { recursive: true, force: true });
}

/** A database at migration 0009 holding `rows` results over the last 48 hours, of 2,000 monitors. */
async function databaseAt0009(tag, rows) {
  const db = await freshDatabase(tag);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await migrateThrough(client, '0009_incident_resolution');
  const {
    rows: [user],
  } = await client.query(
    `insert into users (email, monitor_key) values ('partitions@bench.local', 'bench-key') returning id`,
  );
  await client.query(
    `insert into monitors (user_id, name, service, target, conditions, interval_seconds, repeat_interval_minutes,
       confirmations, alert_settings, language_code, next_check_at, created_at, updated_at)
     select $1, 'm' || i, 'website', '{"url":"http://127.0.0.1:9/"}', '{}', 60, 0, 1, '{}', 'en-US',
       now() + interval '1 day', now(), now()
     from generate_series(1, $2::int) i`,
    [user.id, MONITORS],
  );
  const perMonitor = Math.ceil(rows / MONITORS);
  const stepMs = (RETENTION_HOURS * HOUR) / perMonitor;
  const started = performance.now();
  // Slot by slot across all monitors, as the engine writes them.
  await client.query(
    `insert into check_results (monitor_id, slot_at, checked_at, ok, response_ms, status_code, failed_conditions)
     select m.id, s.at, s.at + interval '80 milliseconds', (k + m.n) % 97 <> 0, 30 + (k + m.n) % 50, 200, '[]'::jsonb
     from generate_series(1, $1::int) k
       cross join lateral (select now() - $2::float8 * k * interval '1 millisecond' as at) s
       cross join (select id, row_number() over (order by name) as n from monitors) m
     order by k desc, m.n`,
    [perMonitor, stepMs],
  );
  await client.query('vacuum analyze check_results');
  console.error(
    `${tag}: ${perMonitor * MONITORS} results seeded in ${Math.round(performance.now() - started)} ms`,
  );
  return { db, client, total: perMonitor * MONITORS };
}

/**
 * One insert every 20 ms into check_results from another connection, as the engine's writes: the longest one
 * is how long writers stalled behind the migration's lock.
 */
function probeWrites(url, monitorId) {
  const client = new pg.Client({ connectionString: url });
  let stop = false;
  let longest = 0;
  let count = 0;
  const done = (async () => {
    await client.connect();
    while (!stop) {
      // Now, as the engine's slots: before the old table's new bound, so it lands in it after the migration.
      const slot = Date.now();
      const t0 = performance.now();
      await client.query(
        `insert into check_results (monitor_id, slot_at, checked_at, ok, failed_conditions)
         values ($1, to_timestamp($2::float8 / 1000), now(), true, '[]'::jsonb)`,
        [monitorId, slot],
      );
      longest = Math.max(longest, performance.now() - t0);
      count += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await client.end();
  })();
  return {
    async end() {
      stop = true;
      await done;
      return { longest, count };
    },
  };
}

export async function benchPartitions({ rows = num('BENCH_PARTITION_ROWS', 1_000_000) } = {}) {
  const admin = new pg.Client({
    connectionString: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  await admin.connect();
  const figures = { rows };
  try {
    // Before: the row-by-row retention (apps/server/src/engine/retention.ts before 0011): the oldest 6 hours
    // (one eighth of the rows, what one partition holds now) deleted 10,000 at a time by checked_at.
    {
      const { db, client, total } = await databaseAt0009('partitions_old', rows);
      const cutoff = new Date(Date.now() - (RETENTION_HOURS - 6) * HOUR);
      const cpu0 = await backendCpuMs(admin, db.name);
      const t0 = performance.now();
      let deleted = 0;
      for (;;) {
        const { rowCount } = await client.query(
          `delete from check_results where id in (select id from check_results where checked_at < $1 limit 10000)`,
          [cutoff],
        );
        deleted += rowCount;
        if (rowCount < 10_000) break;
      }
      figures.old = {
        total,
        deleted,
        ms: performance.now() - t0,
        cpuMs: (await backendCpuMs(admin, db.name)) - cpu0,
      };
      const t1 = performance.now();
      await client.query('vacuum check_results');
      figures.old.vacuumMs = performance.now() - t1;
      await client.end();
      await db.drop();
    }

    // The migration, with a writer beside it; then the new retention on the same rows.
    const { db, client, total } = await databaseAt0009('partitions_new', rows);
    const {
      rows: [monitor],
    } = await client.query('select id from monitors limit 1');
    const probe = probeWrites(db.url, monitor.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const t0 = performance.now();
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS });
    const migrationMs = performance.now() - t0;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const writes = await probe.end();
    figures.migration = { total, ms: migrationMs, longestWriteMs: writes.longest, writes: writes.count };

    const { openDatabase } = await tsImport('../apps/server/src/db/database.ts', import.meta.url);
    const { createStore } = await tsImport('../apps/server/src/db/store.ts', import.meta.url);
    const { maintainResultPartitions } = await tsImport(
      '../apps/server/src/engine/retention.ts',
      import.meta.url,
    );
    const database = await openDatabase({ databaseUrl: db.url, poolSize: 1 });
    const store = createStore(database.db);
    const timed = async (work) => {
      const cpu0 = await backendCpuMs(admin, db.name);
      const t = performance.now();
      const result = await work();
      return { result, ms: performance.now() - t, cpuMs: (await backendCpuMs(admin, db.name)) - cpu0 };
    };
    const now = new Date();
    figures.firstMaintenance = await timed(() => maintainResultPartitions(store, now, RETENTION_HOURS));
    figures.idleMaintenance = await timed(() => maintainResultPartitions(store, now, RETENTION_HOURS));
    figures.rollUp = await timed(() =>
      store.checks.rollUp(new Date(Math.floor(now / HOUR) * HOUR - 2 * HOUR)),
    );
    // One partition's worth (6 hours, an eighth of the rows) written into the first whole 6-hour partition,
    // then the maintenance run at which it expires: drops it (and the old table and the short one before it).
    const fresh = (await store.resultPartitions.list()).find(
      (partition) => partition.from && partition.to - partition.from === 6 * HOUR,
    );
    await client.query(
      `insert into check_results (monitor_id, slot_at, checked_at, ok, response_ms, status_code, failed_conditions)
       select m.id, s.at, s.at + interval '80 milliseconds', true, 40, 200, '[]'::jsonb
       from generate_series(0, $3::int - 1) k
         cross join lateral (select $1::timestamptz + k * interval '1 millisecond' * $2::float8 as at) s
         cross join (select id from monitors) m`,
      [fresh.from, (6 * HOUR) / Math.ceil(rows / 8 / MONITORS), Math.ceil(rows / 8 / MONITORS)],
    );
    await client.query('vacuum analyze check_results');
    // The roll-up as it runs from then on: its two hours (and the current one) in one partition, the rest pruned.
    const lastHours = new Date(fresh.to.getTime() - 3 * HOUR);
    figures.steadyRollUp = await timed(() => store.checks.rollUp(lastHours));
    const expiry = new Date(fresh.to.getTime() + RETENTION_HOURS * HOUR + HOUR);
    figures.drop = await timed(() => maintainResultPartitions(store, expiry, RETENTION_HOURS));
    figures.drop.result = {
      dropped: figures.drop.result.dropped,
      created: figures.drop.result.created.length,
    };
    await database.close();
    await client.end();
    await db.drop();
  } finally {
    await admin.end();
  }
  return figures;
}

export function printPartitions(f) {
  const ms = (n) => `${Math.round(n).toLocaleString('en-US')} ms`;
  console.log(`\n## Results in time partitions (${f.rows.toLocaleString('en-US')} results, PostgreSQL)\n`);
  console.log('| what | wall | PostgreSQL CPU |\n|---|---|---|');
  console.log(
    `| before: retention deleting 6 h (${f.old.deleted.toLocaleString('en-US')} rows), 10,000 a statement | ${ms(f.old.ms)} (+ vacuum ${ms(f.old.vacuumMs)}) | ${ms(f.old.cpuMs)} |`,
  );
  console.log(
    `| migration 0011 (ACCESS EXCLUSIVE on check_results throughout) | ${ms(f.migration.ms)}; longest write beside it ${ms(f.migration.longestWriteMs)} | |`,
  );
  console.log(
    `| first maintenance (${f.firstMaintenance.result.created.length} partitions made) | ${ms(f.firstMaintenance.ms)} | ${ms(f.firstMaintenance.cpuMs)} |`,
  );
  console.log(
    `| maintenance with nothing to do | ${ms(f.idleMaintenance.ms)} | ${ms(f.idleMaintenance.cpuMs)} |`,
  );
  console.log(
    `| roll-up right after the migration, its hours in the old table (${f.rollUp.result} monitor-hours) | ${ms(f.rollUp.ms)} | ${ms(f.rollUp.cpuMs)} |`,
  );
  console.log(
    `| roll-up from then on, its hours in one 6-hour partition (${f.steadyRollUp.result} monitor-hours) | ${ms(f.steadyRollUp.ms)} | ${ms(f.steadyRollUp.cpuMs)} |`,
  );
  console.log(
    `| retention: dropping ${f.drop.result.dropped.join(', ')} (+ ${f.drop.result.created} made ahead) | ${ms(f.drop.ms)} | ${ms(f.drop.cpuMs)} |`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchPartitions();
  console.error(JSON.stringify(figures));
  printPartitions(figures);
}
