import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { createSmtpServer, Mailbox } from '@vigil/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { alertDeliveries, deliveryAttempts } from '../db/schema.ts';
import { createStore, type Store } from '../db/store.ts';
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
    const attempt = (retryCount: number) => ({ retryCount, retryLimit: 10, leaseMs: 20_000 });
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
      const attempt = { retryCount: 0, retryLimit: 10, leaseMs: 20_000 };
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
      leaseMs: 20_000,
    });
    expect(await delivery(permanent.deliveryId)).toMatchObject({ status: 'failed', attempts: 1 });

    const exhausted = await pendingDelivery(store, database);
    await deliverAlert(exhausted.deliveryId, deps(failing({ code: 'ETIMEDOUT' })), {
      retryCount: 10,
      retryLimit: 10,
      leaseMs: 20_000,
    });
    expect(await delivery(exhausted.deliveryId)).toMatchObject({ status: 'failed' });
  });
});
