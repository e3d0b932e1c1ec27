/**
 * A worker process for the crash test (delivery/crash.test.ts): runs only alert deliveries against
 * DATABASE_URL, SMTP_URL and TWILIO_API_URL, with the job expiry of DELIVERY_EXPIRE_SECONDS (and retries a second later), and prints
 * "ready" once it takes jobs. With CRASH_AT set, the test names deliveries on standard input
 * (`crash <id> <id> …`, answered with "armed"); each of them is stopped at that step, and "stopped" is printed
 * once all of them wait there, for the test to kill the process with SIGKILL:
 * - before-claim: before the delivery is taken for sending (`startAttempt`);
 * - after-accepted: the provider's answer (SMTP 250, Twilio 201) has arrived, nothing else happened yet;
 * - before-record: the delivery code records the send (`finishAttempt`).
 * (While sending, the test holds the provider's answer itself and kills the process meanwhile.)
 */
import { createInterface } from 'node:readline';
import { SANDBOX_TWILIO } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { createStore } from '../db/store.ts';
import { DEFAULT_PHONE_POLICY } from '../delivery/delivery.ts';
import { deliverAlertJob } from '../jobs/deliver-alert.job.ts';
import type { JobDefinition } from '../jobs/job.ts';
import { startJobs } from '../jobs/job-queue.ts';
import { rollUpPacingFor } from '../engine/retention.ts';
import { systemClock } from '../lib/clock.ts';
import { createEmailSender, type EmailSender } from '../notify/email.ts';
import { createTwilioClient, type PhoneSender } from '../notify/twilio.ts';

export type CrashStep = 'before-claim' | 'after-accepted' | 'before-record';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const crashAt = (process.env.CRASH_AT || null) as CrashStep | null;
const publicUrl = env('PUBLIC_URL');

/** The deliveries to stop, and those stopped so far. */
const targets = new Set<string>();
const stopped = new Set<string>();
/** Stops a named delivery at the crash step for good; the process is killed while it waits. */
function stopHere(step: CrashStep, deliveryId: string | undefined): Promise<void> | null {
  if (step !== crashAt || !deliveryId || !targets.has(deliveryId)) return null;
  stopped.add(deliveryId);
  if (stopped.size === targets.size) process.stdout.write('stopped\n');
  return new Promise(() => undefined);
}
createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, ...ids] = line.trim().split(/\s+/);
  if (command !== 'crash') return;
  for (const id of ids) targets.add(id);
  process.stdout.write('armed\n');
});

const deliveryOfMessageId = (messageId: string | undefined) =>
  /^<delivery-([^@]+)@/.exec(messageId ?? '')?.[1];
const deliveryOfCallback = (url: string | null | undefined) =>
  url ? (new URL(url).searchParams.get('delivery') ?? undefined) : undefined;

const database = await openDatabase({ databaseUrl: env('DATABASE_URL') });
const store = createStore(database.db);
const { startAttempt, finishAttempt } = store.alerting;
store.alerting.startAttempt = async (id, now, leaseUntil) => {
  await stopHere('before-claim', id);
  return startAttempt(id, now, leaseUntil);
};
store.alerting.finishAttempt = async (result) => {
  if (result.outcome === 'sent') await stopHere('before-record', result.deliveryId);
  return finishAttempt(result);
};

const smtp = createEmailSender({ smtpUrl: env('SMTP_URL'), from: 'Vigil <alerts@vigil.test>' });
const email: EmailSender = {
  async send(message) {
    const sent = await smtp.send(message);
    await stopHere('after-accepted', deliveryOfMessageId(message.messageId));
    return sent;
  },
  close: () => smtp.close(),
};
const twilio = createTwilioClient({
  apiUrl: env('TWILIO_API_URL'),
  ...SANDBOX_TWILIO,
  fromNumber: '+15005550006',
});
const phone: PhoneSender = {
  fromNumber: twilio.fromNumber,
  recent: (channel, to, since) => twilio.recent(channel, to, since),
  async sendSms(request) {
    const sent = await twilio.sendSms(request);
    await stopHere('after-accepted', deliveryOfCallback(request.statusCallback));
    return sent;
  },
  async startCall(request) {
    const placed = await twilio.startCall(request);
    await stopHere('after-accepted', deliveryOfCallback(request.statusCallback));
    return placed;
  },
};

const expireInSeconds = Number(env('DELIVERY_EXPIRE_SECONDS'));
const jobs = await startJobs({
  database,
  runWorkers: true,
  jobs: [
    {
      ...deliverAlertJob,
      retry: { ...deliverAlertJob.retry, expireInSeconds, retryDelay: 1 },
    } as JobDefinition<unknown>,
  ],
  maintenanceIntervalSeconds: 1,
});
await jobs.run({
  email,
  phone,
  phonePolicy: DEFAULT_PHONE_POLICY,
  log: { info: () => undefined, warn: () => undefined, error: console.error } as never,
  store,
  clock: systemClock,
  ackLink: async (id) => `${publicUrl}/ack/${id}`,
  publicUrl,
  resultRetentionHours: 48,
  rollUpPacing: rollUpPacingFor(database.kind),
  queue: jobs.queue,
});
process.stdout.write('ready\n');
