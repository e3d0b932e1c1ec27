import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_TWILIO } from '../config.ts';
import { alertDeliveries, deliveryAttempts } from '../db/schema.ts';
import { createStore } from '../db/store.ts';
import { deliverAlertJob } from '../jobs/deliver-alert.job.ts';
import type { JobDefinition } from '../jobs/job.ts';
import { startJobs } from '../jobs/job-queue.ts';
import { systemClock } from '../lib/clock.ts';
import { createTwilioClient } from '../notify/twilio.ts';
import { databases } from '../test/databases.ts';
import { startSandboxServer } from '../test/sandbox-server.ts';
import { insertMonitor, openTestIncident, userWithVerifiedEmail } from '../test/engine-kit.ts';
import { PHONE_CONTACT } from '../engine/alert-events.ts';
import { DEFAULT_PHONE_POLICY } from './delivery.ts';

const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;
const FROM = '+15005550006';
const TO = '+14155550123';

describe('a worker killed while placing an alert call', () => {
  const postgres = databases.find((d) => d.name === 'PostgreSQL')!;
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it(
    'leads to exactly one call: the next worker finds it at Twilio and adopts it',
    { timeout: 90_000 },
    async () => {
      const { database, drop } = await postgres.create();
      if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
      const store = createStore(database.db);

      // The sandbox Twilio on its own HTTP server: the worker process places the call there.
      const sandboxServer = await startSandboxServer(FROM);
      const { url, sandbox, twilioApiUrl: apiUrl } = sandboxServer;

      const survivor = await startJobs({
        database,
        runWorkers: true,
        jobs: [deliverAlertJob as JobDefinition<unknown>],
      });
      try {
        const now = systemClock.now();
        const owner = await userWithVerifiedEmail(store, now);
        await store.users.update(
          owner.id,
          { plan: 'Pro', planExpiresAt: Math.floor(now.getTime() / 1000) + 86_400 },
          now,
        );
        await store.contacts.markVerified({ userId: owner.id, channel: PHONE_CONTACT, address: TO }, now);
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
          alertSettings: { callSettings: { checked: true, phone: TO } },
          now,
        });

        // Twilio takes the call, then the answer never reaches the worker: it dies first.
        sandbox.phone.addFault({ resource: 'Calls', stage: 'after', holdMs: 60_000 });
        child = spawn(
          process.execPath,
          ['--import', 'tsx', fileURLToPath(new URL('../test/alert-worker.fixture.ts', import.meta.url))],
          {
            env: {
              ...process.env,
              DATABASE_URL: database.connectionString,
              SMTP_URL: 'smtp://127.0.0.1:9',
              TWILIO_API_URL: apiUrl,
              PUBLIC_URL: url,
            },
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        await new Promise<void>((resolve, reject) => {
          child!.stdout!.on('data', (data: Buffer) => data.toString().includes('ready') && resolve());
          child!.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
        });
        await survivor.queue.send(deliverAlertJob, { deliveryId: deliveryId! });
        await expect.poll(() => sandbox.phone.calls({ to: TO }).length, { timeout: 20_000 }).toBe(1);
        child.kill('SIGKILL');
        await new Promise((resolve) => child!.once('exit', resolve));

        await survivor.run({
          email: { send: async () => Promise.reject(new Error('no email here')), close: () => undefined },
          log: silentLog,
          store,
          clock: systemClock,
          ackLink: async (id) => `${url}/ack/${id}`,
          publicUrl: url,
          resultRetentionHours: 48,
          phone: createTwilioClient({ apiUrl, ...SANDBOX_TWILIO, fromNumber: FROM }),
          phonePolicy: DEFAULT_PHONE_POLICY,
          queue: survivor.queue,
        });
        await expect
          .poll(
            async () =>
              (await database.db.select().from(alertDeliveries).where(eq(alertDeliveries.id, deliveryId!)))[0]
                ?.status,
            { timeout: 60_000, interval: 500 },
          )
          .toBe('sent');
        const [call] = sandbox.phone.calls({ to: TO });
        const [delivery] = await database.db
          .select()
          .from(alertDeliveries)
          .where(eq(alertDeliveries.id, deliveryId!));
        expect(delivery!.providerMessageId).toBe(call!.sid);
        const tries = await database.db
          .select()
          .from(deliveryAttempts)
          .where(eq(deliveryAttempts.deliveryId, deliveryId!))
          .orderBy(deliveryAttempts.id);
        expect(tries.map((t) => [t.outcome, t.providerId])).toEqual([
          ['retry', null],
          ['sent', call!.sid],
        ]);
        expect(sandbox.phone.calls({ to: TO })).toHaveLength(1);
        expect(sandbox.phone.requests.Calls).toBe(1);
      } finally {
        await survivor.stop();
        await sandboxServer.close();
        await drop();
      }
    },
  );
});
