import { eq, inArray, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database.ts';
import { pgArray } from '../db/pg-text.ts';
import { rowsOf } from '../db/raw-sql.ts';
import { checkResults, monitors, users } from '../db/schema.ts';
import { createStore, type Store } from '../db/store.ts';
import { HOUR_MS, MINUTE_MS } from '../lib/clock.ts';
import { databases } from '../test/databases.ts';
import { insertMonitor, userWithVerifiedEmail } from '../test/engine-kit.ts';
import { maintainResultPartitions } from './retention.ts';
import { partitionName, partitionWidthHours, planPartitions } from './result-partitions.ts';

const h = (iso: string) => new Date(iso);

describe('partitionWidthHours()', () => {
  it('fits about eight partitions into the retention: 6 hours at 48, a day for long retentions', () => {
    expect([2, 15, 16, 24, 32, 47, 48, 64, 96, 191, 192, 2160].map(partitionWidthHours)).toEqual([
      1, 1, 2, 3, 4, 4, 6, 8, 12, 12, 24, 24,
    ]);
  });
});

describe('planPartitions()', () => {
  const now = h('2026-03-01T10:20:00Z');

  const oldest = h('2026-02-27T10:00:00Z');

  it('on a new database, covers the retention window and a day ahead', () => {
    const plan = planPartitions({ existing: [], strays: null, now, oldest, widthHours: 6 });
    expect(plan).toHaveLength(13);
    expect(plan[0]!.from).toEqual(h('2026-02-27T06:00:00Z'));
    expect(plan.at(-1)!.to).toEqual(h('2026-03-02T12:00:00Z'));
    for (let i = 1; i < plan.length; i++) expect(plan[i]!.from).toEqual(plan[i - 1]!.to);
  });

  it('goes on from the newest bound, an odd one (the old table) included, onto the grid', () => {
    const existing = [{ from: null, to: h('2026-03-01T11:00:00Z') }];
    const plan = planPartitions({ existing, strays: null, now, oldest, widthHours: 6 });
    expect(plan[0]).toEqual({ from: h('2026-03-01T11:00:00Z'), to: h('2026-03-01T12:00:00Z') });
    expect(plan[1]).toEqual({ from: h('2026-03-01T12:00:00Z'), to: h('2026-03-01T18:00:00Z') });
  });

  it('plans nothing while the partitions reach a day ahead', () => {
    const existing = [{ from: h('2026-03-01T06:00:00Z'), to: h('2026-03-02T12:00:00Z') }];
    expect(planPartitions({ existing, strays: null, now, oldest, widthHours: 6 })).toEqual([]);
  });

  it('reaches back and forward to take in strays', () => {
    const existing = [{ from: h('2026-03-01T06:00:00Z'), to: h('2026-03-02T12:00:00Z') }];
    const strays = { min: h('2026-02-28T23:59:00Z'), max: h('2026-03-04T01:00:00Z') };
    const plan = planPartitions({ existing, strays, now, oldest, widthHours: 6 });
    expect(plan.map((range) => partitionName(range.from))).toEqual([
      'check_results_p20260302t12',
      'check_results_p20260302t18',
      'check_results_p20260303t00',
      'check_results_p20260303t06',
      'check_results_p20260303t12',
      'check_results_p20260303t18',
      'check_results_p20260304t00',
      'check_results_p20260301t00',
      'check_results_p20260228t18',
    ]);
  });
});

describe.each(databases)('check result partitions on $name', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  let store: Store;
  let ownerId: string;
  let monitorId: string;
  const now = h('2026-03-01T10:20:00Z');

  const newMonitor = (userId: string) =>
    insertMonitor(database.db, { userId, email: 'o@example.com', url: 'http://x', nextCheckAt: now });

  beforeEach(async () => {
    ({ database, drop } = await kind.create());
    store = createStore(database.db);
    ownerId = (await userWithVerifiedEmail(store, now)).id;
    monitorId = await newMonitor(ownerId);
  });
  afterEach(() => drop());

  const insertAt = (times: number[], of = monitorId) =>
    database.db.insert(checkResults).values(
      times.map((ms, i) => ({
        monitorId: of,
        slotAt: new Date(ms),
        checkedAt: new Date(ms),
        ok: i % 4 !== 0,
        responseMs: 100,
      })),
    );
  /** Rows per partition, by name; the DEFAULT partition's included. */
  const countsByPartition = async () =>
    Object.fromEntries(
      (
        await rowsOf<{ name: string; n: number }>(
          database.db,
          sql`select tableoid::regclass::text as name, count(*)::int as n from check_results group by 1`,
        )
      ).map((row) => [row.name, row.n]),
    );

  it('creates partitions over the window and ahead, contiguous, and a result at any time of it lands in one', async () => {
    const done = await maintainResultPartitions(store, now, 48);
    expect(done.created[0]).toBe('check_results_p20260227t06');
    const partitions = await store.resultPartitions.list();
    expect(partitions.at(-1)!.to.getTime()).toBeGreaterThanOrEqual(now.getTime() + 24 * HOUR_MS);
    for (let i = 1; i < partitions.length; i++) expect(partitions[i]!.from).toEqual(partitions[i - 1]!.to);

    // Every 50 minutes from 47 hours ago to 23 hours ahead.
    const times = Array.from({ length: 84 }, (_, i) => now.getTime() - 47 * HOUR_MS + i * 50 * MINUTE_MS);
    await insertAt(times);
    const counts = await countsByPartition();
    expect(counts['check_results_default']).toBeUndefined();
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(times.length);
    const names = new Set(partitions.map((partition) => partition.name));
    for (const name of Object.keys(counts)) expect(names.has(name)).toBe(true);
    expect((await maintainResultPartitions(store, now, 48)).created).toEqual([]);
  });

  it('drops whole partitions past the retention and keeps the rest row for row', async () => {
    await maintainResultPartitions(store, now, 48);
    // A result every 10 minutes over the next day.
    await insertAt(Array.from({ length: 144 }, (_, i) => now.getTime() + i * 10 * MINUTE_MS));
    const before = await countsByPartition();

    // 48 hours past 12:00, the partition ending then is dropped; the others are untouched.
    const later = new Date(h('2026-03-01T12:00:00Z').getTime() + 48 * HOUR_MS + 30 * MINUTE_MS);
    const done = await maintainResultPartitions(store, later, 48);
    expect(done.dropped).toContain('check_results_p20260301t06');
    expect(done.dropped).not.toContain('check_results_p20260301t12');
    const after = await countsByPartition();
    const { check_results_p20260301t06: gone, ...kept } = before;
    expect(gone).toBe(10);
    expect(after).toEqual(kept);
    expect(await store.resultPartitions.list()).not.toContainEqual(
      expect.objectContaining({ name: 'check_results_p20260301t06' }),
    );
  });

  it('moves strays out of the DEFAULT partition and deletes the expired ones', async () => {
    await maintainResultPartitions(store, now, 48);
    // Three days ahead (a clock far off) and three days back (past the retention).
    await insertAt([now.getTime() + 72 * HOUR_MS, now.getTime() - 72 * HOUR_MS]);
    expect((await countsByPartition())['check_results_default']).toBe(2);
    const done = await maintainResultPartitions(store, now, 48);
    expect(done).toMatchObject({ moved: 1, strayDeleted: 1 });
    expect(done.created).toContain('check_results_p20260304t06');
    expect(await countsByPartition()).toEqual({ check_results_p20260304t06: 1 });

    // Older than the oldest partition, kept once the retention is raised to 96 hours (12-hour partitions).
    await insertAt([now.getTime() - 80 * HOUR_MS]);
    const raised = await maintainResultPartitions(store, now, 96);
    expect(raised).toMatchObject({ moved: 1, strayDeleted: 0 });
    expect(raised.created).toEqual([
      'check_results_p20260227t00',
      'check_results_p20260226t12',
      'check_results_p20260226t00',
    ]);
    expect(await countsByPartition()).toEqual({
      check_results_p20260304t06: 1,
      check_results_p20260226t00: 1,
    });
  });

  it('is safe when two connections maintain at once', async () => {
    const second: Database =
      database.kind === 'postgres'
        ? await openDatabase({ databaseUrl: database.connectionString, poolSize: 2 })
        : database;
    try {
      const results = await Promise.all([
        maintainResultPartitions(store, now, 48),
        maintainResultPartitions(createStore(second.db), now, 48),
      ]);
      const created = results.flatMap((result) => result.created);
      expect(new Set(created).size).toBe(created.length);
      const partitions = await store.resultPartitions.list();
      expect(partitions.map((partition) => partition.name).sort()).toEqual([...created].sort());
      for (let i = 1; i < partitions.length; i++) expect(partitions[i]!.from).toEqual(partitions[i - 1]!.to);
    } finally {
      if (second !== database) await second.close();
    }
  });

  // A deleted monitor's results go with it (migration 0017: a trigger, not a foreign key).
  describe('of deleted monitors', () => {
    /** Another monitor of `userId` with a result in each of the last 30 hours, and one no partition covers. */
    async function monitorWithHistory(userId: string): Promise<string> {
      const id = await newMonitor(userId);
      const hours = Array.from({ length: 30 }, (_, hour) => now.getTime() - hour * HOUR_MS);
      await insertAt([...hours, h('2020-01-01T00:00:00Z').getTime()], id);
      return id;
    }

    /** Results per monitor, by id, of these monitors. */
    const resultsOf = async (ids: string[]) =>
      Object.fromEntries(
        (
          await rowsOf<{ id: string; n: number }>(
            database.db,
            sql`select monitor_id::text as id, count(*)::int as n from check_results
                where monitor_id = any(${pgArray(ids)}::uuid[]) group by monitor_id`,
          )
        ).map((row) => [row.id, row.n]),
      );

    beforeEach(() => maintainResultPartitions(store, now, 48));

    it('deletes the results of the monitors one statement deletes, in every partition, and no others', async () => {
      const [a, b, kept] = [
        await monitorWithHistory(ownerId),
        await monitorWithHistory(ownerId),
        await monitorWithHistory(ownerId),
      ] as [string, string, string];
      const partitions = await rowsOf<{ n: number }>(
        database.db,
        sql`select count(distinct tableoid)::int as n from check_results where monitor_id = ${a}::uuid`,
      );
      expect(partitions[0]!.n).toBeGreaterThan(2);
      expect(await resultsOf([a, b, kept])).toEqual({ [a]: 31, [b]: 31, [kept]: 31 });

      await database.db.delete(monitors).where(inArray(monitors.id, [a, b]));

      expect(await resultsOf([a, b, kept])).toEqual({ [kept]: 31 });
    });

    it('deletes them with a whole account (the users → monitors cascade)', async () => {
      const other = await userWithVerifiedEmail(store, now);
      const mine = [await monitorWithHistory(ownerId), await monitorWithHistory(ownerId)];
      const theirs = await monitorWithHistory(other.id);

      await database.db.delete(users).where(eq(users.id, ownerId));

      expect(await resultsOf([...mine, theirs])).toEqual({ [theirs]: 31 });
    });
  });
});

// PostgreSQL only: PGlite has one connection, so nothing else can hold a lock there.
describe('check result partitions on PostgreSQL, beside a reader', () => {
  const postgres = databases.find((d) => d.name === 'PostgreSQL')!;
  let database: Extract<Database, { kind: 'postgres' }>;
  let drop: () => Promise<void>;
  let store: Store;
  const now = h('2026-03-01T10:20:00Z');

  beforeEach(async () => {
    const created = await postgres.create();
    if (created.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    ({ database, drop } = { database: created.database, drop: created.drop });
    store = createStore(database.db);
  });
  afterEach(() => drop());

  it('gives up a drop that waits on a reader (lock timeout) but keeps the partitions it made', async () => {
    await maintainResultPartitions(store, now, 48);
    // A reader in a long transaction, holding a lock on check_results and today's 12:00 partition.
    const reader = await database.pool.connect();
    const later = new Date(now.getTime() + 50 * HOUR_MS);
    try {
      await reader.query('begin');
      await reader.query(
        `select count(*) from check_results where slot_at >= '2026-03-01T12:00Z' and slot_at < '2026-03-01T13:00Z'`,
      );
      const started = Date.now();
      // 55P03: lock_not_available, the lock timeout.
      await expect(maintainResultPartitions(store, later, 48)).rejects.toMatchObject({
        cause: { code: '55P03' },
      });
      expect(Date.now() - started).toBeLessThan(10_000);
      // The partitions ahead were made (their transaction came first); the expired ones are still there.
      const names = (await store.resultPartitions.list()).map((partition) => partition.name);
      expect(names).toContain('check_results_p20260301t06');
      expect(names).toContain('check_results_p20260303t12');
    } finally {
      await reader.query('rollback');
      reader.release();
    }
    const done = await maintainResultPartitions(store, later, 48);
    expect(done.created).toEqual([]);
    expect(done.dropped).toContain('check_results_p20260301t06');
  });
});
