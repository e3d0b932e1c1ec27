import type { MonitorInput } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import { checkResults, checkRollups, alertDeliveries, incidents, monitors } from '../../db/schema.ts';
import type { TestApp } from '../../test/test-app.ts';
import { call, registerUser, type Registered } from '../../test/test-app.ts';
import { createContactRepository } from '../contacts/contact.repository.ts';
import { createUserRepository } from '../users/user.repository.ts';
import { countCheck, type HourlyTally } from './uptime-tally.ts';

/** Helpers of the monitor, alert and contact API tests: what a user and the engine would have made. */

export interface TestUser extends Registered {
  userId: string;
}

/** A signed-up user whose own email is a verified alert contact. */
export async function signUp(t: TestApp, plan?: { name: string; days: number }): Promise<TestUser> {
  const user = await registerUser(t.app);
  const users = createUserRepository(t.database.db);
  const row = (await users.findByEmail(user.email))!;
  await createContactRepository(t.database.db).markVerified(
    { userId: row.id, channel: 'email', address: user.email },
    t.clock.now(),
  );
  if (plan) {
    const planExpiresAt = Math.floor(t.clock.now().getTime() / 1000) + plan.days * 86_400;
    await users.update(row.id, { plan: plan.name, planExpiresAt }, t.clock.now());
  }
  return { ...user, userId: row.id };
}

/** A valid website monitor alerting the user's own (verified) email. */
export function websiteMonitor(
  email: string,
  overrides: Partial<Extract<MonitorInput, { service: 'website' }>> = {},
): Extract<MonitorInput, { service: 'website' }> {
  return {
    name: 'Storefront',
    service: 'website',
    target: { url: 'https://shop.example/' },
    conditions: {
      http_status: { enabled: true },
      timeout: { enabled: true, timeoutMs: 10_000 },
      keyword: { enabled: false, keyword: '', mode: 'missing' },
      slow_response: { enabled: false, thresholdMs: 3000 },
      tls_expiry: { enabled: true, days: 14 },
      password_page: { enabled: false },
    },
    intervalSeconds: 300,
    repeatIntervalMinutes: 30,
    confirmations: 2,
    languageCode: 'en-US',
    callSettings: { checked: false, name: '', isAgree: false, phone: '' },
    smsSettings: { checked: false, name: '', isAgree: false, phone: '' },
    emailSettings: { checked: true, name: 'Shop owner', isAgree: false, email },
    ...overrides,
  };
}

export async function createMonitor(
  t: TestApp,
  user: TestUser,
  overrides: Partial<Extract<MonitorInput, { service: 'website' }>> = {},
): Promise<string> {
  const { status, body } = await call(t.app, 'POST', '/monitor-bff/monitor', {
    token: user.token,
    body: websiteMonitor(user.email, overrides),
  });
  if (status !== 200) throw new Error(`create failed: ${status} ${JSON.stringify(body)}`);
  return body.data.monitorId as string;
}

/** Raw check results as the engine writes them, one per slot, each counted in the monitor's hourly tally. */
export async function seedResults(
  t: TestApp,
  monitorId: string,
  results: { at: Date; ok: boolean; responseMs?: number | null; error?: string }[],
): Promise<void> {
  if (results.length === 0) return;
  await t.database.db.insert(checkResults).values(
    results.map((result) => ({
      monitorId,
      slotAt: result.at,
      checkedAt: result.at,
      ok: result.ok,
      responseMs: result.responseMs === undefined ? 120 : result.responseMs,
      statusCode: result.ok ? 200 : 503,
      failedConditions: result.ok ? [] : ['http_status'],
      error: result.error ?? null,
    })),
  );
  const [row] = await t.database.db
    .select({ hour: monitors.tallyHour, checks: monitors.tallyChecks, failures: monitors.tallyFailures })
    .from(monitors)
    .where(eq(monitors.id, monitorId));
  let tally: HourlyTally = row!;
  for (const result of results) tally = countCheck(tally, result.at, result.ok);
  await t.database.db
    .update(monitors)
    .set({ tallyHour: tally.hour, tallyChecks: tally.checks, tallyFailures: tally.failures })
    .where(eq(monitors.id, monitorId));
}

export async function seedRollup(
  t: TestApp,
  monitorId: string,
  rollup: { hour: Date; checks: number; failures: number; p50Ms?: number; p95Ms?: number },
): Promise<void> {
  await t.database.db.insert(checkRollups).values({
    monitorId,
    hour: rollup.hour,
    checks: rollup.checks,
    failures: rollup.failures,
    p50Ms: rollup.p50Ms ?? 100,
    p95Ms: rollup.p95Ms ?? 200,
    p99Ms: null,
    avgMs: null,
  });
}

/** An incident as the engine opens it, with an email delivery of its opening. */
export async function seedIncident(
  t: TestApp,
  user: TestUser,
  monitorId: string,
  options: {
    conditionKey?: string;
    state?: 'open' | 'acknowledged' | 'resolved';
    openedAt?: Date;
    /** A resolved incident's end; its opening by default. */
    resolvedAt?: Date;
  } = {},
): Promise<string> {
  const openedAt = options.openedAt ?? t.clock.now();
  const state = options.state ?? 'open';
  const [row] = await t.database.db
    .insert(incidents)
    .values({
      monitorId,
      userId: user.userId,
      conditionKey: options.conditionKey ?? 'http_status',
      state,
      summary: 'The page answered 503 Service Unavailable.',
      openedAt,
      resolvedAt: state === 'resolved' ? (options.resolvedAt ?? openedAt) : null,
      lastAlertAt: openedAt,
      nextAlertAt: state === 'open' ? new Date(openedAt.getTime() + 30 * 60_000) : null,
      alertCount: 1,
    })
    .returning({ id: incidents.id });
  await t.database.db.insert(alertDeliveries).values({
    incidentId: row!.id,
    event: 'opened',
    channel: 'email',
    recipient: user.email,
    status: 'sent',
    attempts: 1,
    createdAt: openedAt,
    updatedAt: openedAt,
    sentAt: openedAt,
  });
  return row!.id;
}
