import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCheckers } from '../checks/all-checkers.ts';
import type { Database } from '../db/database.ts';
import { rowsOf } from '../db/raw-sql.ts';
import { checkResults, monitors } from '../db/schema.ts';
import { createStore, type Store } from '../db/store.ts';
import { createCheckEngine } from '../engine/check-engine.ts';
import { databases } from '../test/databases.ts';
import { insertMonitor, userWithVerifiedEmail } from '../test/engine-kit.ts';
import { SILENT_LOG } from '../test/integration-kit.ts';
import { startTargetServer, type TargetServer } from '../test/target-server.ts';
import { createTestClock } from '../test/test-clock.ts';
import type { JobDefinition, WorkerDeps } from './job.ts';
import { vacuumMonitorsJob } from './vacuum-monitors.job.ts';

const now = new Date('2026-11-20T10:00:00.000Z');
const attempt = { id: 'job-1', retryCount: 0, retryLimit: 0, expireInSeconds: 300 };

describe.each(databases)('vacuum of the monitors table on $name', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  let store: Store;
  let site: TargetServer;

  beforeAll(async () => {
    site = await startTargetServer();
  });
  afterAll(() => site.close());
  beforeEach(async () => {
    ({ database, drop } = await kind.create());
    store = createStore(database.db);
  });
  afterEach(() => drop());

  const vacuumStats = async () =>
    (
      await rowsOf<{ vacuums: number; analyses: number; dead: number }>(
        database.db,
        sql`select vacuum_count::int as vacuums, analyze_count::int as analyses, n_dead_tup::int as dead
            from pg_stat_user_tables where relname = 'monitors'`,
      )
    )[0]!;

  it('clears the dead versions the engine leaves, with no autovacuum running', async () => {
    const owner = await userWithVerifiedEmail(store, now);
    const id = await insertMonitor(database.db, {
      userId: owner.id,
      email: owner.email,
      url: site.url,
      nextCheckAt: now,
    });
    // What a running monitor's row goes through: rewritten at every claim and every result.
    for (let i = 1; i <= 50; i++) {
      await database.db
        .update(monitors)
        .set({ nextCheckAt: new Date(now.getTime() + i * 60_000) })
        .where(eq(monitors.id, id));
    }
    // (The dead rows are counted when this backend's statistics are flushed, not at once.)
    const before = await vacuumStats();

    await vacuumMonitorsJob.handle({}, { store, log: SILENT_LOG } as unknown as WorkerDeps, attempt);

    const after = await vacuumStats();
    expect(after.vacuums).toBe(before.vacuums + 1);
    expect(after.dead).toBe(0);
  });

  it('analyses the table when it has no statistics yet, not again at the next vacuum', async () => {
    const run = () =>
      vacuumMonitorsJob.handle({}, { store, log: SILENT_LOG } as unknown as WorkerDeps, attempt);
    const before = await vacuumStats();

    await run();
    const first = await vacuumStats();
    await run();
    const second = await vacuumStats();

    expect(first).toMatchObject({ vacuums: before.vacuums + 1, analyses: before.analyses + 1 });
    expect(second).toMatchObject({ vacuums: first.vacuums + 1, analyses: first.analyses });
  });

  it('is asked for by a check engine once it has checked monitors', async () => {
    const sent: string[] = [];
    const engine = createCheckEngine({
      store,
      queue: {
        send: async (job: JobDefinition<never>) => {
          sent.push(job.name);
        },
      },
      clock: createTestClock(now),
      checkers: createCheckers(),
      log: SILENT_LOG,
      concurrency: 5,
      batchSize: 5,
      vacuumEveryMs: 50,
    });

    const owner = await userWithVerifiedEmail(store, now);
    await insertMonitor(database.db, {
      userId: owner.id,
      email: owner.email,
      url: site.url,
      nextCheckAt: now,
    });
    engine.start();
    try {
      const deadline = Date.now() + 10_000;
      while (!sent.includes('vacuum-monitors') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await engine.stop();
    }
    expect(await database.db.$count(checkResults)).toBeGreaterThan(0);
    expect(sent).toContain('vacuum-monitors');
  });
});
