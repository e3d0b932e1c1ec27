import { monitorListResponse, planOrderAccountsResponse } from '@vigil/contracts';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountNotices, monitors, providerConnections, users } from '../../db/schema.ts';
import { createStore, type Store } from '../../db/store.ts';
import { PHONE_CONTACT } from '../../engine/alert-events.ts';
import { rollUpPacingFor } from '../../engine/retention.ts';
import { DEFAULT_PHONE_POLICY } from '../../delivery/delivery.ts';
import { applyPlanLimitsJob } from '../../jobs/apply-plan-limits.job.ts';
import type { WorkerDeps } from '../../jobs/job.ts';
import { DAY_MS, MINUTE_MS, unixSeconds } from '../../lib/clock.ts';
import { databases } from '../../test/databases.ts';
import { call, startTestApp, type TestApp } from '../../test/test-app.ts';
import { createMonitor, signUp, websiteMonitor, type TestUser } from '../monitors/monitor-test-helpers.ts';
import { formatDay } from './billing-format.ts';

const FREE_DAYS = 14;
const day = (seconds: number) => formatDay(new Date(seconds * 1000));

describe.each(databases)('plan limits over time on $name', (testDatabase) => {
  let t: TestApp;
  let store: Store;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
    store = createStore(t.database.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The job as a worker runs it (its notices go out through the real send-account-notice job). */
  const runJob = () =>
    applyPlanLimitsJob.handle(
      {},
      {
        store,
        clock: t.clock,
        queue: t.deps.queue,
        publicUrl: t.url,
        log: t.app.log,
        email: { send: () => Promise.reject(new Error('not this job')), close: () => undefined },
        phone: null,
        phonePolicy: DEFAULT_PHONE_POLICY,
        ackLink: async () => t.url,
        resultRetentionHours: 48,
        rollUpPacing: rollUpPacingFor(t.database.kind),
      } satisfies WorkerDeps,
      { id: 'test', retryCount: 0, retryLimit: 2, expireInSeconds: 120 },
    );
  const api = (method: 'GET' | 'POST', url: string, user?: TestUser, body?: unknown) =>
    call(t.app, method, url, { token: user?.token, body });
  const userRow = async (user: TestUser) =>
    (await t.database.db.select().from(users).where(eq(users.id, user.userId)))[0]!;
  /** The user's monitors as the list answers them, by name. */
  const listed = async (user: TestUser) => {
    const { status, body } = await api('GET', '/monitor-bff/monitor?pageSize=100', user);
    expect(status).toBe(200);
    expect(monitorListResponse.parse(body)).toEqual(body);
    return new Map(
      (body.data.list as { name: string }[]).map((m) => [
        m.name,
        m as Record<string, unknown> & { name: string },
      ]),
    );
  };
  /** Moves the clock on in steps, using each session on the way so none lapses (they last 30 days from use). */
  async function advance(ms: number, ...signedIn: TestUser[]): Promise<void> {
    for (let left = ms; left > 0; left -= 10 * DAY_MS) {
      t.clock.advance(Math.min(left, 10 * DAY_MS));
      for (const user of signedIn)
        expect((await api('GET', '/monitor-bff/user-info', user)).status).toBe(200);
    }
  }
  const mails = (user: TestUser, subject: string) =>
    t.sandbox.mailbox.list({ to: user.email }).filter((mail) => mail.subject === subject);
  const noticesOf = (user: TestUser, prefix: string) =>
    t.database.db
      .select()
      .from(accountNotices)
      .where(and(eq(accountNotices.userId, user.userId), like(accountNotices.key, `${prefix}%`)));
  /** Monitors created a second apart, so "oldest" is unambiguous. */
  async function createFive(user: TestUser, phone: string): Promise<void> {
    const names = ['One', 'Two', 'Three', 'Four', 'Five'];
    for (const name of names) {
      await createMonitor(t, user, {
        name,
        ...(name === 'Two'
          ? {
              callSettings: { checked: true, name: 'Owner', isAgree: true, phone },
              smsSettings: { checked: true, name: 'Owner', isAgree: true, phone },
              emailSettings: { checked: false, name: '', isAgree: false, email: '' },
            }
          : {}),
        ...(name === 'Three' ? { intervalSeconds: 60 } : {}),
      });
      t.clock.advance(1000);
    }
  }

  it('moves an ended Pro plan to 14 days of Free, then no plan, and back with a new Free period', async () => {
    const owner = await signUp(t, { name: 'Pro', days: 30 });
    const other = await signUp(t, { name: 'Pro', days: 60 });
    const phone = '+14155550142';
    await store.contacts.markVerified(
      { userId: owner.userId, channel: PHONE_CONTACT, address: phone },
      t.clock.now(),
    );
    await createFive(owner, phone);
    for (let i = 0; i < 5; i++) await createMonitor(t, other, { name: `Other ${i}` });
    const proEnd = (await userRow(owner)).planExpiresAt!;

    await runJob();
    expect((await userRow(owner)).limitsPlan).toBe('Pro');
    expect([...(await listed(owner)).values()].every((m) => m.paused === false)).toBe(true);

    // The Pro period ends: Free follows for 14 days from its end, on Free's limits.
    await advance(30 * DAY_MS, owner, other);
    await runJob();
    const freeEnd = proEnd + FREE_DAYS * 86_400;
    expect(await userRow(owner)).toMatchObject({ plan: 'Free', planExpiresAt: freeEnd, limitsPlan: 'Free' });
    const info = await api('GET', '/monitor-bff/user-info', owner);
    expect(info.body.data).toMatchObject({ plan: 'Free', planExpiresin: freeEnd });
    let list = await listed(owner);
    const paused = `Paused on ${formatDay(t.clock.now())}: the Free plan runs up to 3 monitors. Choose a bigger plan to resume it.`;
    for (const name of ['One', 'Two', 'Three'])
      expect(list.get(name)).toMatchObject({ paused: false, pauseReason: null });
    for (const name of ['Four', 'Five']) {
      expect(list.get(name)).toMatchObject({ paused: true, status: 'paused', pauseReason: paused });
    }
    // The channels a monitor ticks show on its page (a list shows no settings).
    const two = await api(
      'GET',
      `/monitor-bff/monitor-info?monitorId=${String(list.get('Two')!.monitorId)}`,
      owner,
    );
    expect(two.body.data).toMatchObject({
      callSettings: { checked: false, phone },
      smsSettings: { checked: false, phone },
      emailSettings: { checked: true, email: owner.email },
    });
    expect(list.get('Three')).toMatchObject({ intervalSeconds: 300 });
    const endedSubject = `Your Vigil Pro plan ended: your account is on Free until ${day(freeEnd)}`;
    const ended = await t.sandbox.mailbox.waitFor(
      (mail) => mail.to.includes(owner.email) && mail.subject === endedSubject,
    );
    expect(ended.text).toContain(`Your Pro plan ended on ${day(proEnd)}.`);
    // Derived from the notice, so a copy re-sent after a crash carries the same Message-ID.
    expect(ended.messageId).toMatch(/^<notice-[0-9a-f-]{36}@/);
    expect(ended.text).toContain('Paused: Four, Five.');
    expect(ended.text).toContain(
      'Call and SMS alerts turned into email alerts (the Free plan has no calls or SMS): Two.',
    );
    expect(ended.text).toContain('Now checked every 5 minutes: Three.');
    expect(ended.text).toContain(`${t.url}/app/pricing`);
    // The job again: nothing changes and nothing more is written.
    await runJob();
    expect(await noticesOf(owner, 'plan-limits:')).toHaveLength(1);

    // Three days before the Free period ends, and once, the person is warned.
    await advance(FREE_DAYS * DAY_MS - 2 * DAY_MS, owner, other);
    await runJob();
    await runJob();
    const warnSubject = `Your Vigil Free period ends on ${day(freeEnd)}`;
    const warning = await t.sandbox.mailbox.waitFor(
      (mail) => mail.to.includes(owner.email) && mail.subject === warnSubject,
    );
    expect(warning.text).toContain(`Your Free period ends on ${day(freeEnd)}: your 3 monitors pause then.`);
    expect(warning.text).toContain(`Choose a plan to keep them running: ${t.url}/app/pricing`);
    expect(await noticesOf(owner, 'plan-ending:')).toHaveLength(1);
    expect((await userRow(owner)).planEndWarnedFor).toBe(freeEnd);

    // The Free period ends: no plan runs, every monitor is paused and says why.
    await advance(2 * DAY_MS + MINUTE_MS, owner, other);
    await runJob();
    expect((await userRow(owner)).limitsPlan).toBe('None');
    list = await listed(owner);
    const freeEnded = `Paused on ${formatDay(t.clock.now())}: your Free period ended on ${day(freeEnd)}. Choose a plan to resume it.`;
    for (const m of list.values()) expect(m).toMatchObject({ paused: true, pauseReason: freeEnded });
    await t.sandbox.mailbox.waitFor(
      (mail) =>
        mail.to.includes(owner.email) &&
        mail.subject === 'Your Vigil Free period ended: your monitors are paused',
    );
    // Each email went once, however often the job ran.
    expect(mails(owner, endedSubject)).toHaveLength(1);
    expect(mails(owner, warnSubject)).toHaveLength(1);

    const refused = `Your Free period ended on ${day(freeEnd)}: choose a plan on the pricing page to run monitors again.`;
    const start = await api('POST', '/monitor-bff/monitor-start', owner, {
      monitor_ids: [list.get('One')!.monitorId],
    });
    expect(start.status).toBe(400);
    expect(start.body).toEqual({ code: 'INVALID', message: refused });
    const create = await api(
      'POST',
      '/monitor-bff/monitor',
      owner,
      websiteMonitor(owner.email, { name: 'Six' }),
    );
    expect(create.status).toBe(400);

    // Choosing Free again starts a new period, and the 3 oldest monitors resume at once.
    const chosen = await api('POST', '/monitor-bff/v1/user/choose-plan', owner, { plan: 'Free' });
    expect(chosen.status).toBe(200);
    expect(chosen.body.data.planExpiresin).toBe(unixSeconds(t.clock.now()) + FREE_DAYS * 86_400);
    list = await listed(owner);
    for (const name of ['One', 'Two', 'Three']) {
      expect(list.get(name)).toMatchObject({ paused: false, pauseReason: null });
    }
    const freeFull = `Paused on ${formatDay(t.clock.now())}: the Free plan runs up to 3 monitors. Choose a bigger plan to resume it.`;
    for (const name of ['Four', 'Five'])
      expect(list.get(name)).toMatchObject({ paused: true, pauseReason: freeFull });
    const resumed = await t.database.db
      .select()
      .from(monitors)
      .where(eq(monitors.id, list.get('One')!.monitorId as string));
    expect(resumed[0]!.nextCheckAt).toEqual(t.clock.now());

    // At the limit, starting one more is refused; the person pausing one makes room.
    const full = await api('POST', '/monitor-bff/monitor-start', owner, {
      monitor_ids: [list.get('Four')!.monitorId],
    });
    expect(full.status).toBe(400);
    expect(full.body.message).toBe(
      'The Free plan runs up to 3 monitors at once. Pause or delete one, or choose a bigger plan.',
    );
    const fourth = await api(
      'POST',
      '/monitor-bff/monitor',
      owner,
      websiteMonitor(owner.email, { name: 'Six' }),
    );
    expect(fourth.status).toBe(400);
    expect(fourth.body.message).toBe(full.body.message);
    await api('POST', '/monitor-bff/monitor-pause', owner, { monitor_ids: [list.get('One')!.monitorId] });
    const room = await api('POST', '/monitor-bff/monitor-start', owner, {
      monitor_ids: [list.get('Four')!.monitorId],
    });
    expect(room.status).toBe(200);
    list = await listed(owner);
    expect(list.get('One')).toMatchObject({ paused: true, pauseReason: null });
    expect(list.get('Four')).toMatchObject({ paused: false, pauseReason: null });

    // Someone else's account was never touched or counted.
    expect(await userRow(other)).toMatchObject({ plan: 'Pro', limitsPlan: 'Pro' });
    expect([...(await listed(other)).values()].every((m) => m.paused === false)).toBe(true);
    expect(t.sandbox.mailbox.list({ to: other.email })).toEqual([]);
  });

  it('counts connected accounts oldest first: plan-order/accounts, pausing and binding beyond the plan', async () => {
    const merchant = await signUp(t, { name: 'Starter', days: 30 });
    const stranger = await signUp(t, { name: 'Starter', days: 30 });
    const connect = async (user: TestUser, account: string, status = 'active') => {
      const now = t.clock.now();
      t.clock.advance(1000);
      const [row] = await t.database.db
        .insert(providerConnections)
        .values({
          userId: user.userId,
          provider: 'shopify',
          account: `${account}.myshopify.com`,
          name: account,
          status,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return row!.id;
    };
    const first = await connect(merchant, 'first-shop');
    const second = await connect(merchant, 'second-shop');
    await connect(merchant, 'gone-shop', 'disconnected');
    await connect(stranger, 'stranger-shop');
    const ids: string[] = [];
    for (const name of ['On first', 'On second', 'Site A', 'Site B']) {
      ids.push(await createMonitor(t, merchant, { name }));
      t.clock.advance(1000);
    }
    await createMonitor(t, stranger, { name: 'Stranger site' });
    await t.database.db.update(monitors).set({ connectionId: first }).where(eq(monitors.id, ids[0]!));
    await t.database.db.update(monitors).set({ connectionId: second }).where(eq(monitors.id, ids[1]!));

    const { status, body } = await api('GET', '/monitor-bff/plan-order/accounts', merchant);
    expect(status).toBe(200);
    expect(planOrderAccountsResponse.parse(body)).toEqual(body);
    expect(body.data.accounts).toEqual([
      {
        connectionId: first,
        provider: 'shopify',
        account: 'first-shop.myshopify.com',
        name: 'first-shop',
        monitors: 1,
      },
      {
        connectionId: second,
        provider: 'shopify',
        account: 'second-shop.myshopify.com',
        name: 'second-shop',
        monitors: 1,
      },
    ]);
    expect(body.data.monitorCount).toBe(4);
    expect(body.data.plans.map((p: { plan: string }) => p.plan)).toEqual([
      'Free',
      'Starter',
      'Pro',
      'Business',
    ]);
    expect(body.data.plans[0]).toEqual({
      plan: 'Free',
      accountLimit: 1,
      monitorLimit: 3,
      accountsCovered: 1,
      monitorsCovered: 3,
      coversAll: false,
      summary: 'Free covers 1 of your 2 shops and 3 of your 4 monitors.',
    });
    expect(body.data.plans[1]).toMatchObject({
      accountsCovered: 2,
      monitorsCovered: 4,
      coversAll: true,
      summary: 'Starter covers all 2 of your shops and all 4 monitors.',
    });
    const one = await api('GET', '/monitor-bff/plan-order/accounts?plan=pro', merchant);
    expect(one.body.data.plans).toEqual([expect.objectContaining({ plan: 'Pro', coversAll: true })]);
    const unknown = await api('GET', '/monitor-bff/plan-order/accounts?plan=Platinum', merchant);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(
      'There is no plan called "Platinum". Choose Free, Starter, Pro, Business.',
    );
    const theirs = await api('GET', '/monitor-bff/plan-order/accounts', stranger);
    expect(theirs.body.data).toMatchObject({
      monitorCount: 1,
      accounts: [expect.objectContaining({ name: 'stranger-shop' })],
    });
    expect((await api('GET', '/monitor-bff/plan-order/accounts')).status).toBe(401);

    // The plan shrinks to Free: the monitor on the second shop is paused first, the oldest others keep running.
    await store.users.update(
      merchant.userId,
      { plan: 'Free', planExpiresAt: unixSeconds(t.clock.now()) + FREE_DAYS * 86_400 },
      t.clock.now(),
    );
    await runJob();
    const rows = new Map(
      (await t.database.db.select().from(monitors).where(eq(monitors.userId, merchant.userId))).map((m) => [
        m.name,
        m,
      ]),
    );
    expect(rows.get('On second')).toMatchObject({
      paused: true,
      pauseReason: `Paused on ${formatDay(t.clock.now())}: the Free plan watches up to 1 connected account, and second-shop is beyond it. Choose a bigger plan to resume it.`,
    });
    for (const name of ['On first', 'Site A', 'Site B']) expect(rows.get(name)!.paused).toBe(false);
    expect((await api('GET', '/monitor-bff/monitor?pageSize=100', stranger)).body.data.list[0].paused).toBe(
      false,
    );

    // Starting it is refused while its shop is beyond the plan, even with room for one more monitor.
    await api('POST', '/monitor-bff/monitor-pause', merchant, { monitor_ids: [ids[3]] });
    const start = await api('POST', '/monitor-bff/monitor-start', merchant, { monitor_ids: [ids[1]] });
    expect(start.status).toBe(400);
    expect(start.body.message).toBe(
      'The Free plan watches up to 1 connected account, and second-shop (watched by On second) is beyond it. Disconnect another account in Settings or choose a bigger plan.',
    );

    // A new shop beyond the plan cannot be bound.
    const ouathuri = await api(
      'GET',
      '/monitor-bff/monitor/ouathuri?service=shopify&shop=vigil-demo',
      merchant,
    );
    expect(ouathuri.status).toBe(200);
    const url = new URL(ouathuri.body.data.url);
    const redirect = t.sandbox.shopify.approve(ouathuri.body.data.account, {
      redirect_uri: url.searchParams.get('redirect_uri')!,
      scope: url.searchParams.get('scope')!,
      state: url.searchParams.get('state')!,
    });
    const bind = await api('POST', '/monitor-bff/monitor/bind', merchant, {
      params: Object.fromEntries(new URL(redirect).searchParams),
    });
    expect(bind.status).toBe(400);
    expect(bind.body.message).toBe(
      'The Free plan connects up to 1 account (shops and ad accounts), and you have 2. Disconnect one in Settings or choose a bigger plan.',
    );
    const bound = await t.database.db
      .select()
      .from(providerConnections)
      .where(
        and(
          eq(providerConnections.userId, merchant.userId),
          eq(providerConnections.account, 'vigil-demo.myshopify.com'),
        ),
      );
    expect(bound).toEqual([]);
  });
});
