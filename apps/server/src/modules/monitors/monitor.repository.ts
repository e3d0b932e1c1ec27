import { and, desc, eq, getTableColumns, inArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.ts';
import { arrayRows, rowDecoder } from '../../db/array-rows.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { createBusyBatchLoader } from '../../lib/batch-loader.ts';
import { monitorCounts, monitorOrder, monitors } from '../../db/schema.ts';
import { endIncidentsOfPaused } from '../alerts/incident.repository.ts';

export type MonitorRow = typeof monitors.$inferSelect;

// What the API shows of a monitor: the engine's working state (check state, lease, next slot) stays out.
const HIDDEN = [
  'userId',
  'nextCheckAt',
  'checkState',
  'claimedUntil',
  'recheckRequested',
  'updatedAt',
] as const;
type ShownColumns = Omit<ReturnType<typeof getTableColumns<typeof monitors>>, (typeof HIDDEN)[number]>;
const shownColumns = {
  ...(Object.fromEntries(
    Object.entries(getTableColumns(monitors)).filter(([key]) => !(HIDDEN as readonly string[]).includes(key)),
  ) as ShownColumns),
  // As JSON, which the driver parses natively: several times cheaper than PostgreSQL's array text.
  tallyChecks: sql<number[]>`array_to_json(${monitors.tallyChecks})`,
  tallyFailures: sql<number[]>`array_to_json(${monitors.tallyFailures})`,
};
/** The columns of a monitor the API shows. */
export type ShownMonitorRow = Omit<MonitorRow, (typeof HIDDEN)[number]>;

// What a list shows of a monitor (the contract's monitorListItem): its settings stay out, the heaviest columns to
// read, send and decode (conditions and alert settings are JSON).
const SETTINGS = [
  'conditions',
  'alertSettings',
  'repeatIntervalMinutes',
  'confirmations',
  'languageCode',
  'linkedMonitorId',
] as const;
type ListedColumns = Omit<typeof shownColumns, (typeof SETTINGS)[number]>;
const listedColumns = Object.fromEntries(
  Object.entries(shownColumns).filter(([key]) => !(SETTINGS as readonly string[]).includes(key)),
) as ListedColumns;
/** The columns of a monitor a list shows. */
export type ListedMonitorRow = Omit<ShownMonitorRow, (typeof SETTINGS)[number]>;

/** A monitor as the detail shows it: its row and how many of its incidents are unresolved. */
export interface MonitorView {
  row: ShownMonitorRow;
  openIncidents: number;
}

/** A monitor as a list shows it. */
export interface ListedMonitorView {
  row: ListedMonitorRow;
  openIncidents: number;
}

// Spelled out: drizzle leaves the columns of a one-table select unqualified, which inside the subquery would
// name the incident's own id.
const openIncidents = sql<number>`(select count(*) from incidents as open
  where open.monitor_id = monitors.id and open.state <> 'resolved')::int`;

/**
 * A page bound as PostgreSQL's planner cannot see it. With `limit $2` PostgreSQL plans each execution for its
 * value (a custom plan, ~0.15 ms a page) and never settles on the one plan every page shares: that generic plan
 * guesses a tenth of the user's monitors for an unseen limit, so it always looks dearer than a plan made for 20.
 * Behind a sub-select no plan sees the value, the guesses are equal, and after five executions PostgreSQL keeps
 * the generic plan.
 */
const unseen = (name: string) => sql`(select ${sql.placeholder(name)}::int)`;

/** The page `limit` and `offset` name, of `user`'s monitors: its statement, for one page or, laterally, for many. */
function pageQuery(db: Db, user: SQL | Placeholder, limit: SQL, offset: SQL) {
  // drizzle's limit() and offset() are typed for a number or a placeholder, and embed any SQL.
  const bound = (value: SQL) => value as unknown as Placeholder;
  // The page's entries in `monitor_order`, in the list's order; the monitors are joined to them, so PostgreSQL
  // keeps that order (no sort) and looks up only the page's rows.
  const entries = db
    .select({
      monitorId: monitorOrder.monitorId,
      orderedAt: sql<Date>`${monitorOrder.createdAt}`.as('ordered_at'),
    })
    .from(monitorOrder)
    .where(eq(monitorOrder.userId, user))
    .orderBy(desc(monitorOrder.createdAt), desc(monitorOrder.monitorId))
    .limit(bound(limit))
    .offset(bound(offset))
    .as('entries');
  return db
    .select({
      row: listedColumns,
      openIncidents,
      total: sql<number>`coalesce((select ${monitorCounts.monitors} from ${monitorCounts} where ${monitorCounts.userId} = ${user}), 0)`,
    })
    .from(entries)
    .innerJoin(monitors, eq(monitors.id, entries.monitorId))
    .orderBy(desc(entries.orderedAt), desc(entries.monitorId));
}

/** A page asked for: whose, how many monitors and after how many. */
interface PageKey {
  userId: string;
  limit: number;
  offset: number;
}
const pageKey = ({ userId, limit, offset }: PageKey) => `${userId} ${limit} ${offset}`;
function keyedPage(key: string): PageKey {
  const [userId = '', limit, offset] = key.split(' ');
  return { userId, limit: Number(limit), offset: Number(offset) };
}

/**
 * Under load, the list requests that arrive while PostgreSQL answers others are read together: one statement
 * reads each page beside the others (`unnest … with ordinality`, each page laterally, rows tagged with their
 * page's place), up to 50 pages, with at most 2 such statements at once (bench/README.md, "API with 100,000
 * monitors stored": at 100 connections 2,100–2,400 list requests a second instead of 1,800–1,900).
 */
const PAGES_AT_ONCE = { inFlight: 2, most: 50 };

/**
 * The two reads behind every list and detail request, one statement each, prepared once per connection:
 * PostgreSQL plans them once (see `unseen`) and the server builds their SQL once. A page's ids are skipped to in
 * `monitor_order`, from its primary key alone, and the user's monitor count is read from `monitor_counts`; then the
 * page's rows are joined to those entries, so open incidents are counted for them only. The page, a list request's whole
 * read, is run and decoded without drizzle's row mapping (`arrayRows`), and shares its statement with the pages
 * asked for at the same time (`createBusyBatchLoader`); the detail's one row is drizzle's.
 */
function prepareViews(db: Db) {
  const user = sql.placeholder('userId');
  const onePage = arrayRows(
    db,
    'monitor_view_page',
    pageQuery(db, user, unseen('limit'), unseen('offset')).toSQL(),
  );
  const manyPages = arrayRows(
    db,
    'monitor_view_pages',
    new PgDialect().sqlToQuery(sql`select pages.place, page.*
      from unnest(${sql.placeholder('users')}::uuid[], ${sql.placeholder('limits')}::int[],
        ${sql.placeholder('offsets')}::int[]) with ordinality as pages(user_id, page_limit, page_offset, place)
      cross join lateral (${pageQuery(db, sql.raw('pages.user_id'), sql.raw('pages.page_limit'), sql.raw('pages.page_offset'))}) as page
      order by pages.place, page.created_at desc, page.id desc`),
  );
  const readPage = createBusyBatchLoader<unknown[][]>(async (keys) => {
    const asked = keys.map(keyedPage);
    if (asked.length === 1) return new Map([[keys[0]!, await onePage(asked[0]!)]]);
    const rows = await manyPages({
      users: asked.map((page) => page.userId),
      limits: asked.map((page) => page.limit),
      offsets: asked.map((page) => page.offset),
    });
    const pages = new Map(keys.map((key) => [key, [] as unknown[][]]));
    // `place` counts from 1 (an int8, which the driver gives as text).
    for (const [place, ...cells] of rows) pages.get(keys[Number(place) - 1]!)!.push(cells);
    return pages;
  }, PAGES_AT_ONCE);
  const decodeRow = rowDecoder(listedColumns);
  const width = Object.keys(listedColumns).length;
  return {
    /** The page's monitors, newest first, and how many the user has (on each row). */
    async page(values: PageKey) {
      const rows = (await readPage(pageKey(values))) ?? [];
      return rows.map((cells) => ({
        row: decodeRow(cells) as ListedMonitorRow,
        openIncidents: cells[width] as number,
        total: cells[width + 1] as number,
      }));
    },
    one: db
      .select({ row: shownColumns, openIncidents })
      .from(monitors)
      .where(and(eq(monitors.userId, user), eq(monitors.id, sql.placeholder('id'))))
      .prepare('monitor_view_one'),
  };
}

/** What a person sets on a monitor; the engine owns the rest (status, next check, results). */
export type MonitorSettings = Pick<
  MonitorRow,
  | 'name'
  | 'service'
  | 'target'
  | 'conditions'
  | 'intervalSeconds'
  | 'repeatIntervalMinutes'
  | 'confirmations'
  | 'alertSettings'
  | 'languageCode'
  | 'connectionId'
  | 'linkedMonitorId'
>;

export function createMonitorRepository(db: Db) {
  const owned = (userId: string, ids: string[]) =>
    and(eq(monitors.userId, userId), inArray(monitors.id, ids));
  let views: ReturnType<typeof prepareViews> | undefined;
  const prepared = () => (views ??= prepareViews(db));

  return {
    async countOfUser(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: monitorCounts.monitors })
        .from(monitorCounts)
        .where(eq(monitorCounts.userId, userId));
      return row?.n ?? 0;
    },

    /** The first check is due at once; `check_state` starts empty. */
    async insert(userId: string, settings: MonitorSettings, now: Date): Promise<MonitorRow> {
      const [row] = await db
        .insert(monitors)
        .values({
          ...settings,
          userId,
          paused: false,
          status: 'pending',
          nextCheckAt: now,
          checkState: {},
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return row!;
    },

    async findOwned(userId: string, id: string): Promise<MonitorRow | undefined> {
      const [row] = await db
        .select()
        .from(monitors)
        .where(and(eq(monitors.userId, userId), eq(monitors.id, id)));
      return row;
    },

    /**
     * Changes the settings and keeps the history. A changed interval brings the next check no later than one
     * new interval from now (a check already due sooner stays due).
     */
    async updateSettings(
      userId: string,
      id: string,
      settings: MonitorSettings,
      now: Date,
    ): Promise<MonitorRow | undefined> {
      const soonest = new Date(now.getTime() + settings.intervalSeconds * 1000).toISOString();
      const [row] = await db
        .update(monitors)
        .set({
          ...settings,
          nextCheckAt: sql`case when ${monitors.intervalSeconds} = ${settings.intervalSeconds} then ${monitors.nextCheckAt} else least(${monitors.nextCheckAt}, ${soonest}::timestamptz) end`,
          updatedAt: now,
        })
        .where(and(eq(monitors.userId, userId), eq(monitors.id, id)))
        .returning();
      return row;
    },

    /** A page of the user's monitors, newest first, and how many monitors the user has. */
    async viewPage(
      userId: string,
      limit: number,
      offset: number,
    ): Promise<{ views: ListedMonitorView[]; total: number }> {
      const views = await prepared().page({ userId, limit, offset });
      if (views.length === 0) return { views, total: offset === 0 ? 0 : await this.countOfUser(userId) };
      return { views, total: views[0]!.total };
    },

    async viewOwned(userId: string, id: string): Promise<MonitorView | undefined> {
      const [view] = await prepared().one.execute({ userId, id });
      return view;
    },

    /** How many of `ids` (distinct) the user owns; rows are locked until the transaction ends. */
    async lockOwned(userId: string, ids: string[]): Promise<number> {
      const rows = await db
        .select({ id: monitors.id })
        .from(monitors)
        .where(owned(userId, ids))
        .for('update');
      return rows.length;
    },

    async deleteOwned(userId: string, ids: string[]): Promise<number> {
      const rows = await db.delete(monitors).where(owned(userId, ids)).returning({ id: monitors.id });
      return rows.length;
    },

    /**
     * Moves the next check of a running monitor to `now`, unless a worker holds it for a check right now
     * (its result is on the way). Answers whether it moved.
     */
    async checkNow(userId: string, id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(monitors)
        .set({ nextCheckAt: now, updatedAt: now })
        .where(
          and(
            owned(userId, [id]),
            eq(monitors.paused, false),
            sql`(${monitors.claimedUntil} is null or ${monitors.claimedUntil} <= ${now.toISOString()}::timestamptz)`,
          ),
        )
        .returning({ id: monitors.id });
      return rows.length > 0;
    },

    /** Running monitors down or confirming a failure, and incidents open and not acknowledged: one round trip. */
    async summary(userId: string): Promise<{ down: number; confirming: number; openAlerts: number }> {
      const [row] = await rowsOf<{ down: number; confirming: number; open_alerts: number }>(
        db,
        sql`select
              count(*) filter (where status = 'down')::int as down,
              count(*) filter (where status = 'confirming')::int as confirming,
              (select count(*) from incidents where user_id = ${userId}::uuid and state = 'open')::int as open_alerts
            from monitors where user_id = ${userId}::uuid and paused = false`,
      );
      return { down: row?.down ?? 0, confirming: row?.confirming ?? 0, openAlerts: row?.open_alerts ?? 0 };
    },

    /**
     * The person pauses or starts: starting a paused monitor checks it at once; a running one keeps its schedule.
     * Either way the monitor is the person's choice from now on, so Vigil's pause reason goes. Pausing ends
     * the monitors' unresolved incidents (`endIncidentsOfPaused`; call it inside a transaction).
     */
    async setPaused(userId: string, ids: string[], paused: boolean, now: Date): Promise<number> {
      const rows = await db
        .update(monitors)
        .set(
          paused
            ? { paused, pauseReason: null, updatedAt: now }
            : {
                paused,
                pauseReason: null,
                nextCheckAt: sql`case when ${monitors.paused} then ${now.toISOString()}::timestamptz else ${monitors.nextCheckAt} end`,
                updatedAt: now,
              },
        )
        .where(owned(userId, ids))
        .returning({ id: monitors.id });
      if (paused)
        await endIncidentsOfPaused(
          db,
          rows.map((row) => row.id),
          now,
        );
      return rows.length;
    },
  };
}
export type MonitorRepository = ReturnType<typeof createMonitorRepository>;
