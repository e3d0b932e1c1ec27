// The history a running Vigil keeps, seeded with set-based SQL: one-minute check results, their hourly roll-ups,
// the hourly tallies on the monitor rows and the roll-up job's progress (bench/api.mjs and bench/checks.mjs start
// from it).

export const HOUR = 3_600_000;
/** RESULT_RETENTION_HOURS' default: the roll-up job drops the partitions of raw results older than this. */
export const RETENTION_HOURS = 48;

const iso = (ms) => new Date(ms).toISOString();

/**
 * `userId`'s monitors as a running system holds them: one-minute results over the last `hours`, written minute by
 * minute across all the monitors as the engine writes them (so one monitor's rows are scattered over the table,
 * one per heap page); the hourly roll-ups the roll-up job makes from them (its own query) for every hour before
 * the current one, as in an hour's first minutes; with `olderRollupHours`, older roll-ups back that far from now;
 * and the hourly tallies the engine keeps on each monitor's row. All results but the newest two hours are
 * vacuumed, as autovacuum would have done; the newest hours are not, as in a live table. The results land in the
 * time partitions the server made at start-up (the retention window and a day ahead), as the engine's do. Hour
 * by hour, oldest first; the results run up to the minute the seeding ends, however long it takes.
 * `query(text, params)` is a pg client's or PGlite's; `progress(message)` hears of each hour.
 */
export async function seedHistory(
  query,
  userId,
  { hours = RETENTION_HOURS, olderRollupHours = 0, progress = () => {} } = {},
) {
  const startHour = Math.floor(Date.now() / HOUR) * HOUR;
  const firstRawHour = startHour - hours * HOUR;
  const monitors = `(select id, row_number() over (order by created_at) as n from monitors where user_id = $1)`;
  if (olderRollupHours > 0)
    await query(
      `insert into check_rollups (monitor_id, hour, checks, failures, p50_ms, p95_ms, p99_ms, avg_ms)
       select m.id, h, 60, ((extract(epoch from h) / 3600)::bigint + m.n) % 7 / 3, 40 + m.n % 20, 70 + m.n % 20,
         90 + m.n % 20, 45 + m.n % 20
       from generate_series($2::timestamptz, $3::timestamptz, interval '1 hour') h cross join ${monitors} m
       order by h, m.n`,
      [userId, iso(startHour - olderRollupHours * HOUR), iso(firstRawHour - HOUR)],
    );
  let vacuumed = false;
  // The next minute to write: hours are written and rolled up until the writing catches up with the clock.
  for (let next = firstRawHour; ;) {
    const now = Date.now();
    const hour = Math.floor(next / HOUR) * HOUR;
    if (!vacuumed && hour >= Math.floor(now / HOUR) * HOUR - HOUR) {
      await query('vacuum analyze check_results, check_rollups');
      vacuumed = true;
    }
    const until = Math.min(hour + HOUR - 60_000, Math.floor(now / 60_000) * 60_000);
    if (until >= next) {
      const started = Date.now();
      await query(
        `insert into check_results (monitor_id, slot_at, checked_at, ok, response_ms, status_code, failed_conditions, error)
         select m.id, s.at, s.at + (80 + m.n % 50) * interval '1 millisecond', r.ok, 30 + (r.k + 7 * m.n) % 50,
           case when r.ok then 200 else 503 end,
           case when r.ok then '[]'::jsonb else '["http_status"]'::jsonb end,
           case when r.ok then null else 'HTTP 503 from http://127.0.0.1:9/' end
         from generate_series($2::timestamptz, $3::timestamptz, interval '1 minute') s(at)
           cross join ${monitors} m
           cross join lateral (select (extract(epoch from s.at) / 60)::bigint as k) k0
           cross join lateral (select k0.k as k, (k0.k + m.n) % 97 <> 0 as ok) r
         order by s.at, m.n`,
        [userId, iso(next), iso(until)],
      );
      progress(
        `history: results of ${iso(next).slice(0, 16)} to ${iso(until).slice(11, 16)} written in ${Date.now() - started} ms`,
      );
      next = until + 60_000;
    }
    if (next < hour + HOUR) break;
    // The roll-up job's query (apps/server/src/engine/check.repository.ts, rollUp), for this whole hour.
    await query(
      `insert into check_rollups (monitor_id, hour, checks, failures, p50_ms, p95_ms, p99_ms, avg_ms)
       select monitor_id, date_trunc('hour', slot_at, 'UTC'), count(*), count(*) filter (where not ok),
         percentile_cont(0.5) within group (order by response_ms),
         percentile_cont(0.95) within group (order by response_ms),
         percentile_cont(0.99) within group (order by response_ms),
         avg(response_ms)
       from check_results
       where slot_at >= $1 and slot_at < $2 and monitor_id in (select id from monitors where user_id = $3)
       group by monitor_id, date_trunc('hour', slot_at, 'UTC')`,
      [iso(hour), iso(hour + HOUR), userId],
    );
  }
  // The engine counts each check on its monitor's row as it records it (modules/monitors/uptime-tally.ts in
  // the server): the same hourly tallies of the last 24 hours, from the results just written.
  await query(
    `with per_hour as (
       select monitor_id, date_trunc('hour', checked_at, 'UTC') as hour, count(*) as checks,
         count(*) filter (where not ok) as failures
       from check_results
       where checked_at >= date_trunc('hour', now(), 'UTC') - interval '23 hours'
         and monitor_id in (select id from monitors where user_id = $1)
       group by 1, 2
     ), tallies as (
       select p.monitor_id, max(p.hour) as hour,
         array_agg(coalesce(h.checks, 0)::smallint order by i) as checks,
         array_agg(coalesce(h.failures, 0)::smallint order by i) as failures
       from (select monitor_id, max(hour) as hour from per_hour group by 1) p
         cross join generate_series(0, 23) i
         left join per_hour h on h.monitor_id = p.monitor_id and h.hour = p.hour - i * interval '1 hour'
       group by p.monitor_id
     )
     update monitors m set tally_hour = t.hour, tally_checks = t.checks, tally_failures = t.failures
     from tallies t where m.id = t.monitor_id`,
    [userId],
  );
  // The roll-up job's progress as a running system's stands (apps/server/src/engine/retention.ts): every hour
  // closed 15 minutes ago is rolled up, so the next run reads only the hours that close after the seeding.
  await query(
    `insert into rollup_progress (source, rolled_until) values ('check_results', $1)
     on conflict (source) do update set rolled_until = excluded.rolled_until`,
    [iso(Math.floor((Date.now() - 15 * 60_000) / HOUR) * HOUR)],
  );
  await query('analyze');
}
