import { eq, inArray, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maintainResultPartitions } from '../engine/retention.ts';
import { HOUR_MS } from '../lib/clock.ts';
import { databases } from '../test/databases.ts';
import { insertMonitor, userWithVerifiedEmail } from '../test/engine-kit.ts';
import type { Database } from './database.ts';
import { rowsOf } from './raw-sql.ts';
import { checkResults, monitors, users } from './schema.ts';
import { createStore, type Store } from './store.ts';

const now = new Date('2026-03-01T10:20:00Z');

/** A deleted monitor's results go with it (migration 0017: a trigger, not a foreign key). */
describe.each(databases)('check results of deleted monitors on $name', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  let store: Store;

  beforeEach(async () => {
    ({ database, drop } = await kind.create());
    store = createStore(database.db);
    await maintainResultPartitions(store, now, 48);
  });
  afterEach(() => drop());

  /** A monitor of `userId` with a result in each of the last 30 hours: several partitions, and the default one. */
  async function monitorWithHistory(userId: string): Promise<string> {
    const id = await insertMonitor(database.db, {
      userId,
      email: 'o@example.com',
      url: 'http://a',
      nextCheckAt: now,
    });
    const hours = [...Array(30).keys()].map((hour) => new Date(now.getTime() - hour * HOUR_MS));
    // One far in the past: no partition covers it, so it lies in the DEFAULT partition.
    hours.push(new Date('2020-01-01T00:00:00Z'));
    await database.db
      .insert(checkResults)
      .values(
        hours.map((slotAt) => ({ monitorId: id, slotAt, checkedAt: slotAt, ok: true, responseMs: 10 })),
      );
    return id;
  }

  const resultsOf = async (ids: string[]) =>
    (
      await rowsOf<{ id: string; n: number }>(
        database.db,
        sql`select monitor_id::text as id, count(*)::int as n from check_results
          where monitor_id in (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})
          group by monitor_id`,
      )
    ).reduce((counts, row) => ({ ...counts, [row.id]: row.n }), {} as Record<string, number>);

  it('deletes the results of the monitors one statement deletes, in every partition, and no others', async () => {
    const owner = await userWithVerifiedEmail(store, now);
    const [a, b, kept] = [
      await monitorWithHistory(owner.id),
      await monitorWithHistory(owner.id),
      await monitorWithHistory(owner.id),
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
    const owner = await userWithVerifiedEmail(store, now);
    const other = await userWithVerifiedEmail(store, now);
    const mine = [await monitorWithHistory(owner.id), await monitorWithHistory(owner.id)];
    const theirs = await monitorWithHistory(other.id);

    await database.db.delete(users).where(eq(users.id, owner.id));

    expect(await resultsOf([...mine, theirs])).toEqual({ [theirs]: 31 });
  });
});
