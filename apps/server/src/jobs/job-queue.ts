import type { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Database } from '../db/database.ts';
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

// pg-boss polls every 2 s and expires jobs after 15 min by default: emails should leave within a second.
const POLLING_INTERVAL_SECONDS = 0.5;
// Expiring the jobs of a worker that died happens in maintenance (default every 2 min): a dead worker's
// alert is taken over within its job's expiry plus this.
const MAINTENANCE_INTERVAL_SECONDS = 5;

export async function startJobs(options: StartJobsOptions): Promise<Jobs> {
  const { database, runWorkers } = options;
  const jobs = options.jobs ?? ALL_JOBS;
  const settings: PgBoss.ConstructorOptions = {
    schedule: false,
    // Maintenance (expiring, archiving) runs where the workers run.
    supervise: runWorkers,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? MAINTENANCE_INTERVAL_SECONDS,
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
        });
  let log: Pick<FastifyBaseLogger, 'error' | 'warn'> = console;
  const localWorkers = new Map<string, string[]>();
  boss.on('error', (error) => log.error({ err: error }, 'job engine error'));
  await boss.start();
  for (const job of jobs) {
    await boss.createQueue(job.name, { name: job.name, ...job.retry });
  }

  return {
    queue: {
      async send(job, payload, options) {
        const data = job.payload.parse(payload) as object;
        if (options?.oncePerSeconds) {
          await boss.sendThrottled(job.name, data, {}, options.oncePerSeconds, job.name);
        } else if (options?.startAfterSeconds) {
          await boss.send(job.name, data, {
            startAfter: options.startAfterSeconds,
            ...(options.id ? { id: options.id } : {}),
          });
        } else {
          await boss.send(job.name, data, options?.id ? { id: options.id } : {});
        }
        // A worker in this process starts at once instead of at its next poll.
        for (const id of localWorkers.get(job.name) ?? []) boss.notifyWorker(id);
      },
    },
    async run(deps) {
      log = deps.log;
      if (!runWorkers) return;
      for (const job of jobs) {
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
            throw error;
          }
        };
        // One job per fetch, so a failure retries only that job; several workers give the concurrency.
        const ids: string[] = [];
        for (let i = 0; i < job.concurrency; i++) {
          ids.push(
            await boss.work<unknown>(
              job.name,
              { pollingIntervalSeconds: POLLING_INTERVAL_SECONDS, batchSize: 1, includeMetadata: true },
              handler,
            ),
          );
        }
        localWorkers.set(job.name, ids);
      }
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    },
  };
}
