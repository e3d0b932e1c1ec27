import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maintainResultPartitions } from '../engine/retention.ts';
import { HOUR_MS, MINUTE_MS } from '../lib/clock.ts';
import { databases } from '../test/databases.ts';
import { insertMonitor, userWithVerifiedEmail } from '../test/engine-kit.ts';
import type { Database } from './database.ts';
import { rowsOf } from './raw-sql.ts';
import { checkResults } from './schema.ts';
import { createStore, type Store } from './store.ts';

/** Migration 0011 on a database at 0009 holding results: the old table becomes the first partition. */
describe.each(databases)('migration 0011 (results in time partitions) on $name', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  let store: Store;
  // The migration reads the database's clock: the rows are placed around the real now.
  const now = new Date();
  const since = new Date(now.getTime() - 72 * HOUR_MS);
  let busy: string;
  let quiet: string;
  // Every 10 minutes for 72 hours (older than the 48 hours' retention too) up to a minute ago, one in four failed.
  const busyTimes = Array.from({ length: 432 }, (_, i) => now.getTime() - MINUTE_MS - i * 10 * MINUTE_MS);
  const quietTimes = [now.getTime() - 2 * MINUTE_MS, now.getTime() - 60 * HOUR_MS];

  const insertOld = (monitorId: string, times: number[]) =>
    database.db.execute(
      sql`insert into check_results (monitor_id, slot_at, checked_at, ok, response_ms, status_code, failed_conditions)
          select ${monitorId}::uuid, to_timestamp(t / 1000.0), to_timestamp(t / 1000.0), i % 4 <> 0, 100, 200, '[]'::jsonb
          from unnest(${`{${times.join(',')}}`}::float8[]) with ordinality as s(t, i)`,
    );
  const count = async (query: ReturnType<typeof sql>) =>
    (await rowsOf<{ n: number }>(database.db, query))[0]!.n;

  beforeEach(async () => {
    ({ database, drop } = await kind.create({ through: '0009_incident_resolution' }));
    store = createStore(database.db);
    const owner = await userWithVerifiedEmail(store, now);
    busy = await insertMonitor(database.db, {
      userId: owner.id,
      email: owner.email,
      url: 'http://a',
      nextCheckAt: now,
    });
    quiet = await insertMonitor(database.db, {
      userId: owner.id,
      email: owner.email,
      url: 'http://b',
      nextCheckAt: now,
    });
    await insertOld(busy, busyTimes);
    await insertOld(quiet, quietTimes);
  });
  afterEach(() => drop());

  it('keeps every row readable through the history reads, then drops the old table whole', async () => {
    await database.migrate();

    // Every row is there, in the old table now attached as the first partition, with no id.
    expect(await count(sql`select count(*)::int as n from check_results`)).toBe(434);
    expect(await count(sql`select count(*)::int as n from only check_results_legacy`)).toBe(434);
    expect(
      await count(
        sql`select count(*)::int as n from information_schema.columns
            where table_name = 'check_results' and column_name = 'id'`,
      ),
    ).toBe(0);
    // Its bound is the next whole hour after the migration ran.
    const [legacy] = await store.resultPartitions.list();
    expect(legacy).toMatchObject({ name: 'check_results_legacy', from: null });
    const bound = legacy!.to.getTime();
    const nextHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS + HOUR_MS;
    expect([nextHour(now.getTime()), nextHour(Date.now())]).toContain(bound);

    // The history reads count each one, exactly.
    const tallies = await store.checkHistory.tallies([busy, quiet], new Date(since.getTime() - MINUTE_MS));
    expect(tallies.get(busy)).toEqual({ checks: 432, failures: 108 });
    expect(tallies.get(quiet)).toEqual({ checks: 2, failures: 0 });
    const buckets = await store.checkHistory.rawBuckets(busy, since, 3600);
    expect(buckets.reduce((sum, bucket) => sum + bucket.checks, 0)).toBe(432);
    const lastMinutes = await store.checkHistory.tallies(
      [busy, quiet],
      new Date(now.getTime() - 5 * MINUTE_MS),
    );
    expect(lastMinutes.get(busy)).toEqual({ checks: 1, failures: 0 });
    expect(lastMinutes.get(quiet)).toEqual({ checks: 1, failures: 0 });

    // New partitions follow the old table's bound; results before it still land in it, later ones in them.
    const done = await maintainResultPartitions(store, now, 48);
    expect((await store.resultPartitions.list())[1]!.from).toEqual(new Date(bound));
    expect(done.dropped).toEqual([]);
    await database.db.insert(checkResults).values(
      [now.getTime() + 1000, bound + 1000].map((ms) => ({
        monitorId: quiet,
        slotAt: new Date(ms),
        checkedAt: new Date(ms),
        ok: true,
      })),
    );
    const where = await rowsOf<{ name: string; n: number }>(
      database.db,
      sql`select tableoid::regclass::text as name, count(*)::int as n from check_results group by 1 order by 1`,
    );
    expect(where.map((row) => row.name)).toEqual([
      'check_results_legacy',
      expect.stringMatching(/^check_results_p/),
    ]);
    expect(where[0]!.n).toBe(435);

    // Retention keeps the old table until its bound is past, then drops it whole; the newer partition stays.
    const expiry = new Date(bound + 48 * HOUR_MS + 30 * MINUTE_MS);
    expect((await maintainResultPartitions(store, new Date(expiry.getTime() - HOUR_MS), 48)).dropped).toEqual(
      [],
    );
    expect((await maintainResultPartitions(store, expiry, 48)).dropped).toEqual(['check_results_legacy']);
    expect(await count(sql`select count(*)::int as n from check_results`)).toBe(1);
  });

  it('bounds the old table by its newest slot when one lies past the next hour (a clock far off)', async () => {
    const ahead = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + 72 * HOUR_MS + 30 * MINUTE_MS;
    await insertOld(quiet, [ahead]);
    await database.migrate();

    expect(await count(sql`select count(*)::int as n from only check_results_legacy`)).toBe(435);
    const [legacy] = await store.resultPartitions.list();
    expect(legacy).toEqual({
      name: 'check_results_legacy',
      from: null,
      to: new Date(ahead - 30 * MINUTE_MS + HOUR_MS),
    });
    // It covers more than a day ahead: nothing to make until its bound comes near, then partitions follow it.
    expect((await maintainResultPartitions(store, now, 48)).created).toEqual([]);
    await maintainResultPartitions(store, new Date(legacy!.to.getTime() - 12 * HOUR_MS), 48);
    expect((await store.resultPartitions.list())[1]!.from).toEqual(legacy!.to);
  });
});
