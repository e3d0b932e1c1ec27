import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCheckers } from '../checks/all-checkers.ts';
import { createCheckEngine, SAFETY_POLL_MS } from '../engine/check-engine.ts';
import { defineJob, type JobDefinition } from '../jobs/job.ts';
import { startJobs } from '../jobs/job-queue.ts';
import { systemClock } from '../lib/clock.ts';
import { databases, databaseWithWakeups, type TestDatabase } from '../test/databases.ts';
import { insertMonitor, quietWorkerDeps, userWithVerifiedEmail } from '../test/engine-kit.ts';
import { startTargetServer, type TargetServer } from '../test/target-server.ts';
import type { Database } from './database.ts';
import { rowsOf } from './raw-sql.ts';
import { checkResults } from './schema.ts';
import { createStore, type Store } from './store.ts';
import type { Wakeups } from './wakeups.ts';

const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;
/** Far sooner than any safety poll (the engine's 30 s, the job workers' 60 s): only a wake-up explains it. */
const PROMPTLY_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function within<T>(ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await sleep(20);
  }
}

/** Waits, at most PROMPTLY_MS, until the monitor has `count` results written. */
const written = (database: Database, monitorId: string, count: number) =>
  within(PROMPTLY_MS, async () => {
    const rows = await database.db.select().from(checkResults).where(eq(checkResults.monitorId, monitorId));
    return rows.length === count ? rows : undefined;
  });

/** A check engine of this process, woken by `wakeups`; it checks for real, with no alerts. */
function checkEngine(store: Store, wakeups: Wakeups) {
  return createCheckEngine({
    store,
    queue: { send: async () => undefined },
    clock: systemClock,
    checkers: createCheckers(),
    log: silentLog,
    concurrency: 4,
    batchSize: 4,
    wakeups,
  });
}

/** databaseWithWakeups, and a site for the monitors to check. */
async function setUp(testDatabase: TestDatabase) {
  const connections = await databaseWithWakeups(testDatabase);
  const site = await startTargetServer();
  return {
    ...connections,
    site,
    async tearDown() {
      await site.close();
      await connections.tearDown();
    },
  };
}

describe.each(databases)('wake-ups instead of polling on $name', (testDatabase) => {
  let database: Database;
  /** Another connection to the same database (another process's, on PostgreSQL); PGlite has only the one. */
  let other: Database;
  let wakeups: Wakeups;
  let site: TargetServer;
  let tearDown: (() => Promise<void>) | undefined;

  beforeAll(async () => ({ database, other, wakeups, site, tearDown } = await setUp(testDatabase)));
  afterAll(() => tearDown?.());

  it('checks a monitor created elsewhere at once, though the scheduler sleeps far longer with nothing due', async () => {
    expect(SAFETY_POLL_MS).toBeGreaterThanOrEqual(PROMPTLY_MS * 4);
    const store = createStore(database.db);
    const engine = checkEngine(store, wakeups);
    engine.start();
    try {
      // Nothing is due: the scheduler has looked once and gone to sleep for the safety poll.
      await sleep(500);
      const user = await userWithVerifiedEmail(createStore(other.db), new Date());
      const insertedAt = Date.now();
      const monitorId = await insertMonitor(other.db, {
        userId: user.id,
        email: user.email,
        url: `${site.url}/created`,
        nextCheckAt: new Date(),
      });
      await written(database, monitorId, 1);
      expect(Date.now() - insertedAt).toBeLessThan(PROMPTLY_MS);

      // Check now (the slot moved earlier) wakes it again; the engine's own write, a minute later, did not.
      await other.db.execute(sql`update monitors set next_check_at = now() where id = ${monitorId}::uuid`);
      await written(database, monitorId, 2);
    } finally {
      await engine.stop();
    }
  });

  it('runs a job sent from another queue at once, and a delayed one when it comes due, though workers poll every minute or less often', async () => {
    const handled: { n: number; at: number }[] = [];
    const job: JobDefinition<{ n: number }> = defineJob({
      name: 'wakeup-job',
      payload: z.object({ n: z.number() }),
      retry: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 30 },
      concurrency: 2,
      async handle({ n }) {
        handled.push({ n, at: Date.now() });
      },
    });
    // Maintenance (which also wakes workers for due jobs) far off too: only the sender's NOTIFY can explain it.
    const workers = await startJobs({
      database,
      runWorkers: true,
      jobs: [job as JobDefinition<unknown>],
      maintenanceIntervalSeconds: 600,
    });
    const sender = await startJobs({
      database: other,
      runWorkers: false,
      jobs: [job as JobDefinition<unknown>],
    });
    try {
      await workers.run(quietWorkerDeps(database, workers.queue));
      // The workers' first fetch found nothing: they sleep until woken.
      await sleep(1000);
      const sentAt = Date.now();
      await sender.queue.send(job, { n: 1 });
      await within(PROMPTLY_MS, async () => handled.find((h) => h.n === 1));
      expect(handled[0]!.at - sentAt).toBeLessThan(PROMPTLY_MS);

      const delayedAt = Date.now();
      await sender.queue.send(job, { n: 2 }, { startAfterSeconds: 2 });
      const delayed = await within(PROMPTLY_MS + 2_000, async () => handled.find((h) => h.n === 2));
      expect(delayed.at - delayedAt).toBeGreaterThanOrEqual(1_900);
      expect(delayed.at - delayedAt).toBeLessThan(2_000 + PROMPTLY_MS);
    } finally {
      await sender.stop();
      await workers.stop();
    }
  });
});

// PostgreSQL only: PGlite runs inside the process, with no connection that could be cut.
describe('wake-ups on PostgreSQL after the listening connection is cut', () => {
  let database: Database;
  let other: Database;
  let wakeups: Wakeups;
  let site: TargetServer;
  let tearDown: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ database, other, wakeups, site, tearDown } = await setUp(
      databases.find((d) => d.name === 'PostgreSQL')!,
    ));
  });
  afterAll(() => tearDown?.());

  it('listens again after its connection is cut (PostgreSQL restarted) and looks for what it missed', async () => {
    const engine = checkEngine(createStore(database.db), wakeups);
    engine.start();
    try {
      await sleep(500);
      const [cut] = await rowsOf<{ n: number }>(
        other.db,
        sql`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
              where application_name = 'vigil-wakeups' and datname = current_database()`,
      );
      expect(cut!.n).toBe(1);
      const user = await userWithVerifiedEmail(createStore(other.db), new Date());
      // Created while nobody listens: found when the connection is back.
      const monitorId = await insertMonitor(other.db, {
        userId: user.id,
        email: user.email,
        url: `${site.url}/while-cut`,
        nextCheckAt: new Date(),
      });
      await written(database, monitorId, 1);
    } finally {
      await engine.stop();
    }
  });
});
