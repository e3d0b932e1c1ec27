import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../lib/clock.ts';
import { databases } from '../test/databases.ts';
import { insertMonitor, userWithVerifiedEmail } from '../test/engine-kit.ts';
import type { Database } from './database.ts';
import { rowsOf } from './raw-sql.ts';
import { monitors, users } from './schema.ts';
import { createStore, type Store } from './store.ts';

const base = new Date('2026-11-20T10:00:00.000Z');
const at = (minutes: number) => new Date(base.getTime() + minutes * MINUTE_MS);

/** `monitor_order` next to what it mirrors: every monitor's owner, creation and id. */
async function orderAndMonitors(database: Database) {
  const order = await rowsOf<{ user_id: string; created_at: string; id: string }>(
    database.db,
    sql`select user_id, created_at::text, monitor_id as id from monitor_order order by 1, 2, 3`,
  );
  const rows = await rowsOf<{ user_id: string; created_at: string; id: string }>(
    database.db,
    sql`select user_id, created_at::text, id from monitors order by 1, 2, 3`,
  );
  return { order, rows };
}

/** Each user's monitor count as `monitor_counts` keeps it, and as counting `monitor_order` finds it. */
async function countsAndOrder(database: Database) {
  const counts = await rowsOf<{ user_id: string; monitors: number }>(
    database.db,
    sql`select user_id, monitors from monitor_counts where monitors > 0 order by 1`,
  );
  const counted = await rowsOf<{ user_id: string; monitors: number }>(
    database.db,
    sql`select user_id, count(*)::int as monitors from monitor_order group by 1 order by 1`,
  );
  return { counts, counted };
}

/** The list's order table, kept by triggers on monitors (migration 0012_monitor_order). */
describe.each(databases)('monitor_order on $name', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  let store: Store;

  beforeEach(async () => {
    ({ database, drop } = await kind.create());
    store = createStore(database.db);
  });
  afterEach(() => drop());

  const monitorsOf = async (userId: string, count: number, from = 0) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.push(
        await insertMonitor(database.db, {
          userId,
          email: 'o@example.com',
          url: 'http://a',
          nextCheckAt: at(from + i),
        }),
      );
    }
    return ids;
  };

  it('follows every insert and delete, a user deleted with all their monitors included', async () => {
    const ann = await userWithVerifiedEmail(store, base);
    const bob = await userWithVerifiedEmail(store, base);
    const annIds = await monitorsOf(ann.id, 5);
    const bobIds = await monitorsOf(bob.id, 3, 10);
    expect((await orderAndMonitors(database)).order).toHaveLength(8);

    await store.monitors.deleteOwned(ann.id, [annIds[1]!, annIds[3]!]);
    await database.db.delete(users).where(eq(users.id, bob.id));
    // An update the engine makes all the time moves nothing; a moved creation time moves the monitor's place.
    await database.db
      .update(monitors)
      .set({ status: 'up', nextCheckAt: at(60) })
      .where(eq(monitors.id, annIds[0]!));
    await database.db
      .update(monitors)
      .set({ createdAt: at(30) })
      .where(eq(monitors.id, annIds[2]!));

    const { order, rows } = await orderAndMonitors(database);
    expect(order).toEqual(rows);
    expect(order.map((row) => row.id).sort()).toEqual([annIds[0], annIds[2], annIds[4]].sort());
    expect(bobIds.some((id) => order.some((row) => row.id === id))).toBe(false);
    // The counts (migration 0016) followed every one of those changes.
    const { counts, counted } = await countsAndOrder(database);
    expect(counts).toEqual(counted);
    expect(counts).toEqual([{ user_id: ann.id, monitors: 3 }]);
  });

  it('pages and counts the list newest first, as the monitors stand', async () => {
    const ann = await userWithVerifiedEmail(store, base);
    const other = await userWithVerifiedEmail(store, base);
    const ids = await monitorsOf(ann.id, 7);
    await monitorsOf(other.id, 4);
    await store.monitors.deleteOwned(ann.id, [ids[6]!]);

    const first = await store.monitors.viewPage(ann.id, 3, 0);
    const last = await store.monitors.viewPage(ann.id, 3, 3);
    expect(first.total).toBe(6);
    expect(last.total).toBe(6);
    expect([...first.views, ...last.views].map((view) => view.row.id)).toEqual(ids.slice(0, 6).reverse());
    // Past the end: no rows, and still the count.
    expect(await store.monitors.viewPage(ann.id, 3, 9)).toEqual({ views: [], total: 6 });
    expect(await store.monitors.countOfUser(ann.id)).toBe(6);
  });
});

/** Migration 0012 on a database at 0011 holding monitors: they are all listed, in their order. */
describe.each(databases)('migration 0012 (monitor_order) on $name', (kind) => {
  it('lists the monitors already there', async () => {
    const { database, drop } = await kind.create({ through: '0011_result_partitions' });
    try {
      const store = createStore(database.db);
      const owner = await userWithVerifiedEmail(store, base);
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        ids.push(
          await insertMonitor(database.db, {
            userId: owner.id,
            email: owner.email,
            url: 'http://a',
            nextCheckAt: at(i),
          }),
        );
      }
      await database.migrate();

      const { order, rows } = await orderAndMonitors(database);
      expect(order).toEqual(rows);
      const page = await store.monitors.viewPage(owner.id, 10, 0);
      expect(page.total).toBe(4);
      expect(page.views.map((view) => view.row.id)).toEqual([...ids].reverse());
    } finally {
      await drop();
    }
  });
});

/** Migration 0016 on a database at 0015 holding monitors: every user's count, kept from then on. */
describe.each(databases)('migration 0016 (monitor_counts) on $name', (kind) => {
  it('counts the monitors already there, and keeps counting', async () => {
    const { database, drop } = await kind.create({ through: '0015_monitors_fillfactor' });
    try {
      const store = createStore(database.db);
      const ann = await userWithVerifiedEmail(store, base);
      const bob = await userWithVerifiedEmail(store, base);
      const insert = (userId: string, i: number) =>
        insertMonitor(database.db, { userId, email: 'o@example.com', url: 'http://a', nextCheckAt: at(i) });
      for (let i = 0; i < 5; i++) await insert(ann.id, i);
      const bobFirst = await insert(bob.id, 10);
      await database.migrate();

      expect((await countsAndOrder(database)).counts).toEqual(
        [
          { user_id: ann.id, monitors: 5 },
          { user_id: bob.id, monitors: 1 },
        ].sort((a, b) => (a.user_id < b.user_id ? -1 : 1)),
      );
      await insert(bob.id, 11);
      await store.monitors.deleteOwned(bob.id, [bobFirst]);
      await insert(ann.id, 12);
      const { counts, counted } = await countsAndOrder(database);
      expect(counts).toEqual(counted);
      expect((await store.monitors.viewPage(ann.id, 2, 0)).total).toBe(6);
      expect(await store.monitors.countOfUser(bob.id)).toBe(1);
    } finally {
      await drop();
    }
  });
});
