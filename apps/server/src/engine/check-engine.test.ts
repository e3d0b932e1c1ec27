import { createSandbox, type Sandbox } from '@vigil/sandbox';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCheckers } from '../checks/all-checkers.ts';
import type { Checker } from '../checks/checker.ts';
import { openDatabase, type Database } from '../db/database.ts';
import {
  alertDeliveries,
  checkResults,
  checkRollups,
  deliveryAttempts,
  incidents,
  monitors,
  rollupProgress,
} from '../db/schema.ts';
import { createStore, type Store } from '../db/store.ts';
import { startJobs, type JobQueue, type Jobs } from '../jobs/job-queue.ts';
import { DEFAULT_PHONE_POLICY } from '../delivery/delivery.ts';
import { HOUR_MS, MINUTE_MS, systemClock, type Clock } from '../lib/clock.ts';
import { createAckLinks } from '../modules/alerts/ack-link.ts';
import { conditionLabel } from '../modules/monitors/service-catalogue.ts';
import { createEmailSender, type EmailSender } from '../notify/email.ts';
import { rowsOf } from '../db/raw-sql.ts';
import { databases } from '../test/databases.ts';
import { insertMonitor, monitorRow, userWithVerifiedEmail } from '../test/engine-kit.ts';
import { HEALTHY, startTargetServer, type TargetServer } from '../test/target-server.ts';
import { createTestClock, type TestClock } from '../test/test-clock.ts';
import { UNVERIFIED_EMAIL } from './alert-events.ts';
import { CHECK_DEADLINE_MS, createCheckEngine, START_TICK_MS, type CheckEngine } from './check-engine.ts';
import { rollUpAndPrune, rollUpPacingFor } from './retention.ts';

const silentLog = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLog,
} as never;

const noQueue: JobQueue = { send: async () => undefined };

/**
 * Sets these monitors' next slots in one statement: a test's slots a few hundred ms ahead are set after the
 * slower set-up, so a busy machine does not make them due before the engine starts.
 */
async function scheduleAt(db: Database['db'], slots: Map<string, Date>): Promise<void> {
  const values = [...slots].map(([id, at]) => sql`(${id}::uuid, ${at.toISOString()}::timestamptz)`);
  await db.execute(
    sql`update monitors as m set next_check_at = v.at from (values ${sql.join(values, sql`, `)}) as v(id, at)
        where m.id = v.id`,
  );
}

/**
 * An engine whose website checks answer with `check` (and, given `timeoutMs`, give up by themselves within it),
 * with no job queue: the check and write path alone.
 */
function engineChecking(
  store: Store,
  clock: Clock,
  check: Checker['check'],
  places: number,
  timeoutMs?: number,
): CheckEngine {
  return createCheckEngine({
    store,
    queue: noQueue,
    clock,
    checkers: {
      website: { service: 'website', check, ...(timeoutMs !== undefined && { timeoutMs: () => timeoutMs }) },
    },
    log: silentLog,
    concurrency: places,
    batchSize: places,
  });
}

describe.each(databases)('check engine on $name', (testDatabase) => {
  let database: Database;
  let drop: () => Promise<void>;
  let store: Store;
  let sandbox: Sandbox;
  let email: EmailSender;
  let jobs: Jobs;
  let clock: TestClock;
  let engine: CheckEngine;
  let site: TargetServer;

  beforeAll(async () => {
    ({ database, drop } = await testDatabase.create());
    store = createStore(database.db);
    clock = createTestClock(new Date('2026-03-01T10:00:00Z'));
    sandbox = createSandbox({
      publicUrl: 'http://127.0.0.1',
      smtpPort: 0,
      oidcClientId: 'x',
      oidcClientSecret: 'y',
    });
    const { smtpPort } = await sandbox.start();
    email = createEmailSender({ smtpUrl: `smtp://127.0.0.1:${smtpPort}`, from: 'Vigil <alerts@vigil.test>' });
    jobs = await startJobs({ database, runWorkers: true });
    const ackLinks = createAckLinks({
      serverSecrets: store.serverSecrets,
      clock,
      publicUrl: 'http://vigil.test',
    });
    await jobs.run({
      email,
      log: silentLog,
      store,
      clock,
      ackLink: (id) => ackLinks.createAckLink(id),
      publicUrl: 'http://vigil.test',
      resultRetentionHours: 48,
      rollUpPacing: rollUpPacingFor(database.kind),
      phone: null,
      phonePolicy: DEFAULT_PHONE_POLICY,
      queue: jobs.queue,
    });
    engine = createCheckEngine({
      store,
      queue: jobs.queue,
      clock,
      checkers: createCheckers(),
      log: silentLog,
      concurrency: 10,
      batchSize: 50,
    });
    site = await startTargetServer();
  });
  afterAll(async () => {
    await site?.close();
    await jobs?.stop();
    email?.close();
    await sandbox?.stop();
    await drop?.();
  });
  afterEach(() => {
    site.behaviour = { ...HEALTHY };
  });

  const mailTo = (to: string, subject: RegExp) =>
    sandbox.mailbox.waitFor((mail) => mail.to.includes(to) && subject.test(mail.subject), 10_000);

  it('opens an incident after the confirmations, emails, repeats, stops on acknowledge and emails the recovery', async () => {
    const owner = await userWithVerifiedEmail(store, clock.now());
    const url = `${site.url}/journey`;
    const id = await insertMonitor(database.db, {
      userId: owner.id,
      email: owner.email,
      url,
      name: 'Main shop',
      nextCheckAt: clock.now(),
      confirmations: 2,
      repeatIntervalMinutes: 5,
    });

    expect(await engine.runDue()).toBe(1);
    expect(await monitorRow(database.db, id)).toMatchObject({
      status: 'up',
      lastError: null,
      nextCheckAt: new Date('2026-03-01T10:01:00Z'),
      claimedUntil: null,
    });
    expect(await engine.runDue()).toBe(0);

    site.behaviour = { ...HEALTHY, status: 503 };
    clock.advance(MINUTE_MS);
    expect(await engine.runDue()).toBe(1);
    // Failing but not yet confirmed: said at once, and re-checked after 30 s instead of a whole interval.
    expect(await monitorRow(database.db, id)).toMatchObject({
      status: 'confirming',
      lastError: `HTTP 503 from ${url}`,
      nextCheckAt: new Date('2026-03-01T10:01:30Z'),
    });
    expect(await database.db.select().from(incidents).where(eq(incidents.monitorId, id))).toEqual([]);

    clock.advance(30_000);
    expect(await engine.runDue()).toBe(1);
    expect((await monitorRow(database.db, id)).status).toBe('down');
    const [incident] = await database.db.select().from(incidents).where(eq(incidents.monitorId, id));
    expect(incident).toMatchObject({ conditionKey: 'http_status', state: 'open', alertCount: 1 });
    const opened = await mailTo(owner.email, /^\[Vigil\] DOWN: Main shop — HTTP 503 from /);
    expect(opened.text).toContain(`Condition: ${conditionLabel('website', 'http_status')}`);
    expect(opened.text).toContain(
      'Acknowledge to stop the reminders: http://vigil.test/monitor-bff/alerts/acknowledge?token=',
    );
    expect(opened.html).toContain('>Acknowledge</a>');

    // Still down: no second incident, no second "opened" email; the reminder comes at the interval.
    clock.advance(4 * MINUTE_MS);
    await engine.runDue();
    expect(await engine.sweepRepeats()).toBe(0);
    clock.advance(MINUTE_MS);
    expect(await engine.sweepRepeats()).toBe(1);
    await mailTo(owner.email, /^\[Vigil\] Still DOWN \(reminder 1\): Main shop/);

    expect(await store.incidents.acknowledge(incident!.id, clock.now())).toBe(true);
    clock.advance(10 * MINUTE_MS);
    await engine.runDue();
    expect(await engine.sweepRepeats()).toBe(0);

    site.behaviour = { ...HEALTHY };
    clock.advance(MINUTE_MS);
    await engine.runDue();
    const recovered = await mailTo(owner.email, /^\[Vigil\] Recovered: Main shop — /);
    expect(recovered.subject).toBe(
      `[Vigil] Recovered: Main shop — ${conditionLabel('website', 'http_status')}`,
    );
    expect(recovered.text).toContain('Recovered: 2026-03-01');
    expect(recovered.text).not.toContain('Acknowledge');
    expect((await monitorRow(database.db, id)).status).toBe('up');

    const deliveries = await database.db
      .select()
      .from(alertDeliveries)
      .where(eq(alertDeliveries.incidentId, incident!.id))
      .orderBy(asc(alertDeliveries.createdAt));
    await expect
      .poll(async () =>
        (
          await database.db.select().from(alertDeliveries).where(eq(alertDeliveries.incidentId, incident!.id))
        ).map((d) => `${d.event} ${d.status}`),
      )
      .toEqual(expect.arrayContaining(['opened sent', 'repeat-1 sent', 'resolved sent']));
    expect(deliveries.map((d) => d.event)).toEqual(['opened', 'repeat-1', 'resolved']);
    const attempts = await database.db
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, deliveries[0]!.id));
    expect(attempts).toMatchObject([{ outcome: 'sent', error: null }]);
    expect(sandbox.mailbox.list({ to: owner.email })).toHaveLength(3);
    expect(await database.db.select().from(checkResults).where(eq(checkResults.monitorId, id))).toHaveLength(
      6,
    );
  });

  it('never checks a paused monitor, and sends no reminder for its open incident', async () => {
    const owner = await userWithVerifiedEmail(store, clock.now());
    site.behaviour = { ...HEALTHY, status: 500 };
    const id = await insertMonitor(database.db, {
      userId: owner.id,
      email: owner.email,
      url: `${site.url}/paused`,
      nextCheckAt: clock.now(),
      repeatIntervalMinutes: 1,
    });
    await engine.runDue();
    await mailTo(owner.email, /^\[Vigil\] DOWN/);
    await database.db.execute(sql`update monitors set paused = true where id = ${id}::uuid`);

    clock.advance(10 * MINUTE_MS);
    await engine.runDue();
    await engine.sweepRepeats();
    expect(site.hits.get('/paused')).toBe(1);
    const [incident] = await database.db.select().from(incidents).where(eq(incidents.monitorId, id));
    expect(incident).toMatchObject({ state: 'open', alertCount: 1 });
    const events = await database.db
      .select({ event: alertDeliveries.event })
      .from(alertDeliveries)
      .where(eq(alertDeliveries.incidentId, incident!.id));
    expect(events).toEqual([{ event: 'opened' }]);
  });

  it('checks again at once when a re-check is asked for while a worker holds the slot', async () => {
    const owner = await userWithVerifiedEmail(store, clock.now());
    const id = await insertMonitor(database.db, {
      userId: owner.id,
      email: owner.email,
      url: `${site.url}/recheck`,
      nextCheckAt: clock.now(),
    });
    site.behaviour = { ...HEALTHY, delayMs: 300 };
    const running = engine.runDue();
    await expect.poll(() => site.hits.get('/recheck') ?? 0).toBe(1);
    // A provider webhook arrives now: the running check may have read the account before the change.
    expect(await store.checks.requestChecks([id], clock.now())).toBe(1);
    expect(await monitorRow(database.db, id)).toMatchObject({ recheckRequested: true });
    await running;
    const row = await monitorRow(database.db, id);
    expect(row.recheckRequested).toBe(false);
    // Due a millisecond after the checked slot (a slot is checked once), not a whole interval later.
    expect(row.nextCheckAt.getTime()).toBeLessThanOrEqual(clock.now().getTime() + 1);
    clock.advance(1000);
    await engine.runDue();
    expect(site.hits.get('/recheck')).toBe(2);
  });

  it('writes a result again when the database failed its write, instead of checking the slot twice', async () => {
    const owner = await userWithVerifiedEmail(store, clock.now());
    const id = await insertMonitor(database.db, {
      userId: owner.id,
      email: owner.email,
      url: `${site.url}/rewritten`,
      nextCheckAt: clock.now(),
    });
    // The first write meets the database gone, as during a PostgreSQL restart.
    let failures = 1;
    const restarting: Store = {
      ...store,
      checks: {
        ...store.checks,
        record: (slots) =>
          failures-- > 0
            ? Promise.reject(new Error('Connection terminated unexpectedly'))
            : store.checks.record(slots),
      },
    };
    const retrying = createCheckEngine({
      store: restarting,
      queue: noQueue,
      clock,
      checkers: createCheckers(),
      log: silentLog,
      concurrency: 4,
      batchSize: 10,
    });
    await retrying.runDue();
    expect(failures).toBe(-1);
    expect(site.hits.get('/rewritten')).toBe(1);
    const results = await database.db.select().from(checkResults).where(eq(checkResults.monitorId, id));
    expect(results.map((r) => r.slotAt)).toEqual([clock.now()]);
    expect(await monitorRow(database.db, id)).toMatchObject({
      claimedUntil: null,
      nextCheckAt: new Date(clock.now().getTime() + MINUTE_MS),
    });
  });

  it('says so when a condition could not be judged, instead of passing it silently', async () => {
    const owner = await userWithVerifiedEmail(store, clock.now());
    const unjudged = engineChecking(
      store,
      clock,
      async () => ({
        responseMs: null,
        statusCode: null,
        conditions: [{ key: 'keyword', ok: null, summary: 'the shop kept Vigil waiting' }],
      }),
      1,
    );
    const id = await insertMonitor(database.db, {
      userId: owner.id,
      email: owner.email,
      url: `${site.url}/unjudged`,
      nextCheckAt: clock.now(),
    });
    await unjudged.runDue();
    const [result] = await database.db.select().from(checkResults).where(eq(checkResults.monitorId, id));
    expect(result).toMatchObject({ ok: true, error: 'Not checked: the shop kept Vigil waiting' });
    expect((await monitorRow(database.db, id)).lastError).toBe('Not checked: the shop kept Vigil waiting');
  });

  it('gives a check its deadline unless its checker gives up by itself within it', async () => {
    const owner = await userWithVerifiedEmail(store, clock.now());
    const signals: (AbortSignal | undefined)[] = [];
    for (const timeoutMs of [undefined, CHECK_DEADLINE_MS + 1, CHECK_DEADLINE_MS]) {
      const given: (AbortSignal | undefined)[] = [];
      const engine = engineChecking(
        store,
        clock,
        async ({ signal }) => {
          given.push(signal);
          return {
            responseMs: 1,
            statusCode: 200,
            conditions: [{ key: 'http_status', ok: true, summary: 'HTTP' }],
          };
        },
        1,
        timeoutMs,
      );
      await insertMonitor(database.db, {
        userId: owner.id,
        email: owner.email,
        url: `${site.url}/deadline-${timeoutMs}`,
        nextCheckAt: clock.now(),
      });
      await engine.runDue();
      expect(given).toHaveLength(1);
      signals.push(given[0]);
    }
    expect(signals.map((signal) => signal?.aborted)).toEqual([false, false, undefined]);
  });

  it('writes a batch exactly as checked, whatever its texts hold', async () => {
    const owner = await userWithVerifiedEmail(store, clock.now());
    // Each column of a batch goes to the database as one array literal: quotes, backslashes, braces, commas, the
    // word NULL, a line break and an empty answer must all come back as they were, beside a check with no error.
    const awkward = 'said "no" \\ {a,b} NULL, then\nleft: 🛒 ';
    const written = engineChecking(
      store,
      clock,
      async ({ target }) =>
        (target as { url: string }).url.endsWith('/awkward')
          ? {
              responseMs: 7,
              statusCode: 500,
              conditions: [{ key: 'http_status', ok: false, summary: awkward }],
            }
          : { responseMs: 3, statusCode: 200, conditions: [{ key: 'http_status', ok: true, summary: '' }] },
      2,
    );
    const ids = await Promise.all(
      ['/awkward', '/plain'].map((path) =>
        insertMonitor(database.db, {
          userId: owner.id,
          email: owner.email,
          url: `${site.url}${path}`,
          nextCheckAt: clock.now(),
        }),
      ),
    );
    await written.runDue();
    const results = await database.db
      .select()
      .from(checkResults)
      .where(sql`${checkResults.monitorId} in (${sql.join(ids, sql`, `)})`);
    const byMonitor = new Map(results.map((result) => [result.monitorId, result]));
    expect(byMonitor.get(ids[0]!)).toMatchObject({
      ok: false,
      responseMs: 7,
      statusCode: 500,
      failedConditions: ['http_status'],
      error: awkward,
    });
    expect(byMonitor.get(ids[1]!)).toMatchObject({
      ok: true,
      responseMs: 3,
      failedConditions: [],
      error: null,
    });
    const [awkwardRow, plainRow] = await Promise.all(ids.map((id) => monitorRow(database.db, id)));
    expect(awkwardRow).toMatchObject({ lastError: awkward, lastResponseMs: 7 });
    expect(plainRow).toMatchObject({ lastError: null, lastResponseMs: 3 });
    expect(awkwardRow!.tallyChecks[0]).toBe(1);
    expect(awkwardRow!.tallyFailures[0]).toBe(1);
    expect(plainRow!.tallyFailures[0]).toBe(0);
  });

  it('records an alert to an unverified address as skipped, saying why', async () => {
    const owner = await userWithVerifiedEmail(store, clock.now());
    site.behaviour = { ...HEALTHY, status: 502 };
    const id = await insertMonitor(database.db, {
      userId: owner.id,
      email: 'someone-else@shop.example',
      url: `${site.url}/unverified`,
      nextCheckAt: clock.now(),
    });
    await engine.runDue();
    const [incident] = await database.db.select().from(incidents).where(eq(incidents.monitorId, id));
    const [delivery] = await database.db
      .select()
      .from(alertDeliveries)
      .where(eq(alertDeliveries.incidentId, incident!.id));
    expect(delivery).toMatchObject({
      event: 'opened',
      channel: 'email',
      recipient: 'someone-else@shop.example',
      status: 'skipped',
      lastError: UNVERIFIED_EMAIL,
    });
  });

  /**
   * A monitor whose results the test writes by hand, from `day` on; its hours are before the other tests' clock,
   * so the roll-up starts afresh, as on a new database.
   */
  async function rollUpSubject(path: string, day: string) {
    await database.db.delete(rollupProgress);
    const owner = await userWithVerifiedEmail(store, clock.now());
    const id = await insertMonitor(database.db, {
      userId: owner.id,
      email: owner.email,
      url: `${site.url}${path}`,
      nextCheckAt: clock.now(),
    });
    const base = new Date(day).getTime();
    return { id, base, at: (hours: number) => new Date(base + hours * HOUR_MS) };
  }

  it('rolls results up per slot hour and drops whole partitions past the retention window', async () => {
    const { id, base, at } = await rollUpSubject('/history', '2026-02-01T00:00:00Z');
    // 100 checks a minute apart from midnight: 6-hour partitions at 48 hours' retention, all in the first.
    const result = (ms: number, ok: boolean, responseMs: number) => ({
      monitorId: id,
      slotAt: new Date(ms),
      // Started a few seconds late: the hour is the slot's.
      checkedAt: new Date(ms + 5_000),
      ok,
      responseMs,
    });
    await database.db
      .insert(checkResults)
      .values(Array.from({ length: 100 }, (_, i) => result(base + i * MINUTE_MS, i % 10 !== 0, i + 1)));

    // Hour by hour, as the periodic job runs: each hour is rolled up while its raw results are all kept.
    await rollUpAndPrune(store, at(1.5), 48);
    await rollUpAndPrune(store, at(2.5), 48);
    const rollups = await database.db
      .select()
      .from(checkRollups)
      .where(eq(checkRollups.monitorId, id))
      .orderBy(asc(checkRollups.hour));
    expect(rollups.map(({ hour, checks, failures }) => ({ hour, checks, failures }))).toEqual([
      { hour: at(0), checks: 60, failures: 6 },
      { hour: at(1), checks: 40, failures: 4 },
    ]);
    expect(rollups[0]).toMatchObject({ p50Ms: 30.5, avgMs: 30.5 });
    expect(rollups[0]!.p99Ms).toBeCloseTo(59.41, 1);

    // 30 more from 06:00, in the second partition.
    await database.db
      .insert(checkResults)
      .values(Array.from({ length: 30 }, (_, i) => result(base + 6 * HOUR_MS + i * 4 * MINUTE_MS, true, 50)));
    // 48 hours after 06:00 the first partition is wholly past the retention: dropped, the second kept whole.
    expect((await rollUpAndPrune(store, at(53.5), 48)).dropped).not.toContain('check_results_p20260201t00');
    const { dropped } = await rollUpAndPrune(store, at(54.5), 48);
    expect(dropped).toEqual(['check_results_p20260201t00']);
    expect(await database.db.select().from(checkResults).where(eq(checkResults.monitorId, id))).toHaveLength(
      30,
    );
    // The roll-up of the dropped hours is untouched.
    const [first] = await database.db
      .select()
      .from(checkRollups)
      .where(eq(checkRollups.hour, at(0)));
    expect(first).toMatchObject({ checks: 60, failures: 6 });
  });

  it('rolls each hour up once it has closed, and once more an hour later for results written late', async () => {
    const { id, base, at } = await rollUpSubject('/closing', '2026-02-10T00:00:00Z');
    const insert = (slots: number[], checkedAt?: Date) =>
      database.db.insert(checkResults).values(
        slots.map((ms) => ({
          monitorId: id,
          slotAt: new Date(ms),
          checkedAt: checkedAt ?? new Date(ms),
          ok: true,
        })),
      );
    const rolledUp = async () =>
      (
        await database.db
          .select()
          .from(checkRollups)
          .where(eq(checkRollups.monitorId, id))
          .orderBy(asc(checkRollups.hour))
      ).map(({ hour, checks }) => ({ hour, checks }));
    await insert(Array.from({ length: 60 }, (_, i) => base + i * MINUTE_MS));

    // 01:10: hour 0 ended, but results may still be on their way; 01:20: it is rolled up.
    await rollUpAndPrune(store, at(1 + 10 / 60), 48);
    expect(await rolledUp()).toEqual([]);
    expect((await rollUpAndPrune(store, at(1 + 20 / 60), 48)).rolledUp).toBe(1);
    expect(await rolledUp()).toEqual([{ hour: at(0), checks: 60 }]);
    // Nothing closed since: a run reads nothing.
    expect((await rollUpAndPrune(store, at(1.9), 48)).rolledUp).toBe(0);

    // A result of hour 0 checked after the hour and written after its roll-up (the database was down
    // meanwhile), and hour 1's checks.
    await insert([base + 59.5 * MINUTE_MS], at(1 + 25 / 60));
    await insert(Array.from({ length: 10 }, (_, i) => base + HOUR_MS + i * MINUTE_MS));
    expect((await rollUpAndPrune(store, at(2.3), 48)).rolledUp).toBe(2);
    expect(await rolledUp()).toEqual([
      { hour: at(0), checks: 61 },
      { hour: at(1), checks: 10 },
    ]);
    // Hour 0 is not read again, and nothing of hour 1 was checked after it ended: nothing is rolled up again.
    expect((await rollUpAndPrune(store, at(3.3), 48)).rolledUp).toBe(0);
    expect(await rolledUp()).toEqual([
      { hour: at(0), checks: 61 },
      { hour: at(1), checks: 10 },
    ]);
  });

  describe('slice by slice of monitors', () => {
    /** Three monitors with an hour of results from `day`: monitor k answers in (i + 1) × (k + 1) ms, fails every 10th. */
    async function threeMonitors(day: string) {
      const subject = await rollUpSubject('/sliced-0', day);
      const owner = await userWithVerifiedEmail(store, clock.now());
      const ids = [subject.id];
      for (const k of [1, 2])
        ids.push(
          await insertMonitor(database.db, {
            userId: owner.id,
            email: owner.email,
            url: `${site.url}/sliced-${k}`,
            nextCheckAt: clock.now(),
          }),
        );
      await database.db.insert(checkResults).values(
        ids.flatMap((monitorId, k) =>
          Array.from({ length: 60 }, (_, i) => ({
            monitorId,
            slotAt: new Date(subject.base + i * MINUTE_MS),
            checkedAt: new Date(subject.base + i * MINUTE_MS + 2_000),
            ok: i % 10 !== 0,
            responseMs: (i + 1) * (k + 1),
          })),
        ),
      );
      const rollupsOf = async () =>
        (await database.db.select().from(checkRollups).where(inArray(checkRollups.monitorId, ids)))
          .map(({ monitorId, checks, failures, p50Ms }) => ({
            k: ids.indexOf(monitorId),
            checks,
            failures,
            p50Ms,
          }))
          .sort((a, b) => a.k - b.k);
      const whole = [0, 1, 2].map((k) => ({ k, checks: 60, failures: 6, p50Ms: 30.5 * (k + 1) }));
      return { ...subject, ids, rollupsOf, whole };
    }

    const progress = async () =>
      (await database.db.select().from(rollupProgress).where(eq(rollupProgress.source, 'check_results')))[0]
        ?.rolledUntil;

    it('gives the figures of one pass, resting after each slice as long as it took', async () => {
      const { at, rollupsOf, whole } = await threeMonitors('2026-02-20T00:00:00Z');
      const rests: number[] = [];
      const pacing = { sliceMonitors: 1, maxSlices: 1_000, rest: async (ms: number) => void rests.push(ms) };

      expect((await rollUpAndPrune(store, at(1 + 20 / 60), 48, pacing)).rolledUp).toBe(3);
      expect(await rollupsOf()).toEqual(whole);
      // A slice per monitor of the database: a rest between each two.
      expect(rests).toHaveLength((await database.db.$count(monitors)) - 1);
      expect(rests.every((ms) => ms >= 0)).toBe(true);
      expect(await progress()).toEqual(at(1));
    });

    it('leaves the progress where it was when a run dies between slices; the next run rolls every slice up', async () => {
      const { at, rollupsOf, whole } = await threeMonitors('2026-02-21T00:00:00Z');
      let rests = 0;
      const dying = {
        sliceMonitors: 1,
        maxSlices: 1_000,
        rest: async () => {
          if (++rests === 2) throw new Error('worker stopped');
        },
      };

      await expect(rollUpAndPrune(store, at(1 + 20 / 60), 48, dying)).rejects.toThrow('worker stopped');
      // Two slices ran: at most one monitor of the database has its hour rolled up, and the progress did not move.
      expect((await rollupsOf()).length).toBeLessThan(3);
      expect(await progress()).toEqual(at(-1));

      expect((await rollUpAndPrune(store, at(1 + 30 / 60), 48)).rolledUp).toBe(3);
      expect(await rollupsOf()).toEqual(whole);
      expect(await progress()).toEqual(at(1));
    });

    it('stops when another run rolled the hours up meanwhile', async () => {
      const { at, rollupsOf, whole } = await threeMonitors('2026-02-22T00:00:00Z');
      let rests = 0;
      let other = 0;
      const overtaken = {
        sliceMonitors: 1,
        maxSlices: 1_000,
        // While this run rests after its first slice, another rolls the same hours up whole.
        rest: async () => {
          if (++rests === 1) other = (await rollUpAndPrune(store, at(1 + 20 / 60), 48)).rolledUp;
        },
      };

      // The first slice held one monitor (of this test or another's); then the run stopped.
      expect((await rollUpAndPrune(store, at(1 + 20 / 60), 48, overtaken)).rolledUp).toBeLessThanOrEqual(1);
      expect(rests).toBe(1);
      expect(other).toBe(3);
      expect(await rollupsOf()).toEqual(whole);
    });
  });
});

describe('two workers on one PostgreSQL database', () => {
  const postgres = databases.find((d) => d.name === 'PostgreSQL')!;

  it('share the due monitors without checking any slot twice or missing one', async () => {
    const { database, drop } = await postgres.create();
    if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const second = await openDatabase({ databaseUrl: database.connectionString, poolSize: 5 });
    const site = await startTargetServer();
    try {
      const clock = createTestClock(new Date('2026-03-01T10:00:00Z'));
      const store = createStore(database.db);
      const owner = await userWithVerifiedEmail(store, clock.now());
      const count = 120;
      for (let i = 0; i < count; i++) {
        await insertMonitor(database.db, {
          userId: owner.id,
          email: owner.email,
          url: `${site.url}/m${i}`,
          // Spread over the minute, as monitors created at different times are.
          nextCheckAt: new Date(clock.now().getTime() + (i % 6) * 10_000),
        });
      }
      const workers = [database, second].map((db) =>
        createCheckEngine({
          store: createStore(db.db),
          queue: noQueue,
          clock,
          checkers: createCheckers(),
          log: silentLog,
          concurrency: 8,
          batchSize: 5,
        }),
      );
      const rounds = 12;
      let firstCount = 0;
      let secondCount = 0;
      for (let round = 0; round < rounds; round++) {
        const [a, b] = await Promise.all(workers.map((worker) => worker.runDue()));
        firstCount += a!;
        secondCount += b!;
        clock.advance(10_000);
      }
      // 12 rounds of 10 s cover two minutes: every monitor's two slots, each checked once.
      expect(firstCount + secondCount).toBe(count * 2);
      expect(firstCount).toBeGreaterThan(0);
      expect(secondCount).toBeGreaterThan(0);
      for (let i = 0; i < count; i++) expect(site.hits.get(`/m${i}`)).toBe(2);
      const { rows } = (await database.db.execute(
        sql`select count(*)::int as results, count(distinct (monitor_id, slot_at))::int as slots from check_results`,
      )) as unknown as { rows: { results: number; slots: number }[] };
      expect(rows).toEqual([{ results: count * 2, slots: count * 2 }]);
    } finally {
      await site.close();
      await second.close();
      await drop();
    }
  });

  it('checks a slot again when the worker that claimed it died (its lease ran out)', async () => {
    const { database, drop } = await postgres.create();
    const site = await startTargetServer();
    try {
      const clock = createTestClock(new Date('2026-03-01T10:00:00Z'));
      const store = createStore(database.db);
      const owner = await userWithVerifiedEmail(store, clock.now());
      const id = await insertMonitor(database.db, {
        userId: owner.id,
        email: owner.email,
        url: `${site.url}/orphan`,
        nextCheckAt: clock.now(),
      });
      // A worker claimed the slot and died before writing its result.
      const claimed = await store.checks.claimDue({
        now: clock.now(),
        leaseUntil: new Date(clock.now().getTime() + 35_000),
        limit: 10,
        services: ['website'],
      });
      expect(claimed.map((m) => m.id)).toEqual([id]);
      const engine = createCheckEngine({
        store,
        queue: noQueue,
        clock,
        checkers: createCheckers(),
        log: silentLog,
        concurrency: 4,
        batchSize: 10,
      });
      expect(await engine.runDue()).toBe(0);
      clock.advance(35_000);
      expect(await engine.runDue()).toBe(1);
      const results = await database.db.select().from(checkResults).where(eq(checkResults.monitorId, id));
      expect(results.map((r) => r.slotAt)).toEqual([new Date('2026-03-01T10:00:00Z')]);
      expect((await monitorRow(database.db, id)).nextCheckAt).toEqual(new Date('2026-03-01T10:01:00Z'));
    } finally {
      await site.close();
      await drop();
    }
  });
});

describe.each(databases)('check engine batching on $name', (testDatabase) => {
  let database: Database;
  let drop: () => Promise<void>;
  let store: Store;
  const clock = createTestClock(new Date('2026-03-01T10:00:00Z'));
  beforeAll(async () => {
    ({ database, drop } = await testDatabase.create());
    store = createStore(database.db);
  });
  afterAll(async () => {
    await drop?.();
  });

  /**
   * Runs the engine (on the real clock) until the monitors at these paths have a result; answers each path's
   * transaction id. Their slots are the same instant 300 ms ahead, so one claim takes them ahead and they start
   * together, unless `dueNow` (as Check now makes it).
   */
  async function writtenBy(
    paths: Record<string, { afterMs: number; ok: boolean; firstCheck?: boolean; dueNow?: boolean }>,
  ): Promise<Map<string, string>> {
    const owner = await userWithVerifiedEmail(store, clock.now());
    const ids = new Map<string, string>();
    for (const [path, { firstCheck }] of Object.entries(paths)) {
      const id = await insertMonitor(database.db, {
        userId: owner.id,
        email: owner.email,
        url: `http://127.0.0.1:9${path}`,
        nextCheckAt: new Date(Date.now() + HOUR_MS),
        confirmations: 2,
      });
      // Checked before and healthy, unless this is to be its first check.
      if (!firstCheck)
        await database.db
          .update(monitors)
          .set({ status: 'up', checkState: { http_status: { failures: 0, open: false } } })
          .where(eq(monitors.id, id));
      ids.set(id, path);
    }
    const now = Date.now();
    await scheduleAt(
      database.db,
      new Map([...ids].map(([id, path]) => [id, new Date(paths[path]!.dueNow ? now : now + 300)])),
    );
    const engine = engineChecking(
      store,
      systemClock,
      async ({ target }) => {
        const { afterMs, ok } = paths[new URL((target as { url: string }).url).pathname]!;
        await new Promise((resolve) => setTimeout(resolve, afterMs));
        return {
          responseMs: afterMs,
          statusCode: ok ? 200 : 503,
          conditions: [{ key: 'http_status', ok, summary: 'HTTP' }],
        };
      },
      10,
    );
    engine.start();
    try {
      for (let waited = 0; ; waited += 20) {
        const rows = await rowsOf<{ id: string; tx: string }>(
          database.db,
          sql`select monitor_id::text as id, xmin::text as tx from check_results
              where monitor_id in (${sql.join(
                [...ids.keys()].map((id) => sql`${id}::uuid`),
                sql`, `,
              )})`,
        );
        if (rows.length === ids.size) return new Map(rows.map((row) => [ids.get(row.id)!, row.tx]));
        if (waited > 10_000) throw new Error(`only ${rows.length} of ${ids.size} results written`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await engine.stop();
    }
  }

  it('gathers passing checks of healthy monitors into one write', async () => {
    const tx = await writtenBy({ '/first': { afterMs: 0, ok: true }, '/later': { afterMs: 120, ok: true } });
    expect(tx.get('/later')).toBe(tx.get('/first'));
  });

  it('writes a failure without waiting for the gathering of passing checks', async () => {
    const tx = await writtenBy({
      '/passing': { afterMs: 0, ok: true },
      '/failing': { afterMs: 20, ok: false },
      '/slow': { afterMs: 200, ok: true },
    });
    // The failure's write (50 ms after it) takes the passing check waiting beside it; the third passing check,
    // within the second a passing check may wait, comes after that write.
    expect(tx.get('/failing')).toBe(tx.get('/passing'));
    expect(tx.get('/slow')).not.toBe(tx.get('/failing'));
  });

  it("writes a new monitor's first check without waiting, for the person looking at its page", async () => {
    const tx = await writtenBy({
      '/known': { afterMs: 0, ok: true },
      '/new': { afterMs: 20, ok: true, firstCheck: true },
      '/later': { afterMs: 200, ok: true },
    });
    expect(tx.get('/new')).toBe(tx.get('/known'));
    expect(tx.get('/later')).not.toBe(tx.get('/new'));
  });

  it('writes a check whose slot was already due when claimed (Check now) without waiting', async () => {
    const tx = await writtenBy({
      '/asked': { afterMs: 0, ok: true, dueNow: true },
      '/scheduled': { afterMs: 0, ok: true },
    });
    // Gathered with a passing check, the asked-for one would have waited up to 1 s and shared its write.
    expect(tx.get('/asked')).not.toBe(tx.get('/scheduled'));
  });

  /** Monitors whose first slots are these many ms from now, on the whole millisecond; answers id → slot. */
  async function monitorsDueIn(offsets: number[]): Promise<Map<string, number>> {
    const owner = await userWithVerifiedEmail(store, new Date());
    const ids: string[] = [];
    for (const [i] of offsets.entries()) {
      ids.push(
        await insertMonitor(database.db, {
          userId: owner.id,
          email: owner.email,
          url: `http://127.0.0.1:9/${i}`,
          nextCheckAt: new Date(Date.now() + HOUR_MS),
        }),
      );
    }
    const start = Date.now();
    const slots = new Map(ids.map((id, i) => [id, start + offsets[i]!]));
    await scheduleAt(database.db, new Map([...slots].map(([id, slot]) => [id, new Date(slot)])));
    return slots;
  }

  /** An engine on the real clock whose checks pass at once, noting when each slot's check started. */
  function engineNoting(started: Map<number, number>, through: Store = store): CheckEngine {
    return createCheckEngine({
      store: through,
      queue: noQueue,
      clock: systemClock,
      checkers: {
        website: {
          service: 'website',
          async check({ slotAt }) {
            started.set(slotAt.getTime(), Date.now());
            return {
              responseMs: 1,
              statusCode: 200,
              conditions: [{ key: 'http_status', ok: true, summary: 'HTTP' }],
            };
          },
        },
      },
      log: silentLog,
      concurrency: 10,
      batchSize: 10,
    });
  }

  /** Runs the engine until `count` checks have started (at most 5 s), then stops it. */
  async function runUntilStarted(engine: CheckEngine, started: Map<number, number>, count: number) {
    engine.start();
    try {
      for (let waited = 0; started.size < count; waited += 20) {
        if (waited > 5_000) throw new Error(`only ${started.size} of ${count} checks started`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await engine.stop();
    }
  }

  /** Each of these slots' checks started at or after the slot, within a start tick. */
  function expectStartedOnTick(slots: Iterable<number>, started: Map<number, number>) {
    for (const slot of slots) {
      const lateMs = started.get(slot)! - slot;
      expect(lateMs).toBeGreaterThanOrEqual(0);
      expect(lateMs).toBeLessThan(START_TICK_MS + 100);
    }
  }

  it('starts each check claimed ahead at or after its slot, within a start tick', async () => {
    // Some beyond the first claim's lookahead, so a later claim takes them.
    const slots = await monitorsDueIn([300, 450, 700, 1200, 1600]);
    const started = new Map<number, number>();
    const engine = engineNoting(started);
    await runUntilStarted(engine, started, slots.size);
    expectStartedOnTick(slots.values(), started);
    const results = await database.db
      .select()
      .from(checkResults)
      .where(
        sql`${checkResults.monitorId} in (${sql.join(
          [...slots.keys()].map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      );
    expect(results).toHaveLength(slots.size);
  });

  it('walks the due index from its latest claimed slot, and still takes a slot left behind when its lease ends', async () => {
    const slots = await monitorsDueIn([300, 450, 700, 1200, 1600, 2000]);
    // Due first, but held by a worker that died: its lease runs out 900 ms from now.
    const [[orphan, orphanSlot]] = [...(await monitorsDueIn([250]))] as [[string, number]];
    const leaseEnd = Date.now() + 900;
    await database.db
      .update(monitors)
      .set({ claimedUntil: new Date(leaseEnd) })
      .where(eq(monitors.id, orphan));
    const froms: (string | undefined)[] = [];
    const claimDue: Store['checks']['claimDue'] = (options) => {
      froms.push(options.from);
      return store.checks.claimDue(options);
    };
    const started = new Map<number, number>();
    const engine = engineNoting(started, { ...store, checks: { ...store.checks, claimDue } });
    await runUntilStarted(engine, started, slots.size + 1);
    expectStartedOnTick(slots.values(), started);
    // Some claims walked from a claimed slot on; one from the start took the orphan within a second or so.
    expect(froms.filter((from) => from !== undefined).length).toBeGreaterThan(0);
    expect(started.get(orphanSlot)!).toBeGreaterThanOrEqual(leaseEnd);
    expect(started.get(orphanSlot)! - leaseEnd).toBeLessThan(2_000);
  });

  it('gives back a slot it claimed ahead when stopped before its time, unchecked', async () => {
    const [[id, slot]] = [...(await monitorsDueIn([900]))] as [[string, number]];
    const started = new Map<number, number>();
    const engine = engineNoting(started);
    engine.start();
    try {
      for (let waited = 0; !(await monitorRow(database.db, id)).claimedUntil; waited += 20) {
        if (waited > 800) throw new Error('the slot was not claimed ahead');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await engine.stop();
    }
    expect(started.size).toBe(0);
    expect(await monitorRow(database.db, id)).toMatchObject({
      claimedUntil: null,
      nextCheckAt: new Date(slot),
    });
    expect(await database.db.select().from(checkResults).where(eq(checkResults.monitorId, id))).toEqual([]);
  });
});
