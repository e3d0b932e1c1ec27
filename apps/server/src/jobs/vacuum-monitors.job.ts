import { z } from 'zod';
import { defineJob } from './job.ts';

/**
 * Vacuums the monitors table where no autovacuum does: PGlite has none, and a PostgreSQL may run with it off.
 * The engine rewrites a running monitor's row twice a check (the claim and the result), so without a vacuum its
 * dead versions pile up, and the claim's walk over the due index steps over every one of them. Measured at
 * 10,000 monitors on a PostgreSQL with autovacuum off (`checks-long`): 91,000 dead rows 8 minutes into the run and
 * 128,000 three minutes later, the claim's scan at 297 and then 373 buffers (9 and 14 ms under EXPLAIN ANALYZE)
 * and growing. Sent once a minute by a check engine that checked something in that minute, so an idle system
 * sends nothing; where autovacuum runs (its launcher is up) the job does nothing. It analyses the table too when its
 * statistics are older than ANALYZE_EVERY_MINUTES (check.repository.ts).
 */
export const vacuumMonitorsJob = defineJob<Record<string, never>>({
  name: 'vacuum-monitors',
  payload: z.object({}).strict() as z.ZodType<Record<string, never>>,
  // The next minute's run does the same: no retries.
  retry: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 300 },
  concurrency: 1,
  async handle(_payload, { store, log }) {
    const vacuumed = await store.checks.vacuumMonitors();
    if (vacuumed) log.info({ table: 'monitors' }, 'vacuumed');
  },
});
