import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { inArray, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, it, type ExpectStatic } from 'vitest';
import type { Database } from '../db/database.ts';
import { rowsOf } from '../db/raw-sql.ts';
import { alertDeliveries, deliveryAttempts } from '../db/schema.ts';
import { createStore, type Store } from '../db/store.ts';
import { PHONE_CONTACT } from '../engine/alert-events.ts';
import { deliverAlertJob } from '../jobs/deliver-alert.job.ts';
import type { JobDefinition } from '../jobs/job.ts';
import { startJobs } from '../jobs/job-queue.ts';
import { systemClock } from '../lib/clock.ts';
import type { CrashStep } from '../test/alert-worker.fixture.ts';
import { databases, type TestDatabase } from '../test/databases.ts';
import { insertMonitor, openTestIncident, userWithVerifiedEmail } from '../test/engine-kit.ts';
import { startSandboxServer, type SandboxServer } from '../test/sandbox-server.ts';

/**
 * The alert path killed with SIGKILL at each step, CYCLES times each, on PostgreSQL. Every cycle opens an
 * incident alerting by email, SMS and call, starts a worker process, stops all three deliveries at the step and
 * kills the process there; the next worker takes the deliveries over when their jobs expire. Then every
 * incident has alerted on every channel, each channel as many times as docs/ARCHITECTURE.md ("Delivery
 * guarantees") promises, and every copy of an email carries its delivery's one Message-ID.
 */
type Step = CrashStep | 'while-sending';
const STEPS: Step[] = ['before-claim', 'while-sending', 'after-accepted', 'before-record'];
const CYCLES = 20;
/** The delivery job's expiry (20 s in production) and so its lease, short so that a cycle takes seconds. */
const EXPIRE_SECONDS = 4;
const FIXTURE = fileURLToPath(new URL('../test/alert-worker.fixture.ts', import.meta.url));
const FROM = '+15005550006';

type Channel = 'email' | 'sms' | 'call';
/**
 * Copies that reach the person, by where the worker died: email is at-least-once (SMTP cannot be asked what it
 * took, so a death after the 250 sends a second copy); SMS and calls are found at Twilio and adopted.
 */
const PROMISED: Record<Step, Record<Channel, number>> = {
  'before-claim': { email: 1, sms: 1, call: 1 },
  'while-sending': { email: 1, sms: 1, call: 1 },
  'after-accepted': { email: 2, sms: 1, call: 1 },
  'before-record': { email: 2, sms: 1, call: 1 },
};

const postgres = databases.find((d) => d.name === 'PostgreSQL')!;
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

describe.concurrent('the alert path killed with SIGKILL, on PostgreSQL', () => {
  it.for(STEPS)(
    '%s: every incident alerts, as often as promised',
    { timeout: 15 * 60_000 },
    async (step, { expect }) => {
      const rig = await startRig(postgres, expect);
      try {
        const incidents: Incident[] = [];
        let worker = await startWorker(rig, step);
        for (let cycle = 0; cycle < CYCLES; cycle++) {
          // The worker running now took over the previous cycle's deliveries: they are all sent first.
          if (cycle > 0) await allSent(rig, incidents[cycle - 1]!);
          const incident = await openIncident(rig, cycle);
          incidents.push(incident);
          await stopAt(rig, worker, step, incident);
          worker.child.kill('SIGKILL');
          await worker.exited;
          worker = await startWorker(rig, step);
        }
        await allSent(rig, incidents.at(-1)!);
        await drained(rig);
        worker.child.kill('SIGKILL');
        await worker.exited;

        const copies = incidents.map((incident) => copiesOf(rig, incident));
        expect(copies).toEqual(incidents.map(() => PROMISED[step]));
        const twilio = rig.sandbox.sandbox.phone;
        for (const incident of incidents) {
          const ids = rig.smtp.received
            .filter((mail) => mail.to === incident.email)
            .map((mail) => mail.messageId);
          expect(new Set(ids)).toEqual(new Set([`<delivery-${incident.deliveries.email}@127.0.0.1>`]));
          // The SMS and the call each recorded against the one Twilio sent, whoever sent it.
          expect(await providerIdsOf(rig, incident)).toEqual({
            sms: twilio.messages({ to: incident.phone })[0]!.sid,
            call: twilio.calls({ to: incident.phone })[0]!.sid,
          });
        }
        // Each delivery's history: the killed try (once it was claimed) ended as taken over, then one sent.
        const killedTry = step === 'before-claim' ? [] : ['retry'];
        expect(await triesOf(rig, incidents)).toEqual(
          incidents.flatMap(() => Array(3).fill([...killedTry, 'sent'])),
        );
      } finally {
        await rig.close();
      }
    },
  );
});

interface Rig {
  /** The test's own `expect`: these tests run side by side. */
  expect: ExpectStatic;
  databaseUrl: string;
  db: Database['db'];
  store: Store;
  sandbox: SandboxServer;
  smtp: HoldingSmtp;
  queue: Awaited<ReturnType<typeof startJobs>>;
  query<T>(text: string): Promise<T[]>;
  close(): Promise<void>;
}

/** A fresh database, the sandbox's Twilio, an SMTP server and a queue to send the delivery jobs with. */
async function startRig(testDatabase: TestDatabase, expect: ExpectStatic): Promise<Rig> {
  const { database, drop } = await testDatabase.create();
  if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
  const sandbox = await startSandboxServer(FROM);
  const smtp = await startHoldingSmtp();
  const queue = await startJobs({ database, runWorkers: false, jobs: [quickJob as JobDefinition<unknown>] });
  return {
    expect,
    databaseUrl: database.connectionString,
    db: database.db,
    store: createStore(database.db),
    sandbox,
    smtp,
    queue,
    query: (text) => rowsOf(database.db, sql.raw(text)),
    async close() {
      await queue.stop();
      await smtp.close();
      await sandbox.close();
      await drop();
    },
  };
}

const quickJob = {
  ...deliverAlertJob,
  retry: { ...deliverAlertJob.retry, expireInSeconds: EXPIRE_SECONDS, retryDelay: 1 },
};

interface Worker {
  child: ChildProcess;
  exited: Promise<unknown>;
  /** Resolves at the next line the worker prints that equals `line`. */
  printed(line: string): Promise<void>;
}

async function startWorker(rig: Rig, step: Step): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    env: {
      ...process.env,
      DATABASE_URL: rig.databaseUrl,
      SMTP_URL: rig.smtp.url,
      TWILIO_API_URL: rig.sandbox.twilioApiUrl,
      PUBLIC_URL: rig.sandbox.url,
      DELIVERY_EXPIRE_SECONDS: String(EXPIRE_SECONDS),
      CRASH_AT: step === 'while-sending' ? '' : step,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.add(child);
  const exited = new Promise((resolve) => child.once('exit', resolve)).finally(() => children.delete(child));
  const waiting = new Map<string, () => void>();
  let partial = '';
  child.stdout!.on('data', (data: Buffer) => {
    const lines = (partial + data.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) waiting.get(line)?.();
  });
  const worker: Worker = {
    child,
    exited,
    printed: (line) =>
      new Promise<void>((resolve, reject) => {
        waiting.set(line, resolve);
        void exited.then(() => reject(new Error(`the worker exited before it printed "${line}"`)));
      }),
  };
  await worker.printed('ready');
  return worker;
}

interface Incident {
  email: string;
  phone: string;
  deliveries: Record<Channel, string>;
}

/** A Pro account with a verified phone, one monitor, and an open incident alerting on all three channels. */
async function openIncident(rig: Rig, cycle: number): Promise<Incident> {
  const { expect } = rig;
  const now = systemClock.now();
  const owner = await userWithVerifiedEmail(rig.store, now);
  const phone = `+1415555${String(cycle).padStart(4, '0')}`;
  await rig.store.users.update(
    owner.id,
    { plan: 'Pro', planExpiresAt: Math.floor(now.getTime() / 1000) + 86_400 },
    now,
  );
  await rig.store.contacts.markVerified({ userId: owner.id, channel: PHONE_CONTACT, address: phone }, now);
  const monitorId = await insertMonitor(rig.db, {
    userId: owner.id,
    email: owner.email,
    url: 'https://shop.example',
    nextCheckAt: now,
  });
  const settings = { checked: true, name: 'Owner', isAgree: true, phone };
  const { deliveryIds } = await openTestIncident(rig.store, {
    monitorId,
    userId: owner.id,
    alertSettings: {
      emailSettings: { checked: true, email: owner.email },
      smsSettings: settings,
      callSettings: settings,
    },
    now,
  });
  const rows = await rig.db
    .select({ id: alertDeliveries.id, channel: alertDeliveries.channel })
    .from(alertDeliveries)
    .where(inArray(alertDeliveries.id, deliveryIds));
  const deliveries = Object.fromEntries(rows.map((row) => [row.channel, row.id])) as Record<Channel, string>;
  expect(Object.keys(deliveries).sort()).toEqual(['call', 'email', 'sms']);
  return { email: owner.email, phone, deliveries };
}

/** Sends the incident's delivery jobs to the worker and resolves once all three wait at `step`. */
async function stopAt(rig: Rig, worker: Worker, step: Step, incident: Incident): Promise<void> {
  const { expect } = rig;
  const ids = Object.values(incident.deliveries);
  let reached: Promise<void>;
  if (step === 'while-sending') {
    // The providers have the message and have not answered: the mail server answers only to a client still
    // there, Twilio answers 503 after the hold and creates nothing.
    rig.smtp.holdFor(incident.email);
    const asked = rig.sandbox.sandbox.phone.requests;
    for (const resource of ['Messages', 'Calls'] as const) {
      rig.sandbox.sandbox.phone.addFault({ resource, status: 503, holdMs: 60_000, stage: 'before' });
    }
    reached = (async () => {
      await expect.poll(() => rig.smtp.held.has(incident.email), { timeout: 30_000 }).toBe(true);
      await expect
        .poll(() => rig.sandbox.sandbox.phone.requests, { timeout: 30_000 })
        .toEqual({ Messages: asked.Messages + 1, Calls: asked.Calls + 1 });
    })();
  } else {
    const armed = worker.printed('armed');
    worker.child.stdin!.write(`crash ${ids.join(' ')}\n`);
    await armed;
    reached = worker.printed('stopped');
  }
  for (const deliveryId of ids) await rig.queue.queue.send(quickJob, { deliveryId });
  await reached;
}

async function allSent(rig: Rig, incident: Incident): Promise<void> {
  const { expect } = rig;
  const ids = Object.values(incident.deliveries);
  await expect
    .poll(
      async () =>
        (
          await rig.db
            .select({ status: alertDeliveries.status })
            .from(alertDeliveries)
            .where(inArray(alertDeliveries.id, ids))
        ).map((row) => row.status),
      { timeout: 90_000, interval: 200 },
    )
    .toEqual(['sent', 'sent', 'sent']);
}

/** No delivery job is left to run (a late retry would send one copy more). */
async function drained(rig: Rig): Promise<void> {
  const { expect } = rig;
  await expect
    .poll(
      async () =>
        (
          await rig.query<{ n: number }>(
            `select count(*)::int as n from pgboss.job where name = 'deliver-alert' and state < 'completed'`,
          )
        )[0]!.n,
      { timeout: 60_000, interval: 250 },
    )
    .toBe(0);
}

async function providerIdsOf(rig: Rig, incident: Incident): Promise<{ sms: string; call: string }> {
  const rows = await rig.db
    .select({ channel: alertDeliveries.channel, providerId: alertDeliveries.providerMessageId })
    .from(alertDeliveries)
    .where(inArray(alertDeliveries.id, [incident.deliveries.sms, incident.deliveries.call]));
  const of = (channel: Channel) => rows.find((row) => row.channel === channel)?.providerId;
  return { sms: of('sms')!, call: of('call')! };
}

/** The outcomes of each delivery's tries, in order: email, SMS and call of each incident. */
async function triesOf(rig: Rig, incidents: Incident[]): Promise<string[][]> {
  const ids = incidents.flatMap(({ deliveries }) => [deliveries.email, deliveries.sms, deliveries.call]);
  const rows = await rig.db
    .select({ deliveryId: deliveryAttempts.deliveryId, outcome: deliveryAttempts.outcome })
    .from(deliveryAttempts)
    .where(inArray(deliveryAttempts.deliveryId, ids))
    .orderBy(deliveryAttempts.id);
  return ids.map((id) =>
    rows.filter((row) => row.deliveryId === id).map((row) => row.outcome ?? 'unfinished'),
  );
}

function copiesOf(rig: Rig, incident: Incident): Record<Channel, number> {
  const twilio = rig.sandbox.sandbox.phone;
  return {
    email: rig.smtp.received.filter((mail) => mail.to === incident.email).length,
    sms: twilio.messages({ to: incident.phone }).length,
    call: twilio.calls({ to: incident.phone }).length,
  };
}

interface HoldingSmtp {
  url: string;
  /** Every message the server took (answered 250), in order. */
  received: { to: string; messageId: string }[];
  /** Recipients whose message is held now. */
  held: Set<string>;
  /**
   * Holds the next message to `to` after its final dot, answering only once its client has gone: then it is
   * refused, as by a server that commits a message when it replies.
   */
  holdFor(to: string): void;
  close(): Promise<void>;
}

async function startHoldingSmtp(): Promise<HoldingSmtp> {
  const received: HoldingSmtp['received'] = [];
  const held = new Set<string>();
  const toHold = new Set<string>();
  const closed = new Map<string, () => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onClose(session) {
      closed.get(session.id)?.();
    },
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo[0]?.address ?? '';
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const message = Buffer.concat(chunks).toString('utf8');
        const messageId = /^Message-ID:\s*(\S+)/im.exec(message)?.[1] ?? '';
        if (!toHold.delete(to)) {
          received.push({ to, messageId });
          return callback();
        }
        held.add(to);
        closed.set(session.id, () => {
          held.delete(to);
          callback(new Error('client went away'));
        });
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    received,
    held,
    holdFor: (to) => toHold.add(to),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
