import type { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { createWakeups, JOBS_CHANNEL, type Wakeups } from '../db/wakeups.ts';
import { ALL_JOBS } from './all-jobs.ts';
import type { JobDefinition, WorkerDeps } from './job.ts';

/** What services use to hand work to the background workers. */
export interface JobQueue {
  send<P>(job: JobDefinition<P>, payload: P, options?: SendOptions): Promise<void>;
}

export interface SendOptions {
  /** At most one job of this kind is created per window of this many seconds (across every process). */
  oncePerSeconds?: number;
  /** The job waits this long before a worker may take it. */
  startAfterSeconds?: number;
  /**
   * The job's id (a uuid): sending again while a job with that id is still kept (queued, running, retrying,
   * or finished within the last hour) creates nothing, so a sweep can re-send without doubling the work.
   */
  id?: string;
}

export interface Jobs {
  /** Usable at once; jobs sent before `run` wait in the database. */
  queue: JobQueue;
  /** Starts the workers (unless this process only enqueues) and routes job-engine errors to `deps.log`. */
  run(deps: WorkerDeps): Promise<void>;
  /** Stops fetching, waits for running jobs (up to 30 s), then lets go of the database. */
  stop(): Promise<void>;
}

export interface StartJobsOptions {
  database: Database;
  /** False for ROLE=api: this process only enqueues. */
  runWorkers: boolean;
  jobs?: JobDefinition<unknown>[];
  /** How often dead workers' jobs are expired (and old ones archived); tests shorten it. */
  maintenanceIntervalSeconds?: number;
  /** The process's LISTEN/NOTIFY; unset: the queue opens its own and closes it on `stop`. */
  wakeups?: Wakeups;
}

/** A NOTIFY on JOBS_CHANNEL: a job of `queue` may start `afterMs` from now. */
interface JobWakeup {
  queue: string;
  afterMs: number;
  /** The sending process's queue, which woke its own workers already. */
  from: string;
}

/**
 * pg-boss over the embedded PGlite: pg-boss sends parameterless scripts (its migrations, several statements
 * with their own BEGIN/COMMIT) that only `exec` runs, and `exec` leaves a failed script's transaction open.
 */
export function pgliteAdapter(pglite: PGlite): PgBoss.Db {
  return {
    async executeSql(text, values) {
      if (values) return pglite.query(text, values);
      try {
        const results = await pglite.exec(text);
        return results[results.length - 1] ?? { rows: [] };
      } catch (error) {
        await pglite.exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
  };
}

/**
 * Workers are woken when a job is sent (from any process: NOTIFY on JOBS_CHANNEL), when a delayed job or a
 * retry comes due, and after maintenance finds jobs due; pg-boss's own polling is only a safety net, kept by
 * one worker of each queue (the others are woken with it, and a worker that finished a job fetches again).
 */
const SAFETY_POLL_SECONDS = 60;
const OTHER_WORKERS_POLL_SECONDS = 600;
// Expiring the jobs of a worker that died happens in maintenance (default every 2 min): a dead worker's
// alert is taken over within its job's expiry plus this.
const MAINTENANCE_INTERVAL_SECONDS = 5;
// Embedded, the only worker is this process: its dead jobs wait for it to be started again anyway, so
// maintenance (five statements on the in-process database) runs less often.
const PGLITE_MAINTENANCE_INTERVAL_SECONDS = 30;
/** Longer than the safety polls, so an idle process keeps its connection instead of opening one each time. */
const POOL_IDLE_TIMEOUT_MS = 60_000;
/** Time enough for pg-boss to record a failed job as a retry before its workers are woken for it. */
const RECORD_FAILURE_MS = 250;
/**
 * Queues with a job startable now or before the next maintenance, and in how many ms (negative: overdue).
 * `state < 'active'` is created or retry, as pg-boss's own fetch index (`job_i5`) reads it.
 */
const NOTIFY_SQL = 'select pg_notify($1, $2)';
const DUE_JOBS_SQL = `select name, (extract(epoch from min(start_after) - now()) * 1000)::float8 as after_ms
  from pgboss.job where state < 'active' and start_after < now() + $1 * interval '1 second'
  group by name`;

export async function startJobs(options: StartJobsOptions): Promise<Jobs> {
  const { database, runWorkers } = options;
  const jobs = options.jobs ?? ALL_JOBS;
  const maintenanceInterval =
    options.maintenanceIntervalSeconds ??
    (database.kind === 'pglite' ? PGLITE_MAINTENANCE_INTERVAL_SECONDS : MAINTENANCE_INTERVAL_SECONDS);
  const settings: PgBoss.ConstructorOptions = {
    schedule: false,
    // Maintenance (expiring, archiving) runs where the workers run.
    supervise: runWorkers,
    maintenanceIntervalSeconds: maintenanceInterval,
    // Jobs may carry a reset code in clear; codes are dead after 30 minutes, so completed jobs go within a day.
    archiveCompletedAfterSeconds: 3600,
    deleteAfterDays: 1,
  };
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({ ...settings, db: pgliteAdapter(database.pglite) })
      : new PgBoss({
          ...settings,
          connectionString: database.connectionString,
          max: 4,
          application_name: 'vigil-jobs',
          // Passed on to pg's Pool, which pg-boss's types do not list.
          ...({ idleTimeoutMillis: POOL_IDLE_TIMEOUT_MS } as object),
        });
  let log: Pick<FastifyBaseLogger, 'error' | 'warn'> = console;
  const localWorkers = new Map<string, string[]>();
  const timers = new Set<NodeJS.Timeout>();
  const self = randomUUID();
  const wakeups = options.wakeups ?? createWakeups(database);
  let stopped = false;

  /** Wakes this process's workers of `queue` now, or when a job sent with a delay may start. */
  function wakeLocal(queue: string, afterMs = 0): void {
    const workers = localWorkers.get(queue);
    if (!workers || stopped) return;
    if (afterMs <= 0) {
      for (const id of workers) boss.notifyWorker(id);
      return;
    }
    // A little after the start time, so the fetch does not come a moment too early for PostgreSQL's clock.
    const timer = setTimeout(() => {
      timers.delete(timer);
      wakeLocal(queue);
    }, afterMs + 50);
    timers.add(timer);
  }

  /**
   * Wakes the workers of `queue` in every process; a lost NOTIFY is found by the next safety poll. The NOTIFY
   * goes through pg-boss's own connections, and the sender does not wait for it: under load the app's pool is
   * busy with the check engine, and alerts must not queue behind it.
   */
  function announce(queue: string, afterMs: number): void {
    wakeLocal(queue, afterMs);
    const wakeup: JobWakeup = { queue, afterMs, from: self };
    boss
      .getDb()
      .executeSql(NOTIFY_SQL, [JOBS_CHANNEL, JSON.stringify(wakeup)])
      .catch(() => undefined);
  }

  /**
   * After maintenance (which expires dead workers' jobs into retries): every queue with a job due before the
   * next maintenance is announced, so retries, expired jobs and delayed jobs start on time without polling.
   */
  async function announceDue(): Promise<void> {
    const { rows } = (await boss.getDb().executeSql(DUE_JOBS_SQL, [maintenanceInterval])) as {
      rows: { name: string; after_ms: number }[];
    };
    for (const row of rows) announce(row.name, Math.max(0, Math.ceil(row.after_ms)));
  }

  boss.on('error', (error) => log.error({ err: error }, 'job engine error'));
  boss.on('maintenance', () => {
    if (!stopped) announceDue().catch((error: unknown) => log.warn({ err: error }, 'waking due jobs failed'));
  });
  await boss.start();
  for (const job of jobs) {
    await boss.createQueue(job.name, { name: job.name, ...job.retry });
  }
  const unlisten = await wakeups.listen(JOBS_CHANNEL, (payload) => {
    if (payload === null) {
      // Notifications may have been lost with the connection: every worker looks once.
      for (const queue of localWorkers.keys()) wakeLocal(queue);
      return;
    }
    try {
      const wakeup = JSON.parse(payload) as JobWakeup;
      if (wakeup.from !== self) wakeLocal(wakeup.queue, wakeup.afterMs);
    } catch {
      // Not ours: a NOTIFY on this channel by hand, say.
    }
  });

  return {
    queue: {
      async send(job, payload, options) {
        const data = job.payload.parse(payload) as object;
        let id: string | null;
        if (options?.oncePerSeconds) {
          id = await boss.sendThrottled(job.name, data, {}, options.oncePerSeconds, job.name);
        } else if (options?.startAfterSeconds) {
          id = await boss.send(job.name, data, {
            startAfter: options.startAfterSeconds,
            ...(options.id ? { id: options.id } : {}),
          });
        } else {
          id = await boss.send(job.name, data, options?.id ? { id: options.id } : {});
        }
        // Null: nothing was created (throttled, or that id is still kept), so nobody needs waking.
        if (id) announce(job.name, (options?.startAfterSeconds ?? 0) * 1000);
      },
    },
    async run(deps) {
      log = deps.log;
      if (!runWorkers) return;
      for (const job of jobs) {
        const ids: string[] = [];
        // One job per fetch, so a failure retries only that job; several workers give the concurrency.
        for (let i = 0; i < job.concurrency; i++) {
          let workerId = '';
          const handler = async ([received]: PgBoss.JobWithMetadata<unknown>[]) => {
            if (!received) return;
            try {
              await job.handle(job.payload.parse(received.data), deps, {
                id: received.id,
                retryCount: received.retryCount,
                retryLimit: received.retryLimit,
                expireInSeconds: job.retry.expireInSeconds,
              });
            } catch (error) {
              deps.log.warn({ err: error, job: job.name, id: received.id }, 'job failed; pg-boss retries it');
              if (received.retryCount < received.retryLimit) wakeForRetry(job, received.retryCount);
              throw error;
            } finally {
              // Fetch again at once rather than after the safety poll: more jobs may be waiting.
              boss.notifyWorker(workerId);
            }
          };
          workerId = await boss.work<unknown>(
            job.name,
            {
              pollingIntervalSeconds: i === 0 ? SAFETY_POLL_SECONDS : OTHER_WORKERS_POLL_SECONDS,
              batchSize: 1,
              includeMetadata: true,
            },
            handler,
          );
          ids.push(workerId);
        }
        localWorkers.set(job.name, ids);
      }
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      unlisten();
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
      if (!options.wakeups) await wakeups.close();
    },
  };

  /**
   * pg-boss starts a failed job's retry after its delay, drawn at random between half and all of
   * `retryDelay × 2^(retryCount + 1)` with backoff: the queue's workers here are woken at both ends.
   */
  function wakeForRetry(job: JobDefinition<unknown>, retryCount: number): void {
    const { retryDelay, retryBackoff } = job.retry;
    const longest = retryBackoff ? retryDelay * 2 ** Math.min(16, retryCount + 1) : retryDelay;
    // pg-boss records the failure after the handler returns, without waiting: never look before it has.
    const atLeast = (ms: number) => Math.max(ms, RECORD_FAILURE_MS);
    wakeLocal(job.name, atLeast((retryBackoff ? longest / 2 : longest) * 1000));
    if (retryBackoff) wakeLocal(job.name, atLeast(longest * 1000));
  }
}
