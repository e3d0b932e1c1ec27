import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { createSmtpServer, Mailbox } from '@vigil/sandbox';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { alertDeliveries, deliveryAttempts } from '../db/schema.ts';
import { createStore, type Store } from '../db/store.ts';
import { deliverAlertJob } from '../jobs/deliver-alert.job.ts';
import type { JobDefinition } from '../jobs/job.ts';
import { startJobs } from '../jobs/job-queue.ts';
import { DEFAULT_PHONE_POLICY } from './delivery.ts';
import { systemClock } from '../lib/clock.ts';
import { createEmailSender, type EmailSender } from '../notify/email.ts';
import { databases } from '../test/databases.ts';
import { insertMonitor, openTestIncident, userWithVerifiedEmail } from '../test/engine-kit.ts';
import { deliverAlert } from './alert-delivery.ts';

const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;

/** An incident of a new monitor with one pending email delivery; its id. */
async function pendingDelivery(
  store: Store,
  database: Database,
): Promise<{ deliveryId: string; to: string }> {
  const now = systemClock.now();
  const owner = await userWithVerifiedEmail(store, now);
  const monitorId = await insertMonitor(database.db, {
    userId: owner.id,
    email: owner.email,
    url: 'https://shop.example',
    nextCheckAt: now,
  });
  const {
    deliveryIds: [deliveryId],
  } = await openTestIncident(store, {
    monitorId,
    userId: owner.id,
    alertSettings: { emailSettings: { checked: true, email: owner.email } },
    now,
  });
  return { deliveryId: deliveryId!, to: owner.email };
}

describe.each(databases)('alert delivery on $name', (testDatabase) => {
  let database: Database;
  let drop: () => Promise<void>;
  let store: Store;
  beforeAll(async () => {
    ({ database, drop } = await testDatabase.create());
    store = createStore(database.db);
  });
  afterAll(async () => {
    await drop?.();
  });

  const deps = (email: EmailSender) => ({
    store,
    clock: systemClock,
    email,
    ackLink: async (id: string) => `http://vigil.test/ack/${id}`,
    publicUrl: 'http://vigil.test',
    log: silentLog,
    phone: null,
    phonePolicy: DEFAULT_PHONE_POLICY,
    queueDeliveries: async () => undefined,
    queueEmail: async () => undefined,
  });
  const failing = (error: object): EmailSender => ({
    send: async () => {
      throw Object.assign(new Error('refused'), error);
    },
    close: () => undefined,
  });
  const delivery = async (id: string) =>
    (await database.db.select().from(alertDeliveries).where(eq(alertDeliveries.id, id)))[0]!;
  const attempts = async (id: string) =>
    database.db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, id));

  it('retries a "try later" answer and a lost connection, then sends once and records each attempt', async () => {
    const { deliveryId } = await pendingDelivery(store, database);
    const attempt = (retryCount: number) => ({ retryCount, retryLimit: 10 });
    await expect(deliverAlert(deliveryId, deps(failing({ responseCode: 451 })), attempt(0))).rejects.toThrow(
      'refused',
    );
    expect(await delivery(deliveryId)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'refused',
    });
    await expect(
      deliverAlert(deliveryId, deps(failing({ code: 'ECONNECTION' })), attempt(1)),
    ).rejects.toThrow();

    let sent = 0;
    const working: EmailSender = {
      send: async () => {
        sent += 1;
        return { messageId: '<abc@vigil.test>', response: '250 OK' };
      },
      close: () => undefined,
    };
    await deliverAlert(deliveryId, deps(working), attempt(2));
    await deliverAlert(deliveryId, deps(working), attempt(3));
    expect(sent).toBe(1);
    expect(await delivery(deliveryId)).toMatchObject({
      status: 'sent',
      attempts: 3,
      providerMessageId: '<abc@vigil.test>',
      lastError: null,
    });
    expect((await attempts(deliveryId)).map((a) => a.outcome).sort()).toEqual(['retry', 'retry', 'sent']);
  });

  it('gives every copy of one delivery the same Message-ID, so a resend after a crash folds into the first', async () => {
    const mailbox = new Mailbox();
    const smtp = createSmtpServer(mailbox);
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const email = createEmailSender({
      smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      from: 'Vigil <alerts@vigil.test>',
    });
    try {
      const { deliveryId } = await pendingDelivery(store, database);
      const attempt = { retryCount: 0, retryLimit: 10 };
      await deliverAlert(deliveryId, deps(email), attempt);
      // A worker that died after the server's 250 left the delivery unrecorded: it is sent again.
      await database.db
        .update(alertDeliveries)
        .set({ status: 'pending', leaseUntil: null })
        .where(eq(alertDeliveries.id, deliveryId));
      await deliverAlert(deliveryId, deps(email), attempt);

      const copies = mailbox.list().map((mail) => mail.messageId);
      expect(copies).toEqual([`<delivery-${deliveryId}@vigil.test>`, `<delivery-${deliveryId}@vigil.test>`]);
      expect((await delivery(deliveryId)).providerMessageId).toBe(`<delivery-${deliveryId}@vigil.test>`);
    } finally {
      email.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it('fails at once on a permanent refusal, and on the last try of a temporary one', async () => {
    const permanent = await pendingDelivery(store, database);
    await deliverAlert(permanent.deliveryId, deps(failing({ responseCode: 550 })), {
      retryCount: 0,
      retryLimit: 10,
    });
    expect(await delivery(permanent.deliveryId)).toMatchObject({ status: 'failed', attempts: 1 });

    const exhausted = await pendingDelivery(store, database);
    await deliverAlert(exhausted.deliveryId, deps(failing({ code: 'ETIMEDOUT' })), {
      retryCount: 10,
      retryLimit: 10,
    });
    expect(await delivery(exhausted.deliveryId)).toMatchObject({ status: 'failed' });
  });
});

describe('a worker killed while sending an alert', () => {
  const postgres = databases.find((d) => d.name === 'PostgreSQL')!;
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('leads to exactly one email, sent by another worker', { timeout: 90_000 }, async () => {
    const { database, drop } = await postgres.create();
    if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const store = createStore(database.db);

    // An SMTP server that takes a message only when it can still answer for it: the first message is held
    // after its final dot and dropped if the client is gone by then, as a server that commits on its reply.
    const received: string[] = [];
    let holding: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const closed = new Set<string>();
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onClose(session) {
        closed.add(session.id);
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const first = holding !== undefined;
          const accept = () => {
            if (closed.has(session.id)) return callback(new Error('client went away'));
            received.push(Buffer.concat(chunks).toString('utf8'));
            callback();
          };
          if (!first) return accept();
          holding!();
          holding = undefined;
          setTimeout(accept, 3000);
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;

    const email = createEmailSender({ smtpUrl, from: 'Vigil <alerts@vigil.test>' });
    const survivor = await startJobs({
      database,
      runWorkers: true,
      jobs: [deliverAlertJob as JobDefinition<unknown>],
    });
    try {
      const { deliveryId } = await pendingDelivery(store, database);
      child = spawn(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(new URL('../test/alert-worker.fixture.ts', import.meta.url))],
        {
          env: { ...process.env, DATABASE_URL: database.connectionString, SMTP_URL: smtpUrl },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      await new Promise<void>((resolve, reject) => {
        child!.stdout!.on('data', (data: Buffer) => data.toString().includes('ready') && resolve());
        child!.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
      });
      // Only the child works at first: the job goes to it.
      await survivor.queue.send(deliverAlertJob, { deliveryId });
      await held;
      child.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));

      // The survivor starts taking jobs; the dead worker's job expires and its retry sends the alert.
      await survivor.run({
        email,
        log: silentLog,
        store,
        clock: systemClock,
        ackLink: async (id) => `http://vigil.test/ack/${id}`,
        publicUrl: 'http://vigil.test',
        resultRetentionHours: 48,
        phone: null,
        phonePolicy: DEFAULT_PHONE_POLICY,
        queue: survivor.queue,
      });
      await expect
        .poll(
          async () =>
            (await database.db.select().from(alertDeliveries).where(eq(alertDeliveries.id, deliveryId)))[0]
              ?.status,
          {
            timeout: 60_000,
            interval: 500,
          },
        )
        .toBe('sent');
      await new Promise((resolve) => setTimeout(resolve, 3500));
      expect(received).toHaveLength(1);
      const tries = await database.db
        .select()
        .from(deliveryAttempts)
        .where(eq(deliveryAttempts.deliveryId, deliveryId));
      expect(tries.map((t) => t.outcome).sort()).toEqual(['retry', 'sent']);
    } finally {
      await survivor.stop();
      email.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await drop();
    }
  });
});
