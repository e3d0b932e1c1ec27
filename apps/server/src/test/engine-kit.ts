import type { WebsiteConditions } from '@vigil/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/database.ts';
import { DEFAULT_PHONE_POLICY } from '../delivery/delivery.ts';
import type { WorkerDeps } from '../jobs/job.ts';
import { systemClock } from '../lib/clock.ts';
import { monitors } from '../db/schema.ts';
import { createStore, type Store } from '../db/store.ts';
import { recordEventDeliveries } from '../engine/alert-events.ts';
import { rollUpPacingFor } from '../engine/retention.ts';
import { newMonitorKey } from '../modules/auth/auth.service.ts';
import { uniqueEmail } from './test-app.ts';

export const WEBSITE_CONDITIONS: WebsiteConditions = {
  http_status: { enabled: true },
  timeout: { enabled: true, timeoutMs: 5000 },
  keyword: { enabled: false, keyword: '', mode: 'missing' },
  slow_response: { enabled: false, thresholdMs: 2000 },
  tls_expiry: { enabled: false, days: 14 },
  password_page: { enabled: false },
};

/** A user whose email is a verified alert contact. */
export async function userWithVerifiedEmail(store: Store, now: Date): Promise<{ id: string; email: string }> {
  const email = uniqueEmail('owner');
  const user = await store.users.insert({ email, passwordHash: null, monitorKey: newMonitorKey(), now });
  await store.contacts.markVerified({ userId: user.id, channel: 'email', address: email }, now);
  return { id: user.id, email };
}

export interface TestMonitor {
  userId: string;
  url: string;
  email: string;
  name?: string;
  nextCheckAt: Date;
  intervalSeconds?: number;
  confirmations?: number;
  repeatIntervalMinutes?: number;
  conditions?: WebsiteConditions;
  paused?: boolean;
}

/** A website monitor row as the monitors API writes it. */
export async function insertMonitor(db: Db, m: TestMonitor): Promise<string> {
  const [row] = await db
    .insert(monitors)
    .values({
      userId: m.userId,
      name: m.name ?? 'Shop front',
      service: 'website',
      target: { url: m.url },
      conditions: m.conditions ?? WEBSITE_CONDITIONS,
      intervalSeconds: m.intervalSeconds ?? 60,
      repeatIntervalMinutes: m.repeatIntervalMinutes ?? 0,
      confirmations: m.confirmations ?? 1,
      alertSettings: {
        callSettings: { checked: false, name: '', isAgree: false, phone: '' },
        smsSettings: { checked: false, name: '', isAgree: false, phone: '' },
        emailSettings: { checked: true, name: 'Owner', isAgree: false, email: m.email },
      },
      languageCode: 'en-US',
      paused: m.paused ?? false,
      nextCheckAt: m.nextCheckAt,
      createdAt: m.nextCheckAt,
      updatedAt: m.nextCheckAt,
    })
    .returning({ id: monitors.id });
  return row!.id;
}

/** `count` copies of monitor `id` in one statement, named `<name>1`, `<name>2`…, each created a second after the last. */
export async function copyMonitor(db: Db, id: string, count: number): Promise<void> {
  await db.execute(sql`
    insert into monitors (user_id, name, service, target, conditions, interval_seconds, repeat_interval_minutes,
      confirmations, alert_settings, language_code, paused, status, next_check_at, created_at, updated_at)
    select user_id, name || i, service, target, conditions, interval_seconds, repeat_interval_minutes,
      confirmations, alert_settings, language_code, paused, status, next_check_at,
      created_at + i * interval '1 second', updated_at
    from monitors, generate_series(1, ${count}) i where id = ${id}`);
}

export async function monitorRow(db: Db, id: string) {
  const [row] = await db.select().from(monitors).where(eq(monitors.id, id));
  return row!;
}

/**
 * Opens an `http_status` incident on the monitor and records its 'opened' deliveries, as the engine does in
 * one transaction; the deliveries are not queued.
 */
export async function openTestIncident(
  store: Store,
  incident: { monitorId: string; userId: string; alertSettings: unknown; now: Date; summary?: string },
): Promise<{ incidentId: string; deliveryIds: string[] }> {
  return store.transaction(async (tx) => {
    const incidentId = (await tx.alerting.openIncident({
      monitorId: incident.monitorId,
      userId: incident.userId,
      conditionKey: 'http_status',
      summary: incident.summary ?? 'HTTP 503 from https://shop.example',
      now: incident.now,
      nextAlertAt: null,
    }))!;
    const deliveryIds = await recordEventDeliveries(tx, {
      incidentId,
      event: 'opened',
      userId: incident.userId,
      alertSettings: incident.alertSettings,
      now: incident.now,
    });
    return { incidentId, deliveryIds };
  });
}

/** What job workers get in tests that send no email and call nobody: every message is taken and dropped. */
export function quietWorkerDeps(database: Database, queue: WorkerDeps['queue']): WorkerDeps {
  return {
    email: { send: async () => ({ messageId: '<none@test>', response: '250 OK' }), close: () => undefined },
    log: { info: () => undefined, warn: () => undefined, error: () => undefined } as never,
    store: createStore(database.db),
    clock: systemClock,
    ackLink: async () => 'http://localhost/ack',
    publicUrl: 'http://localhost',
    resultRetentionHours: 48,
    rollUpPacing: rollUpPacingFor(database.kind),
    phone: null,
    phonePolicy: DEFAULT_PHONE_POLICY,
    queue,
  };
}
