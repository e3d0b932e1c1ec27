import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { checkRollups, rollupProgress } from '../db/schema.ts';
import { createStore, type Store } from '../db/store.ts';
import { rollUpPacingFor } from '../engine/retention.ts';
import { databases } from '../test/databases.ts';
import { copyMonitor, insertMonitor, quietWorkerDeps, userWithVerifiedEmail } from '../test/engine-kit.ts';
import { createTestClock } from '../test/test-clock.ts';
import { rollUpResultsJob } from './roll-up-results.job.ts';

const hour = new Date('2026-11-20T10:00:00.000Z');
const attempt = { id: 'job-1', retryCount: 0, retryLimit: 3, expireInSeconds: 600 };

describe.each(databases)('the hourly roll-up job on $name', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  let store: Store;

  beforeEach(async () => {
    ({ database, drop } = await kind.create());
    store = createStore(database.db);
  });
  afterEach(() => drop());

  /** `count` monitors, each with one result in the hour from `hour`. */
  async function monitorsWithAnHour(count: number) {
    const owner = await userWithVerifiedEmail(store, hour);
    const first = await insertMonitor(database.db, {
      userId: owner.id,
      email: owner.email,
      url: 'https://shop.example/',
      nextCheckAt: hour,
    });
    await copyMonitor(database.db, first, count - 1);
    await database.db.execute(sql`
      insert into check_results (monitor_id, slot_at, checked_at, ok, response_ms)
      select id, ${hour.toISOString()}::timestamptz + interval '7 minutes',
        ${hour.toISOString()}::timestamptz + interval '7 minutes 2 seconds', true, 120
      from monitors`);
  }

  it('rolls up in the slices its database is paced for: 1,000 monitors at a time embedded, one slice on PostgreSQL', async () => {
    await monitorsWithAnHour(2_500);
    const rests: number[] = [];
    const deps = {
      ...quietWorkerDeps(database, { send: () => Promise.reject(new Error('the roll-up sends no job')) }),
      clock: createTestClock(new Date(hour.getTime() + 80 * 60_000)),
      rollUpPacing: { ...rollUpPacingFor(database.kind), rest: async (ms: number) => void rests.push(ms) },
    };

    await rollUpResultsJob.handle({}, deps, attempt);

    // A rest between each two slices: PGlite stops the process while a statement runs, PostgreSQL does not.
    expect(rests).toHaveLength(database.kind === 'pglite' ? 2 : 0);
    expect(await database.db.$count(checkRollups, eq(checkRollups.hour, hour))).toBe(2_500);
    const [progress] = await database.db
      .select()
      .from(rollupProgress)
      .where(eq(rollupProgress.source, 'check_results'));
    expect(progress?.rolledUntil).toEqual(new Date(hour.getTime() + 60 * 60_000));
  });
});
