import { alertListResponse, alertResponse, incidentTimelineResponse } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDeliveries, checkResults, deliveryAttempts, incidents, monitors } from '../../db/schema.ts';
import { buildApp } from '../../app.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../lib/clock.ts';
import { databases } from '../../test/databases.ts';
import { call, startTestApp, type TestApp } from '../../test/test-app.ts';
import { createMonitor, seedIncident, signUp, type TestUser } from '../monitors/monitor-test-helpers.ts';
import { createAckLinks } from './ack-link.ts';
import { createServerSecretRepository } from './server-secret.repository.ts';

describe.each(databases)('alerts API on $name', (testDatabase) => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
    [owner, other] = await Promise.all([
      signUp(t, { name: 'Pro', days: 30 }),
      signUp(t, { name: 'Pro', days: 30 }),
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const acknowledge = (user: TestUser | undefined, incidentId: unknown) =>
    call(t.app, 'POST', '/monitor-bff/monitor/alerts/acknowledge', {
      token: user?.token,
      body: { incidentId },
    });
  const resolve = (user: TestUser | undefined, body: unknown) =>
    call(t.app, 'POST', '/monitor-bff/monitor/alerts/resolve', { token: user?.token, body });
  const incident = async (id: string) => {
    const [row] = await t.database.db.select().from(incidents).where(eq(incidents.id, id));
    return row;
  };
  /** Another process's signer: it must find the same secret in the database. */
  const links = () =>
    createAckLinks({
      serverSecrets: createServerSecretRepository(t.database.db),
      clock: t.clock,
      publicUrl: t.url,
    });
  const follow = async (link: string) => {
    const url = new URL(link);
    const response = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(response.statusCode).toBe(302);
    return String(response.headers.location);
  };

  it('lists alerts newest first with monitor name, condition label and deliveries; filters and pages', async () => {
    const user = await signUp(t, { name: 'Pro', days: 30 });
    const shop = await createMonitor(t, user, { name: 'Shop' });
    const blog = await createMonitor(t, user, { name: 'Blog' });
    const start = t.clock.now().getTime();
    const first = await seedIncident(t, user, shop, {
      state: 'resolved',
      openedAt: new Date(start - 3 * MINUTE_MS),
    });
    const second = await seedIncident(t, user, blog, {
      conditionKey: 'keyword',
      openedAt: new Date(start - 2 * MINUTE_MS),
    });
    const third = await seedIncident(t, user, shop, {
      conditionKey: 'tls_expiry',
      openedAt: new Date(start - MINUTE_MS),
    });
    await seedIncident(t, other, await createMonitor(t, other));

    const all = await call(t.app, 'GET', '/monitor-bff/monitor/alerts', { token: user.token });
    expect(all.status).toBe(200);
    expect(alertListResponse.parse(all.body)).toEqual(all.body);
    expect(all.body.data).toMatchObject({ total: 3, page: 1, pageSize: 20 });
    expect(all.body.data.list.map((a: { incidentId: string }) => a.incidentId)).toEqual([
      third,
      second,
      first,
    ]);
    expect(all.body.data.list[1]).toEqual({
      incidentId: second,
      monitorId: blog,
      monitorName: 'Blog',
      conditionKey: 'keyword',
      conditionLabel: 'Keyword',
      summary: 'The page answered 503 Service Unavailable.',
      state: 'open',
      openedAt: new Date(start - 2 * MINUTE_MS).toISOString(),
      acknowledgedAt: null,
      resolvedAt: null,
      resolvedBy: null,
      resolutionNote: null,
      alertCount: 1,
      deliveries: [
        {
          event: 'opened',
          channel: 'email',
          recipient: user.email,
          status: 'sent',
          attempts: 1,
          lastError: null,
          sentAt: new Date(start - 2 * MINUTE_MS).toISOString(),
          fallbackFor: null,
        },
      ],
    });

    const ofShop = await call(t.app, 'GET', `/monitor-bff/monitor/alerts?monitorId=${shop}`, {
      token: user.token,
    });
    expect(ofShop.body.data.list.map((a: { incidentId: string }) => a.incidentId)).toEqual([third, first]);
    const open = await call(t.app, 'GET', '/monitor-bff/monitor/alerts?state=open', { token: user.token });
    expect(open.body.data.total).toBe(2);
    const resolvedOfBlog = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor/alerts?state=resolved&monitorId=${blog}`,
      {
        token: user.token,
      },
    );
    expect(resolvedOfBlog.body.data).toMatchObject({ list: [], total: 0 });
    const page2 = await call(t.app, 'GET', '/monitor-bff/monitor/alerts?page=2&pageSize=2', {
      token: user.token,
    });
    expect(page2.body.data).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page2.body.data.list.map((a: { incidentId: string }) => a.incidentId)).toEqual([first]);

    const bad = await call(t.app, 'GET', '/monitor-bff/monitor/alerts?state=closed', { token: user.token });
    expect(bad.status).toBe(400);
    expect(
      (await call(t.app, 'GET', '/monitor-bff/monitor/alerts?monitorId=x', { token: user.token })).status,
    ).toBe(400);
    expect((await call(t.app, 'GET', '/monitor-bff/monitor/alerts')).status).toBe(401);
  });

  it('acknowledges an open alert: no more repeats; twice is fine; a resolved one is a 409', async () => {
    const monitorId = await createMonitor(t, owner);
    const id = await seedIncident(t, owner, monitorId);
    const { status, body } = await acknowledge(owner, id);
    expect(status).toBe(200);
    expect(alertResponse.parse(body)).toEqual(body);
    expect(body.data).toMatchObject({
      incidentId: id,
      state: 'acknowledged',
      acknowledgedAt: t.clock.now().toISOString(),
    });
    expect(await incident(id)).toMatchObject({ state: 'acknowledged', nextAlertAt: null });
    t.clock.advance(MINUTE_MS);
    const again = await acknowledge(owner, id);
    expect(again.body.data.acknowledgedAt).toBe(body.data.acknowledgedAt);

    const resolved = await seedIncident(t, owner, monitorId, { conditionKey: 'timeout', state: 'resolved' });
    const conflict = await acknowledge(owner, resolved);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({
      code: 'CONFLICT',
      message: 'This alert is already resolved: there is nothing left to acknowledge.',
    });
  });

  it('resolves an alert by hand with a note: no repeats, and the monitor forgets that condition’s failures', async () => {
    const monitorId = await createMonitor(t, owner);
    const id = await seedIncident(t, owner, monitorId);
    const failing = { http_status: { failures: 3, open: true }, keyword: { failures: 1, open: false } };
    await t.database.db.update(monitors).set({ checkState: failing }).where(eq(monitors.id, monitorId));

    const { status, body } = await resolve(owner, { incidentId: id, note: '  Host restarted the server.  ' });
    expect(status).toBe(200);
    expect(alertResponse.parse(body)).toEqual(body);
    expect(body.data).toMatchObject({
      state: 'resolved',
      resolvedAt: t.clock.now().toISOString(),
      resolvedBy: 'person',
      resolutionNote: 'Host restarted the server.',
    });
    expect(await incident(id)).toMatchObject({ state: 'resolved', nextAlertAt: null });
    const [monitor] = await t.database.db.select().from(monitors).where(eq(monitors.id, monitorId));
    // A site still failing opens a new incident after its confirmations; other conditions keep their count.
    expect(monitor!.checkState).toEqual({ keyword: { failures: 1, open: false } });
    // No recovery notice: the person resolved it, nothing said the site recovered.
    const events = (body.data as { deliveries: { event: string }[] }).deliveries.map((d) => d.event);
    expect(events).toEqual(['opened']);

    const twice = await resolve(owner, { incidentId: id });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ code: 'CONFLICT', message: 'This alert is already resolved.' });
    const acknowledged = await seedIncident(t, owner, monitorId, {
      conditionKey: 'timeout',
      state: 'acknowledged',
    });
    expect((await resolve(owner, { incidentId: acknowledged })).body.data).toMatchObject({
      state: 'resolved',
      resolvedBy: 'person',
      resolutionNote: null,
    });
  });

  it("refuses another user's alert (404), a note too long (400) and no session (401), changing nothing", async () => {
    const id = await seedIncident(t, other, await createMonitor(t, other));
    const foreign = await resolve(owner, { incidentId: id, note: 'mine now' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ code: 'NOT_FOUND', message: 'That alert does not exist.' });
    const mine = await seedIncident(t, owner, await createMonitor(t, owner));
    const long = await resolve(owner, { incidentId: mine, note: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.details).toEqual([{ path: 'note', message: 'Keep the note under 500 characters.' }]);
    expect((await resolve(undefined, { incidentId: mine })).status).toBe(401);
    expect(await incident(id)).toMatchObject({ state: 'open', resolvedBy: null });
    expect(await incident(mine)).toMatchObject({ state: 'open', resolvedBy: null });
  });

  it('ends the open and acknowledged alerts of a monitor when it is paused, without a recovery notice', async () => {
    const monitorId = await createMonitor(t, owner);
    const open = await seedIncident(t, owner, monitorId);
    const acked = await seedIncident(t, owner, monitorId, { conditionKey: 'timeout', state: 'acknowledged' });
    const elsewhere = await seedIncident(t, owner, await createMonitor(t, owner));
    await t.database.db
      .update(monitors)
      .set({ checkState: { http_status: { failures: 2, open: true } } })
      .where(eq(monitors.id, monitorId));

    const paused = await call(t.app, 'POST', '/monitor-bff/monitor-pause', {
      token: owner.token,
      body: { monitor_ids: [monitorId] },
    });
    expect(paused.status).toBe(200);
    for (const id of [open, acked]) {
      expect(await incident(id)).toMatchObject({ state: 'resolved', resolvedBy: 'pause', nextAlertAt: null });
    }
    expect(await incident(elsewhere)).toMatchObject({ state: 'open' });
    const [monitor] = await t.database.db.select().from(monitors).where(eq(monitors.id, monitorId));
    expect(monitor!.checkState).toEqual({});
    const list = await call(t.app, 'GET', `/monitor-bff/monitor/alerts?monitorId=${monitorId}`, {
      token: owner.token,
    });
    expect(
      list.body.data.list.map((a: { resolvedBy: string; deliveries: unknown[] }) => a.resolvedBy),
    ).toEqual(['pause', 'pause']);
  });

  it("answers 404 for another user's alert and changes nothing; 400 for a bad id; 401 without a session", async () => {
    const id = await seedIncident(t, other, await createMonitor(t, other));
    const answer = await acknowledge(owner, id);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ code: 'NOT_FOUND', message: 'That alert does not exist.' });
    expect(await incident(id)).toMatchObject({ state: 'open' });
    expect((await acknowledge(owner, 'not-an-id')).body).toEqual({
      code: 'INVALID',
      message: 'That alert does not exist.',
      details: [{ path: 'incidentId', message: 'That alert does not exist.' }],
    });
    expect((await acknowledge(undefined, id)).status).toBe(401);
  });

  it('acknowledges through the signed link of the email, then redirects to the alerts page', async () => {
    const monitorId = await createMonitor(t, owner);
    const id = await seedIncident(t, owner, monitorId);
    const link = await links().createAckLink(id);
    expect(link.startsWith(`${t.url}/monitor-bff/alerts/acknowledge?token=`)).toBe(true);
    expect(await follow(link)).toBe(`${t.url}/app/alerts?acknowledged=${id}`);
    expect(await incident(id)).toMatchObject({
      state: 'acknowledged',
      nextAlertAt: null,
      acknowledgedAt: t.clock.now(),
    });
    // Clicking again lands on the same page.
    expect(await follow(link)).toBe(`${t.url}/app/alerts?acknowledged=${id}`);
    // The app's own signer and a second one made later share the database's secret.
    expect(await follow(await links().createAckLink(id))).toBe(`${t.url}/app/alerts?acknowledged=${id}`);
  });

  it('keeps the link’s token, and OAuth codes, out of the request log', async () => {
    const lines: string[] = [];
    const logged = await buildApp({
      ...t.deps,
      sandbox: undefined,
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    const monitorId = await createMonitor(t, owner);
    const link = new URL(await links().createAckLink(await seedIncident(t, owner, monitorId)));
    const token = link.searchParams.get('token')!;
    await logged.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    await logged.inject({ method: 'GET', url: '/app/oauth?code=4%2F0Ab-secret&state=st-secret&scope=ads' });
    await logged.close();

    const urls = lines
      .map((line) => JSON.parse(line) as { req?: { url: string } })
      .flatMap((entry) => (entry.req ? [entry.req.url] : []));
    expect(urls).toEqual([
      '/monitor-bff/alerts/acknowledge?token=[redacted]',
      '/app/oauth?code=[redacted]&state=[redacted]&scope=ads',
    ]);
    expect(lines.join('\n')).not.toContain(token);
    expect(lines.join('\n')).not.toContain('secret');
  });

  it('refuses tampered, expired and missing tokens, and links of resolved or deleted alerts, by redirecting', async () => {
    const monitorId = await createMonitor(t, owner);
    const id = await seedIncident(t, owner, monitorId);
    const link = await links().createAckLink(id);
    const token = decodeURIComponent(new URL(link).searchParams.get('token')!);
    const [, expires, signature] = token.split('.');
    const otherId = await seedIncident(t, other, await createMonitor(t, other));
    const base = `${t.url}/monitor-bff/alerts/acknowledge`;
    const tampered = [
      `${otherId}.${expires}.${signature}`,
      `${id}.${Number(expires) + 86_400}.${signature}`,
      `${id}.${expires}.${signature!.slice(0, -1)}${signature!.endsWith('A') ? 'B' : 'A'}`,
      'garbage',
    ];
    for (const bad of tampered) {
      expect(await follow(`${base}?token=${encodeURIComponent(bad)}`)).toBe(
        `${t.url}/app/alerts?ackError=invalid`,
      );
    }
    expect(await follow(base)).toBe(`${t.url}/app/alerts?ackError=invalid`);
    expect(await follow(`${base}?token=a&token=b`)).toBe(`${t.url}/app/alerts?ackError=invalid`);
    expect(await incident(id)).toMatchObject({ state: 'open' });
    expect(await incident(otherId)).toMatchObject({ state: 'open' });

    const resolved = await seedIncident(t, owner, monitorId, { conditionKey: 'timeout', state: 'resolved' });
    expect(await follow(await links().createAckLink(resolved))).toBe(`${t.url}/app/alerts?ackError=resolved`);

    const gone = await createMonitor(t, owner);
    const goneLink = await links().createAckLink(await seedIncident(t, owner, gone));
    await t.database.db.delete(monitors).where(eq(monitors.id, gone));
    expect(await follow(goneLink)).toBe(`${t.url}/app/alerts?ackError=not_found`);

    t.clock.advance(7 * DAY_MS);
    expect(await follow(link)).toBe(`${t.url}/app/alerts?ackError=expired`);
    expect(await incident(id)).toMatchObject({ state: 'open' });
  });

  describe('timeline', () => {
    const timeline = (user: TestUser | undefined, incidentId: string) =>
      call(
        t.app,
        'GET',
        `/monitor-bff/monitor/alerts/timeline?incidentId=${encodeURIComponent(incidentId)}`,
        {
          token: user?.token,
        },
      );
    /** Check results as the engine writes them: one per slot, with the keys of the conditions that failed. */
    const seedChecks = (
      monitorId: string,
      checks: { at: Date; failed?: string[]; statusCode?: number | null; error?: string | null }[],
    ) =>
      t.database.db.insert(checkResults).values(
        checks.map(({ at, failed = [], statusCode = failed.length ? 503 : 200, error = null }) => ({
          monitorId,
          slotAt: at,
          checkedAt: at,
          ok: failed.length === 0 && error === null,
          responseMs: 120,
          statusCode,
          failedConditions: failed,
          error,
        })),
      );
    const delivery = (incidentId: string, row: Partial<typeof alertDeliveries.$inferInsert>) =>
      t.database.db
        .insert(alertDeliveries)
        .values({
          incidentId,
          event: 'opened',
          channel: 'email',
          recipient: owner.email,
          status: 'sent',
          attempts: 1,
          createdAt: t.clock.now(),
          updatedAt: t.clock.now(),
          ...row,
        })
        .returning({ id: alertDeliveries.id });
    const minutesAgo = (base: number, minutes: number) => new Date(base - minutes * MINUTE_MS);

    it('tells an incident in time order: its failures, opening, alerts per channel, acknowledgement and recovery', async () => {
      const monitorId = await createMonitor(t, owner);
      const now = t.clock.now().getTime();
      const ago = (minutes: number) => minutesAgo(now, minutes);
      await seedChecks(monitorId, [
        // An earlier failure, ended by the passing check after it: not this incident's.
        { at: ago(12), failed: ['http_status'], error: 'The page answered 500 Internal Server Error.' },
        { at: ago(10) },
        { at: ago(9), failed: ['http_status'], error: 'The page answered 503 Service Unavailable.' },
        { at: ago(8.5), failed: ['http_status'], error: 'The page answered 503 Service Unavailable.' },
        // Another condition failing while this one passes: not listed.
        { at: ago(6), failed: ['keyword'], statusCode: 200, error: 'The keyword is missing.' },
        { at: ago(5), failed: ['http_status', 'keyword'], statusCode: 502, error: 'Bad gateway.' },
        { at: ago(3) },
        { at: ago(2), failed: ['http_status'] },
      ]);
      const id = await seedIncident(t, owner, monitorId, { state: 'resolved', openedAt: ago(8.5) });
      await t.database.db
        .update(incidents)
        .set({ acknowledgedAt: ago(7), resolvedAt: ago(3), resolvedBy: 'check' })
        .where(eq(incidents.id, id));
      const phone = '+12015550123';
      await delivery(id, {
        channel: 'call',
        recipient: phone,
        status: 'acknowledged',
        createdAt: ago(8.5),
        sentAt: new Date(ago(8.5).getTime() + 5000),
      });
      const [repeat] = await delivery(id, {
        event: 'repeat-1',
        channel: 'sms',
        recipient: phone,
        status: 'failed',
        attempts: 2,
        lastError: 'Twilio refused the number.',
        createdAt: ago(6.8),
        updatedAt: ago(6.5),
        sentAt: null,
      });
      await t.database.db.insert(deliveryAttempts).values([
        { deliveryId: repeat!.id, startedAt: ago(6.8), outcome: 'retry', error: 'Twilio answered 503.' },
        {
          deliveryId: repeat!.id,
          startedAt: ago(6.5),
          outcome: 'failed',
          error: 'Twilio refused the number.',
        },
      ]);
      await delivery(id, { event: 'resolved', createdAt: ago(3), sentAt: new Date(ago(3).getTime() + 1000) });

      const { status, body } = await timeline(owner, id);
      expect(status).toBe(200);
      expect(incidentTimelineResponse.parse(body)).toEqual(body);
      const iso = (date: Date) => date.toISOString();
      expect(body.data).toEqual({
        incidentId: id,
        state: 'resolved',
        checksKeptFrom: null,
        events: [
          {
            kind: 'check-failed',
            at: iso(ago(9)),
            statusCode: 503,
            error: 'The page answered 503 Service Unavailable.',
          },
          {
            kind: 'check-failed',
            at: iso(ago(8.5)),
            statusCode: 503,
            error: 'The page answered 503 Service Unavailable.',
          },
          { kind: 'opened', at: iso(ago(8.5)), summary: 'The page answered 503 Service Unavailable.' },
          expect.objectContaining({
            kind: 'delivery',
            at: iso(ago(8.5)),
            event: 'opened',
            channel: 'email',
            recipient: owner.email,
            status: 'sent',
            failedTries: [],
          }),
          expect.objectContaining({
            kind: 'delivery',
            at: new Date(ago(8.5).getTime() + 5000).toISOString(),
            channel: 'call',
            status: 'acknowledged',
          }),
          { kind: 'acknowledged', at: iso(ago(7)), byCallTo: phone },
          {
            kind: 'delivery',
            at: iso(ago(6.5)),
            event: 'repeat-1',
            channel: 'sms',
            recipient: phone,
            status: 'failed',
            attempts: 2,
            lastError: 'Twilio refused the number.',
            sentAt: null,
            fallbackFor: null,
            // The last try's reason is `lastError`: listed once.
            failedTries: [{ at: iso(ago(6.8)), error: 'Twilio answered 503.' }],
          },
          { kind: 'check-failed', at: iso(ago(5)), statusCode: 502, error: 'Bad gateway.' },
          { kind: 'resolved', at: iso(ago(3)), by: 'check', note: null },
          expect.objectContaining({ kind: 'delivery', event: 'resolved', channel: 'email', status: 'sent' }),
        ],
      });
    });

    it('lists the first and last 5 failed checks of a long outage and counts the rest; an open one has no end', async () => {
      const monitorId = await createMonitor(t, owner);
      const now = t.clock.now().getTime();
      const start = now - 2 * HOUR_MS;
      const at = (n: number) => new Date(start + n * MINUTE_MS);
      await seedChecks(monitorId, [
        { at: at(-1) },
        ...Array.from({ length: 100 }, (_, n) => ({
          at: at(n),
          failed: ['timeout'],
          statusCode: null,
          error: `No answer within 10 seconds (${n}).`,
        })),
      ]);
      const id = await seedIncident(t, owner, monitorId, { conditionKey: 'timeout', openedAt: at(1) });

      const { status, body } = await timeline(owner, id);
      expect(status).toBe(200);
      expect(incidentTimelineResponse.parse(body)).toEqual(body);
      const events = body.data.events as { kind: string; at: string; error?: string; count?: number }[];
      expect(events.map((event) => event.kind)).toEqual([
        'check-failed',
        'check-failed',
        'opened',
        'delivery',
        'check-failed',
        'check-failed',
        'check-failed',
        'more-failures',
        'check-failed',
        'check-failed',
        'check-failed',
        'check-failed',
        'check-failed',
      ]);
      const failures = events.filter((event) => event.kind === 'check-failed').map((event) => event.error);
      expect(failures).toEqual(
        [0, 1, 2, 3, 4, 95, 96, 97, 98, 99].map((n) => `No answer within 10 seconds (${n}).`),
      );
      expect(events[7]).toEqual({
        kind: 'more-failures',
        at: at(4).toISOString(),
        until: at(95).toISOString(),
        count: 90,
      });
      expect(body.data).toMatchObject({ state: 'open', checksKeptFrom: null });
    });

    it('shows a person’s resolution with the note, and the next incident starts after it', async () => {
      const monitorId = await createMonitor(t, owner);
      const now = t.clock.now().getTime();
      const at = (minutes: number) => new Date(now + minutes * MINUTE_MS);
      // Still failing when resolved by hand: the failures after it are the next incident's.
      await seedChecks(
        monitorId,
        [-10, -9, -8, 1, 2].map((minutes) => ({ at: at(minutes), failed: ['http_status'] })),
      );
      const first = await seedIncident(t, owner, monitorId, { openedAt: at(-9) });
      const resolved = await resolve(owner, {
        incidentId: first,
        note: 'False alarm: the host was moving us.',
      });
      expect(resolved.status).toBe(200);
      t.clock.advance(5 * MINUTE_MS);
      const second = await seedIncident(t, owner, monitorId, { openedAt: at(2) });

      const earlier = await timeline(owner, first);
      const kinds = (events: { kind: string }[]) => events.map((event) => event.kind);
      expect(kinds(earlier.body.data.events)).toEqual([
        'check-failed',
        'check-failed',
        'opened',
        'delivery',
        'check-failed',
        'resolved',
      ]);
      expect(earlier.body.data.events.at(-1)).toEqual({
        kind: 'resolved',
        at: at(0).toISOString(),
        by: 'person',
        note: 'False alarm: the host was moving us.',
      });
      const later = await timeline(owner, second);
      expect(
        (later.body.data.events as { kind: string; at: string }[])
          .filter((event) => event.kind === 'check-failed')
          .map((event) => event.at),
      ).toEqual([at(1).toISOString(), at(2).toISOString()]);
    });

    it('says when the checks an incident spans are no longer kept', async () => {
      const monitorId = await createMonitor(t, owner);
      const now = t.clock.now().getTime();
      await seedChecks(monitorId, [{ at: minutesAgo(now, 50), failed: ['http_status'] }]);
      const id = await seedIncident(t, owner, monitorId, { openedAt: minutesAgo(now, 60) });
      const { body } = await timeline(owner, id);
      expect(body.data.checksKeptFrom).toBe(minutesAgo(now, 50).toISOString());
      expect((body.data.events as { kind: string }[]).map((e) => e.kind)).toEqual([
        'opened',
        'delivery',
        'check-failed',
      ]);
    });

    it("answers 404 for another user's alert, 400 for a bad id and 401 without a session", async () => {
      const foreign = await seedIncident(t, other, await createMonitor(t, other));
      const answer = await timeline(owner, foreign);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ code: 'NOT_FOUND', message: 'That alert does not exist.' });
      expect((await timeline(owner, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
      const bad = await timeline(owner, 'not-an-id');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: 'INVALID', message: 'That alert does not exist.' });
      expect(
        (await call(t.app, 'GET', '/monitor-bff/monitor/alerts/timeline', { token: owner.token })).status,
      ).toBe(400);
      expect((await timeline(undefined, foreign)).status).toBe(401);
    });
  });
});
