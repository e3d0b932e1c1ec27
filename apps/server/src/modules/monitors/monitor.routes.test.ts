import {
  monitorChecksResponse,
  monitorListResponse,
  monitorResponse,
  monitorServiceResponse,
  monitorStatsResponse,
} from '@vigil/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckers } from '../../checks/all-checkers.ts';
import { checkResults, monitors } from '../../db/schema.ts';
import { createStore } from '../../db/store.ts';
import { createCheckEngine } from '../../engine/check-engine.ts';
import { rollUpAndPrune } from '../../engine/retention.ts';
import { HOUR_MS, MINUTE_MS } from '../../lib/clock.ts';
import { databases } from '../../test/databases.ts';
import { insertMonitor } from '../../test/engine-kit.ts';
import { HEALTHY, startTargetServer } from '../../test/target-server.ts';
import { call, startTestApp, type TestApp } from '../../test/test-app.ts';
import {
  createMonitor,
  seedIncident,
  seedResults,
  seedRollup,
  signUp,
  websiteMonitor,
  type TestUser,
} from './monitor-test-helpers.ts';
import { createMonitorRepository } from './monitor.repository.ts';
import { uptimeOf } from './monitor.service.ts';

const PRO = { name: 'Pro', days: 30 };

describe.each(databases)('monitors API on $name', (testDatabase) => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
    [owner, other] = await Promise.all([signUp(t, PRO), signUp(t, PRO)]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user?: TestUser, body?: unknown) =>
    call(t.app, method, url, { token: user?.token, body });
  const stored = (monitorId: string) =>
    createMonitorRepository(t.database.db).findOwned(owner.userId, monitorId);
  const resultCount = async (monitorId: string) => {
    const [row] = await t.database.db
      .select({ n: count() })
      .from(checkResults)
      .where(eq(checkResults.monitorId, monitorId));
    return Number(row!.n);
  };

  it('sums up what needs attention: running monitors down or confirming, and open alerts, of this person only', async () => {
    const user = await signUp(t, PRO);
    const [down, confirming, up, pausedDown] = await Promise.all(
      ['Down', 'Confirming', 'Up', 'Paused'].map((name) => createMonitor(t, user, { name })),
    );
    const setStatus = (id: string, status: string, paused = false) =>
      t.database.db.update(monitors).set({ status, paused }).where(eq(monitors.id, id));
    await setStatus(down!, 'down');
    await setStatus(confirming!, 'confirming');
    await setStatus(up!, 'up');
    await setStatus(pausedDown!, 'down', true);
    await seedIncident(t, user, down!);
    await seedIncident(t, user, up!, { state: 'acknowledged' });
    await seedIncident(t, user, up!, { conditionKey: 'timeout', state: 'resolved' });
    const elsewhere = await createMonitor(t, other);
    await setStatus(elsewhere, 'down');
    await seedIncident(t, other, elsewhere);

    const { status, body } = await api('GET', '/monitor-bff/monitor-summary', user);
    expect(status).toBe(200);
    expect(body).toEqual({ data: { down: 1, confirming: 1, openAlerts: 1 } });
    expect((await api('GET', '/monitor-bff/monitor-summary')).status).toBe(401);
  });

  it('GET /monitor-bff/monitor-service lists the four services, their conditions and the languages', async () => {
    const { status, body } = await api('GET', '/monitor-bff/monitor-service');
    expect(status).toBe(200);
    expect(monitorServiceResponse.parse(body)).toEqual(body);
    const { list, languages, intervalSeconds, repeatIntervalMinutes, confirmations } = body.data;
    expect(list.map((s: { service: string }) => s.service)).toEqual([
      'website',
      'shopify',
      'google_ads',
      'facebook_ads',
    ]);
    const [website, shopify, ...later] = list;
    expect(website).toMatchObject({ available: true, unavailableReason: null });
    expect(shopify).toMatchObject({ available: true, unavailableReason: null });
    expect(shopify.conditions.map((c: { key: string }) => c.key)).toEqual([
      'storefront_down',
      'checkout_broken',
      'product_out_of_stock',
      'product_unpublished',
      'product_price_changed',
      'app_uninstalled',
    ]);
    expect(website.conditions.map((c: { key: string }) => c.key)).toEqual([
      'http_status',
      'timeout',
      'keyword',
      'slow_response',
      'tls_expiry',
      'password_page',
    ]);
    expect(website.conditions[1].params[0]).toMatchObject({
      key: 'timeoutMs',
      default: 10_000,
      min: 1000,
      max: 30_000,
    });
    for (const service of later) {
      expect(service).toMatchObject({ available: true, unavailableReason: null });
      expect(JSON.stringify(service)).not.toMatch(/coming soon|todo|not implemented/i);
      expect(service.conditions.map((c: { key: string }) => c.key)).toEqual(
        expect.arrayContaining(['spend_anomaly', 'connection_lost', 'shop_cannot_sell']),
      );
    }
    expect(languages).toContainEqual({ languageCode: 'en-US', language: 'English' });
    expect(languages).toContainEqual({ languageCode: 'en-GB', language: 'English' });
    expect(intervalSeconds).toEqual({ min: 30, max: 86_400, default: 300 });
    expect(repeatIntervalMinutes).toEqual({ min: 0, max: 1440, default: 30 });
    expect(confirmations).toEqual({ min: 1, max: 10, default: 2 });
  });

  it('creates a monitor that is due for its first check at once', async () => {
    const { status, body } = await api('POST', '/monitor-bff/monitor', owner, websiteMonitor(owner.email));
    expect(status).toBe(200);
    expect(monitorResponse.parse(body)).toEqual(body);
    expect(body.data).toMatchObject({
      name: 'Storefront',
      service: 'website',
      target: { url: 'https://shop.example/' },
      status: 'pending',
      paused: false,
      lastCheckedAt: null,
      uptime24h: null,
      openIncidents: 0,
      createdAt: t.clock.now().toISOString(),
    });
    const row = await stored(body.data.monitorId);
    expect(row).toMatchObject({ nextCheckAt: t.clock.now(), checkState: {}, status: 'pending' });
    const info = await api('GET', `/monitor-bff/monitor-info?monitorId=${body.data.monitorId}`, owner);
    expect(info.body).toEqual(body);
  });

  it('refuses input the contract or the server rules out, with a clear 400', async () => {
    const base = websiteMonitor(owner.email);
    const cases: [unknown, string | RegExp][] = [
      [{ ...base, name: undefined }, 'Give the monitor a name.'],
      [{ ...base, intervalSeconds: 'often' }, 'Choose how often to check.'],
      [
        { ...base, target: { url: 'ftp://shop.example' } },
        'Enter a full web address starting with http:// or https://.',
      ],
      [
        { ...base, target: { url: 'not a url' } },
        'Enter a full web address starting with http:// or https://.',
      ],
      [
        {
          ...base,
          conditions: { ...base.conditions, keyword: { enabled: true, keyword: '  ', mode: 'missing' } },
        },
        'Enter the keyword to look for, or turn the keyword check off.',
      ],
      [{ ...base, service: 'instagram' }, /Choose what to watch: a website, a Shopify shop/],
      [{ ...base, service: 'google_ads' }, /Connect a Google account first/],
      [{ ...base, service: 'shopify' }, /Connect the shop first/],
      [{ ...base, intervalSeconds: 20 }, 'Choose a check interval between 30 seconds and 24 hours.'],
      [{ ...base, intervalSeconds: 90_000 }, 'Choose a check interval between 30 seconds and 24 hours.'],
      [{ ...base, languageCode: 'xx-XX' }, 'Choose one of the alert languages offered.'],
      [
        { ...base, emailSettings: { ...base.emailSettings, email: 'no-at-sign' } },
        /Check the alert settings/,
      ],
      [
        { ...base, smsSettings: { checked: true, name: 'Me', isAgree: true, phone: '+14155550100' } },
        'Verify +14155550100 first: send a code by SMS or call and enter it.',
      ],
      [
        {
          ...base,
          callSettings: { checked: true, name: 'Me', isAgree: true, phone: '+14155550100' },
          smsSettings: { checked: true, name: 'Me', isAgree: true, phone: '+14155550100' },
        },
        'Verify +14155550100 first: send a code by SMS or call and enter it.',
      ],
      [
        { ...base, smsSettings: { checked: true, name: 'Me', isAgree: false, phone: '+14155550100' } },
        /Check the alert settings/,
      ],
      [
        { ...base, smsSettings: { checked: true, name: 'Me', isAgree: true, phone: '+3361234' } },
        /Enter a phone number in international form/,
      ],
      [
        { ...base, emailSettings: { ...base.emailSettings, email: 'Someone.Else@Shop.Example' } },
        'Verify someone.else@shop.example first: send a code and enter it.',
      ],
    ];
    for (const [input, message] of cases) {
      const { status, body } = await api('POST', '/monitor-bff/monitor', owner, input);
      expect(status, JSON.stringify(input)).toBe(400);
      expect(body.code).toBe('INVALID');
      expect(body.message).toMatch(message);
    }
  });

  it('refuses control characters in any text field, body or query string, with a 400 naming the field', async () => {
    const base = websiteMonitor(owner.email);
    const monitorId = await createMonitor(t, owner);
    const cases: [unknown, string][] = [
      [{ ...base, name: 'Store\u0000front' }, 'name'],
      [
        {
          ...base,
          conditions: {
            ...base.conditions,
            keyword: { enabled: true, keyword: 'sold\u0000', mode: 'missing' },
          },
        },
        'conditions.keyword.keyword',
      ],
      [{ ...base, emailSettings: { ...base.emailSettings, name: 'Owner\u0000' } }, 'emailSettings.name'],
      [{ ...base, name: 'Bell\u0007' }, 'name'],
      [{ ...base, name: 'Escape\u001b[31m' }, 'name'],
    ];
    for (const [input, path] of cases) {
      for (const [method, body] of [
        ['POST', input],
        ['PUT', { ...(input as object), monitorId }],
      ] as const) {
        const answer = await api(method, '/monitor-bff/monitor', owner, body);
        expect(answer.status, `${method} ${path}`).toBe(400);
        expect(answer.body).toEqual({
          code: 'INVALID',
          message: `${path} must not contain control characters.`,
          details: [{ path, message: `${path} must not contain control characters.` }],
        });
      }
    }
    expect((await stored(monitorId))!.name).toBe('Storefront');

    // Half a UTF-16 pair reaches JSON but no database column: refused the same way, not a 500.
    const broken = {
      ...base,
      conditions: { ...base.conditions, keyword: { enabled: true, keyword: 'sold\udfff', mode: 'missing' } },
    };
    for (const [method, body] of [
      ['POST', broken],
      ['PUT', { ...broken, monitorId }],
      ['POST', { ...base, name: '\ud800Shop' }],
    ] as const) {
      const answer = await api(method, '/monitor-bff/monitor', owner, body);
      expect(answer.status, method).toBe(400);
      expect(answer.body.message).toMatch(/holds a broken character \(half of a UTF-16 pair\)/);
    }

    const query = await api('GET', `/monitor-bff/monitor-info?monitorId=${monitorId}%00`, owner);
    expect(query.status).toBe(400);
    expect(query.body.message).toBe('monitorId must not contain control characters.');
    const extra = await api('GET', '/monitor-bff/monitor?page=1&note=%1b', owner);
    expect(extra.status).toBe(400);
    expect(extra.body.details).toEqual([
      { path: 'note', message: 'note must not contain control characters.' },
    ]);
  });

  it('bounds the interval and the number of monitors by the plan', async () => {
    const free = await signUp(t);
    const tooOften = await api(
      'POST',
      '/monitor-bff/monitor',
      free,
      websiteMonitor(free.email, { intervalSeconds: 60 }),
    );
    expect(tooOften.status).toBe(400);
    expect(tooOften.body.message).toBe(
      'The Free plan checks at most every 5 minutes: choose 300 seconds or more, or a bigger plan.',
    );
    expect(tooOften.body.details).toEqual([{ path: 'intervalSeconds', message: tooOften.body.message }]);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push(await createMonitor(t, free));
    const fourth = await api('POST', '/monitor-bff/monitor', free, websiteMonitor(free.email));
    expect(fourth.status).toBe(400);
    expect(fourth.body).toEqual({
      code: 'INVALID',
      message: 'The Free plan runs up to 3 monitors at once. Pause or delete one, or choose a bigger plan.',
    });
    // Running monitors are counted: a paused one is kept but leaves room, and cannot start while it is full.
    await api('POST', '/monitor-bff/monitor-pause', free, { monitor_ids: [made[0]] });
    expect((await api('POST', '/monitor-bff/monitor', free, websiteMonitor(free.email))).status).toBe(200);
    const restart = await api('POST', '/monitor-bff/monitor-start', free, { monitor_ids: [made[0]] });
    expect(restart.status).toBe(400);
    expect(restart.body.message).toBe(fourth.body.message);
    // A paid plan whose period has ended bounds like Free.
    const lapsed = await signUp(t, { name: 'Pro', days: -1 });
    const lapsedAnswer = await api(
      'POST',
      '/monitor-bff/monitor',
      lapsed,
      websiteMonitor(lapsed.email, { intervalSeconds: 60 }),
    );
    expect(lapsedAnswer.body.message).toMatch(/^The Free plan checks at most every 5 minutes/);
    const pro = await api(
      'POST',
      '/monitor-bff/monitor',
      owner,
      websiteMonitor(owner.email, { intervalSeconds: 60 }),
    );
    expect(pro.status).toBe(200);
  });

  it('lists monitors newest first, paged, with status, last check, uptime and open incidents', async () => {
    const user = await signUp(t, PRO);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await createMonitor(t, user, { name: `Shop ${i}` }));
      t.clock.advance(1000);
    }
    const now = t.clock.now();
    await seedResults(t, ids[4]!, [
      { at: new Date(now.getTime() - 10 * MINUTE_MS), ok: true },
      { at: new Date(now.getTime() - 5 * MINUTE_MS), ok: true },
      { at: new Date(now.getTime() - 3 * MINUTE_MS), ok: true },
      { at: new Date(now.getTime() - 1 * MINUTE_MS), ok: false },
      // Older than 24 hours: not in uptime24h.
      { at: new Date(now.getTime() - 25 * HOUR_MS), ok: false },
    ]);
    await seedIncident(t, user, ids[4]!);
    await seedIncident(t, user, ids[4]!, { conditionKey: 'timeout', state: 'resolved' });

    const first = await api('GET', '/monitor-bff/monitor?page=1&pageSize=2', user);
    expect(first.status).toBe(200);
    expect(monitorListResponse.parse(first.body)).toEqual(first.body);
    expect(first.body.data).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(first.body.data.list.map((m: { name: string }) => m.name)).toEqual(['Shop 4', 'Shop 3']);
    expect(first.body.data.list[0]).toMatchObject({ uptime24h: 75, openIncidents: 1, status: 'pending' });
    expect(first.body.data.list[1]).toMatchObject({ uptime24h: null, openIncidents: 0 });
    // A list shows no settings; the monitor's page does.
    for (const key of ['conditions', 'emailSettings', 'callSettings', 'smsSettings', 'languageCode'])
      expect(first.body.data.list[0]).not.toHaveProperty(key);
    const detail = await api(
      'GET',
      `/monitor-bff/monitor-info?monitorId=${first.body.data.list[0].monitorId}`,
      user,
    );
    expect(monitorResponse.parse(detail.body)).toEqual(detail.body);
    expect(detail.body.data).toMatchObject({ ...first.body.data.list[0], conditions: expect.any(Object) });
    const last = await api('GET', '/monitor-bff/monitor?page=3&pageSize=2', user);
    expect(last.body.data.list.map((m: { name: string }) => m.name)).toEqual(['Shop 0']);
    const defaults = await api('GET', '/monitor-bff/monitor', user);
    expect(defaults.body.data).toMatchObject({ page: 1, pageSize: 20, total: 5 });
    expect((await api('GET', '/monitor-bff/monitor?pageSize=101', user)).status).toBe(400);
    expect((await api('GET', '/monitor-bff/monitor?page=0', user)).status).toBe(400);
    const empty = await api('GET', '/monitor-bff/monitor', await signUp(t));
    expect(empty.body.data).toEqual({ list: [], total: 0, page: 1, pageSize: 20 });
  });

  it('updates settings and keeps history; a changed interval brings the next check no later than one interval away', async () => {
    const monitorId = await createMonitor(t, owner, { intervalSeconds: 3600 });
    await seedResults(t, monitorId, [{ at: t.clock.now(), ok: true }]);
    // The engine moved the next check one hour on.
    const repo = createMonitorRepository(t.database.db);
    const hourOn = new Date(t.clock.now().getTime() + HOUR_MS);
    await t.database.db.update(monitors).set({ nextCheckAt: hourOn }).where(eq(monitors.id, monitorId));
    const renamed = await api('PUT', '/monitor-bff/monitor', owner, {
      ...websiteMonitor(owner.email, { name: 'Renamed', intervalSeconds: 3600 }),
      monitorId,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ monitorId, name: 'Renamed', uptime24h: 100 });
    expect((await repo.findOwned(owner.userId, monitorId))!.nextCheckAt).toEqual(hourOn);

    const faster = await api('PUT', '/monitor-bff/monitor', owner, {
      ...websiteMonitor(owner.email, { name: 'Renamed', intervalSeconds: 300 }),
      monitorId,
    });
    expect(faster.body.data.intervalSeconds).toBe(300);
    expect((await repo.findOwned(owner.userId, monitorId))!.nextCheckAt).toEqual(
      new Date(t.clock.now().getTime() + 300_000),
    );
    expect(await resultCount(monitorId)).toBe(1);

    const unknown = await api('PUT', '/monitor-bff/monitor', owner, {
      ...websiteMonitor(owner.email),
      monitorId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    const badId = await api('PUT', '/monitor-bff/monitor', owner, {
      ...websiteMonitor(owner.email),
      monitorId: 'x',
    });
    expect(badId.body).toMatchObject({ code: 'INVALID', message: 'That monitor does not exist.' });
    const unverified = await api('PUT', '/monitor-bff/monitor', owner, {
      ...websiteMonitor('new@shop.example'),
      monitorId,
    });
    expect(unverified.body.message).toBe('Verify new@shop.example first: send a code and enter it.');
  });

  it('pauses and starts several monitors; starting checks a paused one at once', async () => {
    const a = await createMonitor(t, owner);
    const b = await createMonitor(t, owner);
    const paused = await api('POST', '/monitor-bff/monitor-pause', owner, { monitor_ids: [a, b] });
    expect(paused.body).toEqual({ data: { count: 2 } });
    const info = await api('GET', `/monitor-bff/monitor-info?monitorId=${a}`, owner);
    expect(info.body.data).toMatchObject({ status: 'paused', paused: true });
    t.clock.advance(10 * MINUTE_MS);
    const started = await api('POST', '/monitor-bff/monitor-start', owner, { monitor_ids: [a] });
    expect(started.body).toEqual({ data: { count: 1 } });
    expect(await stored(a)).toMatchObject({ paused: false, nextCheckAt: t.clock.now() });
    expect(await stored(b)).toMatchObject({ paused: true, pauseReason: null });
    // A monitor Vigil paused for the plan says why in the list and the detail; the person starting it (or
    // pausing it) makes it theirs again, and the reason goes.
    const reason =
      'Paused on 24 Nov 2026: the Free plan runs up to 3 monitors. Choose a bigger plan to resume it.';
    await t.database.db.update(monitors).set({ pauseReason: reason }).where(eq(monitors.id, b));
    const vigilPaused = await api('GET', `/monitor-bff/monitor-info?monitorId=${b}`, owner);
    expect(vigilPaused.body.data).toMatchObject({ paused: true, pauseReason: reason });
    const page = await api('GET', '/monitor-bff/monitor?pageSize=100', owner);
    expect(page.body.data.list.find((m: { monitorId: string }) => m.monitorId === b).pauseReason).toBe(
      reason,
    );
    await api('POST', '/monitor-bff/monitor-pause', owner, { monitor_ids: [b] });
    expect(await stored(b)).toMatchObject({ paused: true, pauseReason: null });
    await t.database.db.update(monitors).set({ pauseReason: reason }).where(eq(monitors.id, b));
    await api('POST', '/monitor-bff/monitor-start', owner, { monitor_ids: [b] });
    expect(await stored(b)).toMatchObject({ paused: false, pauseReason: null });
    expect((await api('POST', '/monitor-bff/monitor-pause', owner, { monitor_ids: [] })).body.message).toBe(
      'Choose at least one monitor.',
    );
    expect((await api('POST', '/monitor-bff/monitor-start', owner, { monitor_ids: 'x' })).status).toBe(400);
  });

  it('checks a monitor now on demand, a few times per 10 minutes, but not a paused one', async () => {
    const id = await createMonitor(t, owner);
    t.clock.advance(2 * MINUTE_MS);
    const checked = await api('POST', '/monitor-bff/monitor-check', owner, { monitorId: id });
    expect(checked.status).toBe(200);
    expect(monitorResponse.parse(checked.body).data.monitorId).toBe(id);
    expect(await stored(id)).toMatchObject({ nextCheckAt: t.clock.now() });

    for (let i = 1; i < 10; i++) {
      expect((await api('POST', '/monitor-bff/monitor-check', owner, { monitorId: id })).status).toBe(200);
    }
    const limited = await api('POST', '/monitor-bff/monitor-check', owner, { monitorId: id });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^This monitor was just checked several times on demand/);

    const other = await createMonitor(t, owner);
    await api('POST', '/monitor-bff/monitor-pause', owner, { monitor_ids: [other] });
    const paused = await api('POST', '/monitor-bff/monitor-check', owner, { monitorId: other });
    expect(paused.status).toBe(409);
    expect(paused.body.message).toBe('This monitor is paused. Start it to check it again.');
    expect((await api('POST', '/monitor-bff/monitor-check', owner, { monitorId: 'x' })).status).toBe(400);
  });

  it('deletes several monitors at once with their history', async () => {
    const a = await createMonitor(t, owner);
    const b = await createMonitor(t, owner);
    const keep = await createMonitor(t, owner);
    await seedResults(t, a, [{ at: t.clock.now(), ok: true }]);
    await seedIncident(t, owner, a);
    const { status, body } = await api('DELETE', `/monitor-bff/monitor?monitor_ids=${a},${b}`, owner);
    expect(status).toBe(200);
    expect(body).toEqual({ data: { count: 2 } });
    expect(await stored(a)).toBeUndefined();
    expect(await resultCount(a)).toBe(0);
    expect(await stored(keep)).toBeDefined();
    const repeated = await api(
      'DELETE',
      `/monitor-bff/monitor?monitor_ids=${keep}&monitor_ids=${keep}`,
      owner,
    );
    expect(repeated.body).toEqual({ data: { count: 1 } });
    expect((await api('DELETE', '/monitor-bff/monitor?monitor_ids=nope', owner)).status).toBe(400);
    expect((await api('DELETE', '/monitor-bff/monitor', owner)).status).toBe(400);
  });

  it("answers 404 for another user's monitor on every endpoint, and a mixed bulk request changes nothing", async () => {
    const mine = await createMonitor(t, owner);
    const theirs = await createMonitor(t, other);
    const notFound = { code: 'NOT_FOUND', message: 'That monitor does not exist.' };
    const answers = [
      await api('GET', `/monitor-bff/monitor-info?monitorId=${theirs}`, owner),
      await api('GET', `/monitor-bff/monitor-stats?monitorId=${theirs}`, owner),
      await api('GET', `/monitor-bff/monitor-checks?monitorId=${theirs}`, owner),
      await api('PUT', '/monitor-bff/monitor', owner, { ...websiteMonitor(owner.email), monitorId: theirs }),
      await api('DELETE', `/monitor-bff/monitor?monitor_ids=${theirs}`, owner),
      await api('DELETE', `/monitor-bff/monitor?monitor_ids=${mine},${theirs}`, owner),
      await api('POST', '/monitor-bff/monitor-pause', owner, { monitor_ids: [mine, theirs] }),
      await api('POST', '/monitor-bff/monitor-start', owner, { monitor_ids: [theirs] }),
      await api('POST', '/monitor-bff/monitor-check', owner, { monitorId: theirs }),
      await api('GET', `/monitor-bff/monitor/alerts?monitorId=${theirs}`, owner),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(notFound);
    }
    expect(await stored(mine)).toMatchObject({ paused: false });
    const theirsNow = await api('GET', `/monitor-bff/monitor-info?monitorId=${theirs}`, other);
    expect(theirsNow.body.data).toMatchObject({ name: 'Storefront', paused: false });
  });

  it('answers 401 without a session', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const ids = { monitor_ids: [id] };
    for (const [method, url, body] of [
      ['GET', '/monitor-bff/monitor', undefined],
      ['POST', '/monitor-bff/monitor', websiteMonitor(owner.email)],
      ['PUT', '/monitor-bff/monitor', { ...websiteMonitor(owner.email), monitorId: id }],
      ['GET', `/monitor-bff/monitor-info?monitorId=${id}`, undefined],
      ['DELETE', `/monitor-bff/monitor?monitor_ids=${id}`, undefined],
      ['POST', '/monitor-bff/monitor-pause', ids],
      ['POST', '/monitor-bff/monitor-start', ids],
      ['GET', `/monitor-bff/monitor-stats?monitorId=${id}`, undefined],
      ['GET', `/monitor-bff/monitor-checks?monitorId=${id}`, undefined],
    ] as const) {
      expect((await api(method, url, undefined, body)).status).toBe(401);
    }
  });

  it('GET /monitor-bff/monitor-stats gives uptime over 24 h, 7 d and 30 d and a bucketed series', async () => {
    // Half past: the newest results fall in the current hour whatever the time the test runs.
    const offset = t.clock.now().getTime() % HOUR_MS;
    t.clock.advance((30 * MINUTE_MS - offset + HOUR_MS) % HOUR_MS);
    const monitorId = await createMonitor(t, owner);
    const now = t.clock.now().getTime();
    const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
    // Rolled-up history: two days ago, and twenty days ago.
    await seedRollup(t, monitorId, {
      hour: new Date(hour - 48 * HOUR_MS),
      checks: 12,
      failures: 2,
      p50Ms: 150,
    });
    await seedRollup(t, monitorId, { hour: new Date(hour - 480 * HOUR_MS), checks: 10, failures: 10 });
    // The newest roll-up covers part of the previous hour; its raw results are what count.
    await seedRollup(t, monitorId, { hour: new Date(hour - HOUR_MS), checks: 1, failures: 0 });
    await seedResults(t, monitorId, [
      { at: new Date(hour - 50 * MINUTE_MS), ok: true, responseMs: 100 },
      { at: new Date(hour - 40 * MINUTE_MS), ok: false, responseMs: null },
      { at: new Date(now - 2 * MINUTE_MS), ok: true, responseMs: 300 },
      { at: new Date(now - 1 * MINUTE_MS), ok: true, responseMs: 500 },
    ]);

    const day = await api('GET', `/monitor-bff/monitor-stats?monitorId=${monitorId}`, owner);
    expect(day.status).toBe(200);
    expect(monitorStatsResponse.parse(day.body)).toEqual(day.body);
    const { range, uptime, series } = day.body.data;
    expect(range).toBe('24h');
    expect(uptime).toEqual({ '24h': 75, '7d': 81.25, '30d': 50 });
    expect(series.length).toBeGreaterThanOrEqual(288);
    expect(series.length).toBeLessThanOrEqual(289);
    const withChecks = series.filter((point: { checks: number }) => point.checks > 0);
    expect(withChecks.reduce((sum: number, point: { checks: number }) => sum + point.checks, 0)).toBe(4);
    expect(series.at(-1).at <= new Date(now).toISOString()).toBe(true);

    const week = await api('GET', `/monitor-bff/monitor-stats?monitorId=${monitorId}&range=7d`, owner);
    const points = week.body.data.series;
    expect(points.length).toBeGreaterThanOrEqual(168);
    expect(points.find((p: { at: string }) => p.at === new Date(hour - 48 * HOUR_MS).toISOString())).toEqual({
      at: new Date(hour - 48 * HOUR_MS).toISOString(),
      checks: 12,
      failures: 2,
      p50Ms: 150,
      p95Ms: 200,
    });
    expect(points.find((p: { at: string }) => p.at === new Date(hour - HOUR_MS).toISOString())).toMatchObject(
      {
        checks: 2,
        failures: 1,
        p50Ms: 100,
      },
    );
    expect(points.at(-1)).toMatchObject({ at: new Date(hour).toISOString(), checks: 2, p50Ms: 400 });
    const month = await api('GET', `/monitor-bff/monitor-stats?monitorId=${monitorId}&range=30d`, owner);
    expect(month.body.data.series.length).toBeGreaterThanOrEqual(720);
    expect(
      (await api('GET', `/monitor-bff/monitor-stats?monitorId=${monitorId}&range=1y`, owner)).status,
    ).toBe(400);
  });

  it('GET /monitor-bff/monitor-stats lists the downtime in the range: incidents merged, clipped to the range', async () => {
    const monitorId = await createMonitor(t, owner);
    const now = t.clock.now().getTime();
    const ago = (ms: number) => new Date(now - ms);
    // Long over before the range: not listed.
    await seedIncident(t, owner, monitorId, {
      conditionKey: 'timeout',
      state: 'resolved',
      openedAt: ago(50 * HOUR_MS),
      resolvedAt: ago(49 * HOUR_MS),
    });
    // Two conditions failing at once are one stretch of downtime.
    await seedIncident(t, owner, monitorId, {
      conditionKey: 'http_status',
      state: 'resolved',
      openedAt: ago(3 * HOUR_MS),
      resolvedAt: ago(2 * HOUR_MS),
    });
    await seedIncident(t, owner, monitorId, {
      conditionKey: 'keyword',
      state: 'resolved',
      openedAt: ago(150 * MINUTE_MS),
      resolvedAt: ago(90 * MINUTE_MS),
    });
    // Begun before the range: it starts with the range.
    await seedIncident(t, owner, monitorId, {
      conditionKey: 'slow_response',
      state: 'resolved',
      openedAt: ago(26 * HOUR_MS),
      resolvedAt: ago(20 * HOUR_MS),
    });
    // Still open: no end yet.
    await seedIncident(t, owner, monitorId, { conditionKey: 'tls_expiry', openedAt: ago(30 * MINUTE_MS) });

    const day = await api('GET', `/monitor-bff/monitor-stats?monitorId=${monitorId}`, owner);
    expect(day.status).toBe(200);
    expect(monitorStatsResponse.parse(day.body)).toEqual(day.body);
    const first = day.body.data.series[0].at;
    const recent = [
      { from: ago(3 * HOUR_MS).toISOString(), to: ago(90 * MINUTE_MS).toISOString() },
      { from: ago(30 * MINUTE_MS).toISOString(), to: null },
    ];
    expect(day.body.data.downtime).toEqual([{ from: first, to: ago(20 * HOUR_MS).toISOString() }, ...recent]);
    const week = await api('GET', `/monitor-bff/monitor-stats?monitorId=${monitorId}&range=7d`, owner);
    expect(week.body.data.downtime).toEqual([
      { from: ago(50 * HOUR_MS).toISOString(), to: ago(49 * HOUR_MS).toISOString() },
      { from: ago(26 * HOUR_MS).toISOString(), to: ago(20 * HOUR_MS).toISOString() },
      ...recent,
    ]);
    const quiet = await createMonitor(t, owner);
    expect(
      (await api('GET', `/monitor-bff/monitor-stats?monitorId=${quiet}`, owner)).body.data.downtime,
    ).toEqual([]);
  });

  it('GET /monitor-bff/monitor-checks gives the last checks one by one, oldest first, at most 100', async () => {
    const monitorId = await createMonitor(t, owner);
    const fresh = await api('GET', `/monitor-bff/monitor-checks?monitorId=${monitorId}`, owner);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ data: { checks: [] } });

    const now = t.clock.now().getTime();
    // 105 checks a minute apart, the newest a minute ago; every tenth failed.
    await seedResults(
      t,
      monitorId,
      Array.from({ length: 105 }, (_, i) => ({
        at: new Date(now - (105 - i) * MINUTE_MS),
        ok: i % 10 !== 9,
        responseMs: i % 10 === 9 ? null : 100 + i,
        ...(i % 10 === 9 ? { error: 'The page answered 503 Service Unavailable.' } : {}),
      })),
    );
    const all = await api('GET', `/monitor-bff/monitor-checks?monitorId=${monitorId}`, owner);
    expect(all.status).toBe(200);
    expect(monitorChecksResponse.parse(all.body)).toEqual(all.body);
    const { checks } = all.body.data;
    expect(checks).toHaveLength(100);
    expect(checks[0]).toEqual({
      at: new Date(now - 100 * MINUTE_MS).toISOString(),
      ok: true,
      responseMs: 105,
      statusCode: 200,
      error: null,
    });
    expect(checks.at(-1).at).toBe(new Date(now - MINUTE_MS).toISOString());
    expect(checks.at(-6)).toEqual({
      at: new Date(now - 6 * MINUTE_MS).toISOString(),
      ok: false,
      responseMs: null,
      statusCode: 503,
      error: 'The page answered 503 Service Unavailable.',
    });
    const ats = checks.map((check: { at: string }) => check.at);
    expect([...ats].sort()).toEqual(ats);

    const three = await api('GET', `/monitor-bff/monitor-checks?monitorId=${monitorId}&limit=3`, owner);
    expect(three.body.data.checks.map((check: { at: string }) => check.at)).toEqual(ats.slice(-3));
  });

  it('GET /monitor-bff/monitor-checks refuses a bad query with a 400 that says what is wrong', async () => {
    const monitorId = await createMonitor(t, owner);
    for (const [query, message] of [
      [`monitorId=${monitorId}&limit=0`, 'limit must be at least 1.'],
      [`monitorId=${monitorId}&limit=101`, 'limit must be at most 100.'],
      [`monitorId=${monitorId}&limit=ten`, 'limit must be a number.'],
      [`monitorId=${monitorId}&limit=2.5`, 'limit must be a whole number.'],
      ['monitorId=nope', 'That monitor does not exist.'],
      ['', 'That monitor does not exist.'],
    ] as const) {
      const { status, body } = await api('GET', `/monitor-bff/monitor-checks?${query}`, owner);
      expect(status, query).toBe(400);
      expect(body, query).toMatchObject({ code: 'INVALID', message: expect.stringContaining(message) });
    }
  });
});

// A database of its own: the engine checks every due monitor, and the suite above leaves many.
describe.each(databases)('uptime as the engine records it, on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts exactly the checks of the last 24 UTC hours in uptime24h, as the engine writes them, through roll-ups and retention', async () => {
    const site = await startTargetServer();
    try {
      const user = await signUp(t, PRO);
      const store = createStore(t.database.db);
      const engine = createCheckEngine({
        store,
        queue: { send: async () => undefined },
        clock: t.clock,
        checkers: createCheckers(),
        log: { info: () => undefined, warn: () => undefined, error: () => undefined },
        concurrency: 1,
        batchSize: 1,
      });
      // Ten minutes before an hour, so the checks fall on both sides of hour boundaries.
      t.clock.advance(HOUR_MS - (t.clock.now().getTime() % HOUR_MS) - 10 * MINUTE_MS);
      const monitorId = await insertMonitor(t.database.db, {
        userId: user.userId,
        email: user.email,
        url: `${site.url}/uptime`,
        nextCheckAt: t.clock.now(),
        intervalSeconds: 1200,
      });
      const checks: { at: number; ok: boolean }[] = [];
      // 26 h 40 min of checks every 20 minutes; the hourly roll-up job keeps 6 hours of raw results.
      for (let i = 0; i < 80; i++) {
        const ok = i % 7 !== 3;
        site.behaviour = { ...HEALTHY, status: ok ? 200 : 503 };
        expect(await engine.runDue()).toBe(1);
        checks.push({ at: t.clock.now().getTime(), ok });
        if (i % 3 === 2) await rollUpAndPrune(store, t.clock.now(), 6);
        t.clock.advance(20 * MINUTE_MS);
      }
      expect(
        await t.database.db.select().from(checkResults).where(eq(checkResults.monitorId, monitorId)),
      ).not.toHaveLength(checks.length);

      const now = t.clock.now().getTime();
      const since = Math.floor(now / HOUR_MS) * HOUR_MS - 23 * HOUR_MS;
      const tally = (list: typeof checks) => ({
        checks: list.length,
        failures: list.filter((check) => !check.ok).length,
      });
      const lastDay = tally(checks.filter((check) => check.at >= since));
      expect(lastDay.checks).toBeLessThan(checks.length);
      const uptime24h = uptimeOf(lastDay);

      const list = await call(t.app, 'GET', '/monitor-bff/monitor', { token: user.token });
      expect(list.body.data.list[0]).toMatchObject({ monitorId, uptime24h });
      const info = await call(t.app, 'GET', `/monitor-bff/monitor-info?monitorId=${monitorId}`, {
        token: user.token,
      });
      expect(info.body.data.uptime24h).toBe(uptime24h);
      const stats = await call(t.app, 'GET', `/monitor-bff/monitor-stats?monitorId=${monitorId}&range=7d`, {
        token: user.token,
      });
      expect(stats.body.data.uptime).toMatchObject({ '24h': uptime24h, '7d': uptimeOf(tally(checks)) });
    } finally {
      await site.close();
    }
  });
});
