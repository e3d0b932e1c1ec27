import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { createStore } from '../../db/store.ts';
import { databases, oneSession } from '../../test/databases.ts';
import { copyMonitor, insertMonitor, userWithVerifiedEmail } from '../../test/engine-kit.ts';
import { createMonitorRepository } from './monitor.repository.ts';

describe.each(databases)('the list page’s statement on $name', (testDatabase) => {
  let drop: () => Promise<void>;
  let database: Database;
  let session: Database;
  let closeSession: () => Promise<void>;
  let userId: string;
  const ids: string[] = [];
  /** The other user's monitors, newest first. */
  let otherId: string;
  const otherIds: string[] = [];

  beforeAll(async () => {
    ({ database, drop } = await testDatabase.create());
    // One connection, so every execution and the look at its plans share a session.
    ({ session, close: closeSession } = await oneSession(database));
    // 500 monitors each (the Business plan's limit) for two users, and the statistics PostgreSQL keeps of them:
    // what decides how it plans the page.
    const store = createStore(database.db);
    const start = new Date('2026-11-27T12:00:00Z');
    const owners = [await userWithVerifiedEmail(store, start), await userWithVerifiedEmail(store, start)];
    for (const owner of owners) {
      const first = await insertMonitor(database.db, {
        userId: owner.id,
        url: 'https://shop.example/',
        email: owner.email,
        nextCheckAt: start,
      });
      await copyMonitor(database.db, first, 499);
    }
    await database.db.execute(sql`analyze monitors, monitor_order, monitor_counts`);
    [otherId, userId] = owners.map((owner) => owner.id) as [string, string];
    const newestFirst = async (owner: string) =>
      (
        await rowsOf<{ id: string }>(
          database.db,
          sql`select id::text from monitors where user_id = ${owner} order by created_at desc, id desc`,
        )
      ).map((row) => row.id);
    ids.push(...(await newestFirst(userId)));
    otherIds.push(...(await newestFirst(otherId)));
  });

  afterAll(async () => {
    await closeSession();
    await drop();
  });

  const readPages = async (rounds: number) => {
    const monitors = createMonitorRepository(session.db);
    for (let round = 0; round < rounds; round++) {
      for (const [offset, limit] of [
        [0, 20],
        [240, 20],
        [480, 20],
        [100, 50],
      ] as const) {
        const { views, total } = await monitors.viewPage(userId, limit, offset);
        expect(total).toBe(500);
        expect(views.map((view) => view.row.id)).toEqual(ids.slice(offset, offset + limit));
      }
    }
  };

  it('answers each page newest first, with the count', async () => {
    await readPages(3);
  });

  it('answers pages asked for at once, of two people, each with its own monitors in order', async () => {
    const monitors = createMonitorRepository(session.db);
    // 40 at once: two run alone, the rest wait and are read together in batches (PAGES_AT_ONCE); identical pages
    // asked for together are read once.
    const asked = Array.from({ length: 40 }, (_, i) => ({
      mine: i % 2 === 0,
      limit: [20, 5, 50][i % 3]!,
      offset: [0, 20, 485, 500, 240][i % 5]!,
    }));
    const answers = await Promise.all(
      asked.map(({ mine, limit, offset }) => monitors.viewPage(mine ? userId : otherId, limit, offset)),
    );
    answers.forEach(({ views, total }, i) => {
      const { mine, limit, offset } = asked[i]!;
      expect(total).toBe(500);
      expect(views.map((view) => view.row.id)).toEqual((mine ? ids : otherIds).slice(offset, offset + limit));
    });
    const [batched] = await rowsOf<{ n: number }>(
      session.db,
      sql`select count(*)::int as n from pg_prepared_statements where name = 'monitor_view_pages'`,
    );
    expect(batched!.n).toBe(1);
  });

  it('reads a page’s monitors as the detail reads each one', async () => {
    const monitors = createMonitorRepository(session.db);
    await database.db.execute(sql`
      update monitors set status = 'down', last_checked_at = '2026-11-27T12:34:56.789Z', last_response_ms = 812,
        last_error = 'HTTP 503', tally_hour = '2026-11-27T12:00:00Z', tally_checks = '{3,60}', tally_failures = '{1,0}',
        paused = true, pause_reason = 'plan'
      where id = ${ids[1]}`);
    await database.db.execute(sql`
      insert into incidents (monitor_id, user_id, condition_key, state, summary, opened_at)
      values (${ids[1]}, ${userId}, 'http_status', 'open', 'HTTP 503', now())`);
    const { views } = await monitors.viewPage(userId, 3, 0);
    expect(views[1]!.row).toMatchObject({
      status: 'down',
      lastCheckedAt: new Date('2026-11-27T12:34:56.789Z'),
      tallyHour: new Date('2026-11-27T12:00:00Z'),
      tallyChecks: [3, 60],
      tallyFailures: [1, 0],
      paused: true,
    });
    expect(views[1]!.openIncidents).toBe(1);
    for (const view of views) {
      const one = (await monitors.viewOwned(userId, view.row.id))!;
      const listed = Object.fromEntries(
        Object.keys(view.row).map((key) => [key, one.row[key as keyof typeof one.row]]),
      );
      expect(view.row).toEqual(listed);
      expect(view.openIncidents).toBe(one.openIncidents);
    }
  });

  it('keeps one plan for every page instead of planning each', async () => {
    await readPages(3);
    const [plans] = await rowsOf<{ generic: number; custom: number }>(
      session.db,
      sql`select generic_plans::int as generic, custom_plans::int as custom
          from pg_prepared_statements where name = 'monitor_view_page'`,
    );
    // PostgreSQL tries five custom plans before it compares; after them every execution (12 here, and the other
    // tests') reuses the generic one.
    expect(plans!.custom).toBe(5);
    expect(plans!.generic).toBeGreaterThanOrEqual(12 - 5);
  });
});
