import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { pgArray } from '../db/pg-text.ts';
import { at, rowsOf } from '../db/raw-sql.ts';
import { TALLY_HOURS } from '../modules/monitors/uptime-tally.ts';
import type { CheckState } from './incident-machine.ts';

const list = (items: SQL[]) => sql.join(items, sql`, `);
/** One column of a batch, for `unnest`: a batch is written with a fixed statement of one parameter per column. */
const column = <T>(slots: T[], value: (slot: T) => string | number | boolean | null) =>
  pgArray(slots.map(value));

/**
 * A monitor claimed for one slot: what the check and the incident rules need. Its alert settings, which only a
 * check that opens or ends an incident uses, are read then (`alertSettingsOf`), not with every claim.
 */
export interface ClaimedMonitor {
  id: string;
  userId: string;
  service: string;
  target: unknown;
  conditions: unknown;
  intervalSeconds: number;
  repeatIntervalMinutes: number;
  confirmations: number;
  checkState: CheckState;
  /** The slot being checked (the row's `next_check_at` when claimed). */
  slotAt: Date;
  /** The same instant exactly as the database holds it, to match the row again when the result is written. */
  slotText: string;
}

interface ClaimRow {
  id: string;
  user_id: string;
  service: string;
  target: unknown;
  conditions: unknown;
  interval_seconds: number;
  repeat_interval_minutes: number;
  confirmations: number;
  check_state: CheckState | null;
  slot_ms: number;
  slot_text: string;
}

/** Monitors whose ids are at least `from` and below `to`; null is unbounded. */
export interface MonitorRange {
  from: string | null;
  to: string | null;
}

/** One checked slot, ready to be written. */
export interface CheckedSlot {
  monitorId: string;
  slotText: string;
  nextCheckAt: Date;
  checkedAt: Date;
  ok: boolean;
  responseMs: number | null;
  statusCode: number | null;
  failedConditions: string[];
  error: string | null;
  status: 'up' | 'confirming' | 'down';
  checkState: CheckState;
}

/** How old the monitors table's statistics may grow before its vacuum analyses it again. */
const ANALYZE_EVERY_MINUTES = 10;
const HOURS = sql.raw(String(TALLY_HOURS));
/** In the write of a check: the newest hour of the row's tally once the check is counted. */
const NEWEST_HOUR = sql`greatest(m.tally_hour, v.hour)`;
/** Hours from one instant to another, as a whole number. */
const hoursBetween = (from: SQL, to: SQL) => sql`(extract(epoch from ${to} - ${from}) / 3600)::int`;

/**
 * In the write of a check (`m` the monitor's row, `v.hour` the UTC hour the check started in): the row's hourly
 * counts (`counts`: its checks or its failures) with `add` more in that hour, exactly as `countCheck`
 * (uptime-tally.ts) counts. The tally moves on to a newer hour, each hour is counted at its place from it, and
 * a check older than the tally's hours is left out. Nearly every check falls in the row's newest hour: that
 * case only adds to the first element; the others build the moved array once, in a sub-select.
 */
function counted(counts: SQL, add: SQL): SQL {
  const shift = sql`case when m.tally_hour is null then ${HOURS}
    else least(${HOURS}, ${hoursBetween(sql`m.tally_hour`, NEWEST_HOUR)}) end`;
  return sql`case when m.tally_hour = v.hour and array_length(${counts}, 1) = ${HOURS}
      then array[(${counts}[1] + ${add})::smallint] || ${counts}[2:${HOURS}]
    else (select case when t.i < ${HOURS}
          then t.p[1:t.i] || (t.p[t.i + 1] + ${add})::smallint || t.p[t.i + 2:${HOURS}]
          else t.p end
      from (select (array_fill(0::smallint, array[${shift}]) || ${counts}
          || array_fill(0::smallint, array[${HOURS}]))[1:${HOURS}] as p,
        ${hoursBetween(sql`v.hour`, NEWEST_HOUR)} as i) as t)
    end`;
}

/**
 * The scheduler's SQL: claiming due slots and writing their results. The claim and the write, run for every batch,
 * are named statements (db/named-statement.ts), outside a transaction.
 */
export function createCheckRepository(db: Db) {
  return {
    /**
     * Claims up to `limit` monitors of the given services due by `dueBy` (now unless given: a worker claims a
     * little ahead and starts each check on its slot) in one statement, earliest first. A claimed row keeps its
     * `next_check_at` (the slot) and gets a lease; rows locked by another worker's claim are skipped, and a
     * row whose lease ran out (its worker died) is due again. With `from` (a slot exactly as the database holds
     * it, `slotText`), only slots at or after it: the walk of the due index starts there instead of at its start,
     * where every slot that workers hold lies.
     */
    async claimDue(options: {
      now: Date;
      dueBy?: Date;
      leaseUntil: Date;
      limit: number;
      services: string[];
      from?: string;
    }): Promise<ClaimedMonitor[]> {
      if (options.limit <= 0 || options.services.length === 0) return [];
      const rows = await rowsOf<ClaimRow>(
        db,
        sql`update monitors set claimed_until = ${at(options.leaseUntil)}
            where id in (
              select id from monitors
              where paused = false
                and next_check_at <= ${at(options.dueBy ?? options.now)}
                and next_check_at >= ${options.from ?? '-infinity'}::timestamptz
                and (claimed_until is null or claimed_until <= ${at(options.now)})
                and service = any(${pgArray(options.services)}::text[])
              order by next_check_at
              limit ${options.limit}
              for update skip locked)
            returning id, user_id, service, target, conditions, interval_seconds,
              repeat_interval_minutes, confirmations, check_state,
              (extract(epoch from next_check_at) * 1000)::float8 as slot_ms, next_check_at::text as slot_text`,
        'engine_claim_due',
      );
      return rows.map((row) => ({
        id: row.id,
        userId: row.user_id,
        service: row.service,
        target: row.target,
        conditions: row.conditions,
        intervalSeconds: row.interval_seconds,
        repeatIntervalMinutes: row.repeat_interval_minutes,
        confirmations: row.confirmations,
        checkState: row.check_state ?? {},
        slotAt: new Date(Math.round(row.slot_ms)),
        slotText: row.slot_text,
      }));
    },

    /**
     * Records a batch of checked slots in one statement: each monitor moves on to its next slot and keeps what
     * the check saw, and the check's result row is inserted, but only where the row still holds the checked slot
     * and is not paused: a slot whose lease ran out and was checked again by another worker, a monitor paused or
     * re-scheduled meanwhile, or a deleted one, is left alone and its result dropped. Returns the ids that moved
     * on; only their hourly tallies take the new check. A re-check asked for during the check
     * (`recheck_requested`) makes the next slot due at once. One statement is one transaction, so a batch with
     * no incident to write needs no other; with one, call it inside the transaction that writes the incident.
     * A result already written (it never should be) is kept as it was.
     */
    async record(slots: CheckedSlot[]): Promise<Set<string>> {
      if (slots.length === 0) return new Set();
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`with v as (
              select *, date_trunc('hour', checked_at, 'UTC') as hour from unnest(
                ${column(slots, (slot) => slot.monitorId)}::uuid[],
                ${column(slots, (slot) => slot.slotText)}::timestamptz[],
                ${column(slots, (slot) => slot.nextCheckAt.toISOString())}::timestamptz[],
                ${column(slots, (slot) => slot.checkedAt.toISOString())}::timestamptz[],
                ${column(slots, (slot) => slot.ok)}::boolean[],
                ${column(slots, (slot) => slot.responseMs)}::int[],
                ${column(slots, (slot) => slot.statusCode)}::int[],
                ${column(slots, (slot) => JSON.stringify(slot.failedConditions))}::jsonb[],
                ${column(slots, (slot) => slot.error)}::text[],
                ${column(slots, (slot) => slot.status)}::text[],
                ${column(slots, (slot) => JSON.stringify(slot.checkState))}::jsonb[])
                as v(id, slot_at, next_at, checked_at, ok, response_ms, status_code, failed_conditions, error,
                  status, state)),
            moved as (
              update monitors as m set
                next_check_at = case when m.recheck_requested
                  then greatest(v.checked_at, v.slot_at + interval '1 millisecond') else v.next_at end,
                recheck_requested = false, claimed_until = null, last_checked_at = v.checked_at,
                last_response_ms = v.response_ms, last_error = v.error, status = v.status, check_state = v.state,
                tally_hour = ${NEWEST_HOUR}, tally_checks = ${counted(sql`m.tally_checks`, sql`1`)},
                tally_failures = ${counted(sql`m.tally_failures`, sql`(not v.ok)::int`)}
              from v
              where m.id = v.id and m.next_check_at = v.slot_at and m.paused = false
              returning m.id),
            written as (
              insert into check_results (monitor_id, slot_at, checked_at, ok, response_ms, status_code,
                failed_conditions, error)
              select v.id, v.slot_at, v.checked_at, v.ok, v.response_ms, v.status_code, v.failed_conditions, v.error
              from v join moved on moved.id = v.id
              on conflict (monitor_id, slot_at) do nothing)
            select id::text from moved`,
        'engine_record',
      );
      return new Set(rows.map((row) => row.id));
    },

    /** These monitors' alert settings as they are now, by id: those of the checks that open or end an incident. */
    async alertSettingsOf(monitorIds: string[]): Promise<Map<string, unknown>> {
      if (monitorIds.length === 0) return new Map();
      const rows = await rowsOf<{ id: string; alert_settings: unknown }>(
        db,
        sql`select id::text, alert_settings from monitors where id = any(${pgArray(monitorIds)}::uuid[])`,
      );
      return new Map(rows.map((row) => [row.id, row.alert_settings]));
    },

    /**
     * VACUUM of the monitors table, unless an autovacuum launcher runs (then it is autovacuum's to do), with ANALYZE
     * when its statistics are missing or older than ANALYZE_EVERY_MINUTES. Answers whether it vacuumed. Not in a
     * transaction: VACUUM cannot run inside one. The statistics matter as much as the dead rows: without them
     * PostgreSQL guesses that few due rows are of a claimed service and plans the claim as a sort of every due row
     * (0.3–1.5 s a claim at 200,000 monitors). They barely move from one minute to the next, and ANALYZE reads a
     * sample of 30,000 rows: at 100,000 monitors it took 1.6 s, as long as the vacuum.
     */
    async vacuumMonitors(): Promise<boolean> {
      const [row] = await rowsOf<{ autovacuum: boolean; analysed: boolean }>(
        db,
        sql`select
              exists (select 1 from pg_stat_activity where backend_type = 'autovacuum launcher') as autovacuum,
              coalesce((select greatest(last_analyze, last_autoanalyze) from pg_stat_user_tables
                where relid = 'monitors'::regclass)
                > now() - make_interval(mins => ${ANALYZE_EVERY_MINUTES}), false) as analysed`,
      );
      if (row?.autovacuum) return false;
      await db.execute(row?.analysed ? sql`vacuum monitors` : sql`vacuum (analyze) monitors`);
      return true;
    },

    /**
     * Moves these monitors' next check to now. One a worker is checking right now keeps its slot and is marked
     * to be checked again as soon as that check is written, since it may have read the account before the change.
     */
    async requestChecks(monitorIds: string[], now: Date): Promise<number> {
      if (monitorIds.length === 0) return 0;
      const held = sql`(claimed_until is not null and claimed_until > ${at(now)})`;
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`update monitors set
              next_check_at = case when ${held} then next_check_at else ${at(now)} end,
              recheck_requested = ${held}
            where id in (${list(monitorIds.map((id) => sql`${id}::uuid`))}) and paused = false
            returning id::text`,
      );
      return rows.length;
    },

    /**
     * Checks at once the ads monitors linked to these monitors: an incident of a shop opened or resolved, so
     * "ads are spending while the shop cannot sell" opens or clears without waiting an interval.
     */
    async requestLinkedChecks(monitorIds: string[], now: Date): Promise<number> {
      if (monitorIds.length === 0) return 0;
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`select id::text from monitors
            where linked_monitor_id in (${list(monitorIds.map((id) => sql`${id}::uuid`))}) and paused = false`,
      );
      return this.requestChecks(
        rows.map((row) => row.id),
        now,
      );
    },

    /**
     * When the scheduler of these services next has something to do, null when nothing is scheduled: the
     * first slot free to claim, a lease on a due slot running out (its worker died), or a repeat alert. Each
     * part reads the start of a partial index.
     */
    async nextDueAt(now: Date, services: string[]): Promise<Date | null> {
      if (services.length === 0) return null;
      const ofServices = sql`service in (${list(services.map((service) => sql`${service}`))})`;
      const [row] = await rowsOf<{ due_ms: number | null }>(
        db,
        sql`select (extract(epoch from least(
              (select min(next_check_at) from monitors
                where paused = false and ${ofServices} and (claimed_until is null or claimed_until <= ${at(now)})),
              (select min(claimed_until) from monitors
                where paused = false and ${ofServices} and next_check_at <= ${at(now)} and claimed_until > ${at(now)}),
              (select min(i.next_alert_at) from incidents i join monitors m on m.id = i.monitor_id
                where i.state = 'open' and m.paused = false)
            )) * 1000)::float8 as due_ms`,
      );
      return row?.due_ms == null ? null : new Date(Math.round(row.due_ms));
    },

    /** Gives claimed slots back at once (shutdown before they were checked). */
    async release(monitorIds: string[]): Promise<void> {
      if (monitorIds.length === 0) return;
      await db.execute(
        sql`update monitors set claimed_until = null
            where id in (${list(monitorIds.map((id) => sql`${id}::uuid`))})`,
      );
    },

    /**
     * Splits the monitors into ranges of `size` each, or of more when that would make over `maxRanges`, in id
     * order (the last holds the rest), that together cover every id: the first range is unbounded below and the
     * last above, so a monitor created meanwhile falls into one of them.
     */
    async monitorRanges(size: number, maxRanges: number): Promise<MonitorRange[]> {
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`select id::text from (
              select id, row_number() over (order by id) as n, count(*) over () as total from monitors) numbered
            where n > 1 and (n - 1) % greatest(${Math.max(1, Math.floor(size))}::bigint, ceil(total::float8 / ${maxRanges})::bigint) = 0
            order by id`,
      );
      const bounds = [null, ...rows.map((row) => row.id), null];
      return bounds.slice(0, -1).map((from, i) => ({ from, to: bounds[i + 1] ?? null }));
    },

    /**
     * The monitors with a result of the hours from `from` to `until` (exclusive) checked at or after
     * `checkedFrom`: written after an earlier roll-up of those hours, or too close to it to be sure. A scan, far
     * cheaper than the roll-up's sorts.
     */
    async lateMonitors(from: Date, until: Date, checkedFrom: Date): Promise<string[]> {
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`select distinct monitor_id::text as id from check_results
            where slot_at >= ${at(from)} and slot_at < ${at(until)} and checked_at >= ${at(checkedFrom)}`,
      );
      return rows.map((row) => row.id);
    },

    /**
     * Rolls raw results up per hour of their slot for every hour from `from` on (up to `until`, exclusive, when
     * given), replacing earlier roll-ups of those hours; call it only for hours whose raw results are all still
     * kept. With `monitors`, only those monitors: a range of ids, or a list. Filtering on `slot_at`, the
     * partition key, it reads only the partitions holding those hours. A check starts at or after its slot, so
     * `checked_at >= from` drops no row: it lets the old table migration 0011 attached be read by its
     * `checked_at` index in the hours its range still reaches. Its own transaction (a savepoint inside the
     * caller's), so its planner setting holds wherever it is called from.
     */
    async rollUp(
      from: Date,
      until?: Date,
      options: { monitors?: MonitorRange | string[] } = {},
    ): Promise<number> {
      const { monitors } = options;
      if (Array.isArray(monitors) && monitors.length === 0) return 0;
      const hours = sql`slot_at >= ${at(from)} and checked_at >= ${at(from)}
        ${until ? sql`and slot_at < ${at(until)}` : sql``}`;
      const ofMonitors = Array.isArray(monitors)
        ? sql`and monitor_id = any(${pgArray(monitors)}::uuid[])`
        : sql`${monitors?.from ? sql`and monitor_id >= ${monitors.from}::uuid` : sql``}
          ${monitors?.to ? sql`and monitor_id < ${monitors.to}::uuid` : sql``}`;
      return db.transaction(async (tx) => {
        // The planner likes the primary key's order (monitor_id first) with an incremental sort by hour: one heap
        // page per result, as a monitor's results lie one per page across the hour, so ~6 M buffer reads at
        // 100,000 monitors that push the engine's pages out of shared buffers. A sequential scan of the hour's
        // partition and one sort read each page once, through a small ring of buffers: 10.7 s against 29.4 s for
        // 6 M results (bench/README.md, 2026-11-28, seventeenth session).
        await tx.execute(sql`set local enable_incremental_sort = off`);
        const rows = await rowsOf<{ n: number }>(
          tx,
          sql`with rolled as (
                insert into check_rollups (monitor_id, hour, checks, failures, p50_ms, p95_ms, p99_ms, avg_ms)
                select monitor_id, date_trunc('hour', slot_at, 'UTC'), count(*), count(*) filter (where not ok),
                  percentile_cont(0.5) within group (order by response_ms),
                  percentile_cont(0.95) within group (order by response_ms),
                  percentile_cont(0.99) within group (order by response_ms),
                  avg(response_ms)
                from check_results
                where ${hours} ${ofMonitors}
                group by monitor_id, date_trunc('hour', slot_at, 'UTC')
                on conflict (monitor_id, hour) do update set
                  checks = excluded.checks, failures = excluded.failures, p50_ms = excluded.p50_ms,
                  p95_ms = excluded.p95_ms, p99_ms = excluded.p99_ms, avg_ms = excluded.avg_ms
                returning 1)
              select count(*)::int as n from rolled`,
        );
        return rows[0]?.n ?? 0;
      });
    },

    /**
     * Where the roll-up of raw results stands (every slot hour before it is rolled up), starting it at `initial`
     * on the first run. The row stays locked until the transaction ends, so runs from several processes take
     * turns.
     */
    async rolledUntil(initial: Date): Promise<Date> {
      await db.execute(
        sql`insert into rollup_progress (source, rolled_until) values ('check_results', ${at(initial)})
            on conflict (source) do nothing`,
      );
      const [row] = await rowsOf<{ ms: number }>(
        db,
        sql`select (extract(epoch from rolled_until) * 1000)::float8 as ms
            from rollup_progress where source = 'check_results' for update`,
      );
      return new Date(Math.round(row!.ms));
    },

    async setRolledUntil(until: Date): Promise<void> {
      await db.execute(
        sql`update rollup_progress set rolled_until = ${at(until)} where source = 'check_results'`,
      );
    },
  };
}
export type CheckRepository = ReturnType<typeof createCheckRepository>;
