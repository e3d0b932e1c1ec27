import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { databases } from '../test/databases.ts';
import { quietWorkerDeps } from '../test/engine-kit.ts';
import { defineJob, type JobDefinition } from './job.ts';
import { pgliteAdapter, startJobs } from './job-queue.ts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe.each(databases)('background jobs on $name', (testDatabase) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await testDatabase.create());
  });
  afterAll(async () => {
    await drop?.();
  });

  it('runs a sent job with its payload, retries it when it fails, and stop() waits for a running one', async () => {
    const seen: number[] = [];
    const release = deferred();
    const started = deferred();
    let attempts = 0;
    const job: JobDefinition<{ n: number }> = defineJob({
      name: 'test-job',
      payload: z.object({ n: z.number() }),
      retry: { retryLimit: 2, retryDelay: 0, retryBackoff: false, expireInSeconds: 30 },
      concurrency: 1,
      async handle({ n }) {
        attempts += 1;
        if (attempts === 1) throw new Error('first try fails');
        started.resolve();
        await release.promise;
        seen.push(n);
      },
    });
    const jobs = await startJobs({ database, runWorkers: true, jobs: [job as JobDefinition<unknown>] });
    await jobs.run(quietWorkerDeps(database, jobs.queue));
    await jobs.queue.send(job, { n: 7 });
    await started.promise;

    let stopped = false;
    const stopping = jobs.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stopped).toBe(false);
    release.resolve();
    await stopping;
    expect(seen).toEqual([7]);
    expect(attempts).toBe(2);
  });

  it('refuses a payload that does not match the job before it is stored', async () => {
    const job = defineJob({
      name: 'strict-job',
      payload: z.object({ to: z.email() }),
      retry: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 30 },
      concurrency: 1,
      handle: async () => undefined,
    });
    const jobs = await startJobs({ database, runWorkers: false, jobs: [job as JobDefinition<unknown>] });
    await expect(jobs.queue.send(job, { to: 'not-an-email' })).rejects.toThrow();
    await jobs.stop();
  });
});

describe('pgliteAdapter()', () => {
  it('rolls back a script that fails half-way, so the connection is usable again', async () => {
    const { database, drop } = await databases[0]!.create();
    if (database.kind !== 'pglite') throw new Error('expected PGlite');
    const db = pgliteAdapter(database.pglite);
    await db.executeSql('create table t (id int primary key)', undefined as never);
    await expect(
      db.executeSql('begin; insert into t values (1); insert into t values (1); commit;', undefined as never),
    ).rejects.toThrow();
    expect((await db.executeSql('select count(*)::int as n from t', [])).rows).toEqual([{ n: 0 }]);
    await db.executeSql('begin; insert into t values (2); commit;', undefined as never);
    expect((await db.executeSql('select id from t', [])).rows).toEqual([{ id: 2 }]);
    await drop();
  });
});
