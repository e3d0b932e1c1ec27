/**
 * A worker process for the crash test: runs only alert deliveries against DATABASE_URL and SMTP_URL, and
 * prints "ready" once it takes jobs. The test kills it with SIGKILL in the middle of sending.
 */
import { openDatabase } from '../db/database.ts';
import { createStore } from '../db/store.ts';
import { deliverAlertJob } from '../jobs/deliver-alert.job.ts';
import type { JobDefinition } from '../jobs/job.ts';
import { startJobs } from '../jobs/job-queue.ts';
import { systemClock } from '../lib/clock.ts';
import { createEmailSender } from '../notify/email.ts';

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL! });
const jobs = await startJobs({
  database,
  runWorkers: true,
  jobs: [deliverAlertJob as JobDefinition<unknown>],
});
const log = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;
await jobs.run({
  email: createEmailSender({ smtpUrl: process.env.SMTP_URL!, from: 'Vigil <alerts@vigil.test>' }),
  log,
  store: createStore(database.db),
  clock: systemClock,
  ackLink: async (id) => `http://vigil.test/ack/${id}`,
  publicUrl: 'http://vigil.test',
  resultRetentionHours: 48,
});
process.stdout.write('ready\n');
