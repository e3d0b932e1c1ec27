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
import { SANDBOX_TWILIO } from '../config.ts';
import { DEFAULT_PHONE_POLICY } from '../delivery/delivery.ts';
import { createEmailSender } from '../notify/email.ts';
import { createTwilioClient } from '../notify/twilio.ts';

const publicUrl = process.env.PUBLIC_URL ?? 'http://vigil.test';
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
  publicUrl,
  resultRetentionHours: 48,
  // With TWILIO_API_URL the worker sends SMS and calls too (to the sandbox of the test that started it).
  phone: process.env.TWILIO_API_URL
    ? createTwilioClient({
        apiUrl: process.env.TWILIO_API_URL,
        accountSid: SANDBOX_TWILIO.accountSid,
        authToken: SANDBOX_TWILIO.authToken,
        fromNumber: '+15005550006',
      })
    : null,
  phonePolicy: DEFAULT_PHONE_POLICY,
  queue: jobs.queue,
});
process.stdout.write('ready\n');
