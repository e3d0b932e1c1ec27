import { PHONE_NUMBER_MESSAGE } from '@vigil/contracts';
import { twilioSignature } from '@vigil/sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TWILIO } from '../../config.ts';
import { alertDeliveries, deliveryAttempts, incidents, phoneUsage } from '../../db/schema.ts';
import { createStore, type Store } from '../../db/store.ts';
import { queueDeliveries } from '../../jobs/deliver-alert.job.ts';
import { PHONE_CONTACT } from '../../engine/alert-events.ts';
import { openTestIncident } from '../../test/engine-kit.ts';
import { monthOf } from '../../engine/phone.repository.ts';
import { addMs } from '../../lib/clock.ts';
import { databases } from '../../test/databases.ts';
import { call, startTestApp, TEST_FROM_NUMBER, type TestApp } from '../../test/test-app.ts';
import { createMonitor, signUp, websiteMonitor, type TestUser } from '../monitors/monitor-test-helpers.ts';

const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;

let numberCounter = 0;
/** A fresh US number per test: STOPs and send limits are per number and outlive a test. */
function newNumber(): string {
  numberCounter += 1;
  return `+1415${String(2_000_000 + ((process.pid * 97 + numberCounter * 7919) % 7_000_000)).padStart(7, '0')}`;
}

describe.each(databases)('phone alerts on $name', (testDatabase) => {
  let t: TestApp;
  let store: Store;
  beforeAll(async () => {
    // Calls are retried after a second here, and given up after two tries, so the whole ladder fits a test.
    t = await startTestApp(testDatabase, {
      phonePolicy: { ringSeconds: 30, callTries: 2, retryPauseSeconds: 1 },
    });
    store = createStore(t.database.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  const phone = () => t.sandbox.phone;
  const sendCode = (user: TestUser, body: unknown) =>
    call(t.app, 'POST', '/monitor-bff/monitor/send-code', { token: user.token, body });
  const verifyCode = (user: TestUser, body: unknown) =>
    call(t.app, 'POST', '/monitor-bff/monitor/verify-code', { token: user.token, body });

  async function verifiedUser(plan = 'Business'): Promise<{ user: TestUser; number: string }> {
    const user = await signUp(t, { name: plan, days: 30 });
    const number = newNumber();
    await store.contacts.markVerified(
      { userId: user.userId, channel: PHONE_CONTACT, address: number },
      t.clock.now(),
    );
    return { user, number };
  }

  const phoneSettings = (number: string, channels: { call?: boolean; sms?: boolean }) => ({
    callSettings: { checked: channels.call ?? false, name: 'Owner', isAgree: true, phone: number },
    smsSettings: { checked: channels.sms ?? false, name: 'Owner', isAgree: true, phone: number },
  });

  /** An incident of the monitor with its event's deliveries recorded, as the engine does it, but not queued. */
  async function recordIncident(user: TestUser, monitorId: string) {
    const monitor = (await store.monitors.findOwned(user.userId, monitorId))!;
    return openTestIncident(store, {
      monitorId,
      userId: user.userId,
      alertSettings: monitor.alertSettings,
      now: t.clock.now(),
      summary: 'HTTP 503 from https://shop.example/',
    });
  }

  /** An incident of the monitor, its event's deliveries recorded and queued as the engine does it. */
  async function openIncident(user: TestUser, monitorId: string): Promise<string> {
    const { incidentId, deliveryIds } = await recordIncident(user, monitorId);
    await queueDeliveries({ queue: t.deps.queue, store, clock: t.clock, log: silentLog }, deliveryIds);
    return incidentId;
  }

  const deliveriesOf = (incidentId: string) =>
    t.database.db.select().from(alertDeliveries).where(eq(alertDeliveries.incidentId, incidentId));
  const deliveryOf = async (incidentId: string, channel: string) =>
    (await deliveriesOf(incidentId)).find((d) => d.channel === channel);
  /** A delivery's tries, oldest first. */
  const triesOf = (deliveryId: string) =>
    t.database.db
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, deliveryId))
      .orderBy(deliveryAttempts.id);
  const usageThisMonth = (user: TestUser) => store.phone.usage(user.userId, monthOf(t.clock.now()));
  const pollDelivery = (incidentId: string, channel: string) =>
    expect.poll(async () => (await deliveryOf(incidentId, channel))?.status, {
      timeout: 15_000,
      interval: 100,
    });

  /** A delivery taken for sending, as the job does it before Twilio has answered. */
  async function sending(user: TestUser, monitorId: string, channel: string) {
    const { incidentId } = await recordIncident(user, monitorId);
    const delivery = (await deliveryOf(incidentId, channel))!;
    const now = t.clock.now();
    const { attemptId } = (await store.alerting.startAttempt(delivery.id, now, addMs(now, 20_000)))!;
    const recordSend = (sid: string) =>
      store.alerting.finishAttempt({
        deliveryId: delivery.id,
        attemptId,
        outcome: 'sent',
        error: null,
        providerMessageId: sid,
        now: t.clock.now(),
      });
    return { incidentId, deliveryId: delivery.id, attemptId, recordSend };
  }

  describe('verifying a number', () => {
    it('texts a code that verifies the number for calls and SMS', async () => {
      const user = await signUp(t, { name: 'Pro', days: 30 });
      const number = newNumber();
      const sent = await sendCode(user, { channel: 'sms', phone: number, languageCode: 'fr-FR' });
      expect(sent.status).toBe(200);
      expect(sent.body.data).toMatchObject({ channel: 'sms', address: number, verified: false });
      const sms = await phone().waitForMessage((m) => m.to === number && m.direction === 'outbound-api');
      expect(sms.from).toBe(TEST_FROM_NUMBER);
      expect(sms.body).toMatch(/^Votre code de vérification Vigil est \d{6}\./);
      const code = /(\d{6})/.exec(sms.body)![1]!;

      const wrong = await verifyCode(user, {
        channel: 'sms',
        phone: number,
        code: code === '000000' ? '000001' : '000000',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toMatch(/not right\. Check the SMS and try again \(4 tries left\)/);
      const right = await verifyCode(user, { channel: 'call', phone: number, code });
      expect(right.status).toBe(200);
      expect(right.body.data).toMatchObject({ address: number, verified: true });
      const again = await sendCode(user, { channel: 'call', phone: number });
      expect(again.body.data).toMatchObject({ verified: true, message: `${number} is already verified.` });
    });

    it('calls and reads the code out, digit by digit', async () => {
      const user = await signUp(t, { name: 'Pro', days: 30 });
      const number = newNumber();
      expect((await sendCode(user, { channel: 'call', phone: number })).status).toBe(200);
      const ringing = await phone().waitForCall((c) => c.to === number && c.status === 'ringing');
      const answered = await phone().answer(ringing.sid);
      const said = answered.spoken.map((s) => s.text).join(' ');
      const digits = /is: ((?:\d, ){5}\d)\./.exec(said)?.[1];
      expect(digits, said).toBeDefined();
      expect(answered.spoken[0]!.language).toBe('en-US');
      const code = digits!.replace(/, /g, '');
      expect((await verifyCode(user, { channel: 'call', phone: number, code })).status).toBe(200);
    });

    it('refuses numbers outside the nine countries and malformed ones, in words a person can act on', async () => {
      const user = await signUp(t);
      for (const phoneNumber of ['+81312345678', '+1415', '0612345678', 'call me']) {
        const { status, body } = await sendCode(user, { channel: 'sms', phone: phoneNumber });
        expect(status, phoneNumber).toBe(400);
        expect(JSON.stringify(body)).toContain(PHONE_NUMBER_MESSAGE);
      }
      expect(phone().messages({ to: '+81312345678' })).toHaveLength(0);
    });

    it('limits codes per number, so the endpoint cannot be used to flood a phone', async () => {
      const number = newNumber();
      const users = await Promise.all([signUp(t), signUp(t)]);
      for (let i = 0; i < 5; i++) {
        expect((await sendCode(users[i % 2]!, { channel: 'sms', phone: number })).status).toBe(200);
      }
      const refused = await sendCode(users[0]!, { channel: 'call', phone: number });
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(
        /Several codes were already sent\. Use the code in the last call, or ask again in/,
      );
      expect(refused.response.headers['retry-after']).toBeDefined();
    });

    it('will not text a number that replied STOP, and says how to undo it', async () => {
      const user = await signUp(t);
      const number = newNumber();
      await phone().reply(number, 'stop');
      await expect.poll(async () => (await store.phone.optedOut([number])).has(number)).toBe(true);
      const refused = await sendCode(user, { channel: 'sms', phone: number });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(
        `${number} replied STOP, so Vigil cannot text it. Text START to ${TEST_FROM_NUMBER} from that phone, or get the code by a call.`,
      );
      expect((await sendCode(user, { channel: 'call', phone: number })).status).toBe(200);
    });
  });

  describe('monitor settings', () => {
    it('needs a plan with the channel, consent and a verified number', async () => {
      const free = await signUp(t);
      const create = (user: TestUser, overrides: object) =>
        call(t.app, 'POST', '/monitor-bff/monitor', {
          token: user.token,
          body: websiteMonitor(user.email, overrides),
        });
      const number = newNumber();
      const onFree = await create(free, phoneSettings(number, { sms: true }));
      expect(onFree.status).toBe(400);
      expect(onFree.body.message).toBe(
        'The Free plan has no SMS: choose Starter, Pro, Business, or untick it.',
      );

      const starter = await signUp(t, { name: 'Starter', days: 30 });
      const callOnStarter = await create(starter, phoneSettings(number, { call: true }));
      expect(callOnStarter.body.message).toBe(
        'The Starter plan has no phone calls: choose Pro, Business, or untick it.',
      );
      const unverified = await create(starter, phoneSettings(number, { sms: true }));
      expect(unverified.status).toBe(400);
      expect(unverified.body.message).toBe(
        `Verify ${number} first: send a code by SMS or call and enter it.`,
      );
      const noConsent = await create(starter, {
        smsSettings: { checked: true, name: 'Owner', isAgree: false, phone: number },
      });
      expect(noConsent.status).toBe(400);

      await store.contacts.markVerified(
        { userId: starter.userId, channel: PHONE_CONTACT, address: number },
        t.clock.now(),
      );
      const ok = await create(starter, phoneSettings(number, { sms: true }));
      expect(ok.status).toBe(200);
      expect(ok.body.data.smsSettings).toMatchObject({ checked: true, isAgree: true, phone: number });
    });
  });

  describe('alerts by SMS', () => {
    it('texts the alert with its acknowledge link; Twilio’s delivery receipt marks it delivered', async () => {
      const { user, number } = await verifiedUser();
      const monitorId = await createMonitor(t, user, {
        ...phoneSettings(number, { sms: true }),
        intervalSeconds: 300,
      });
      const incidentId = await openIncident(user, monitorId);
      const sms = await phone().waitForMessage((m) => m.to === number && m.direction === 'outbound-api');
      expect(sms.body).toMatch(
        /^Vigil alert\. Storefront has a problem: HTTP 503 from https:\/\/shop\.example\/\. Acknowledge: http:\/\/127\.0\.0\.1:\d+\/monitor-bff\/alerts\/acknowledge\?token=/,
      );
      await pollDelivery(incidentId, 'sms').toBe('delivered');
      const [attempt] = await triesOf((await deliveryOf(incidentId, 'sms'))!.id);
      expect(attempt).toMatchObject({ outcome: 'sent', providerId: sms.sid });
      expect((await usageThisMonth(user)).sms).toBe(1);
    });

    it('keeps a delivery receipt that comes before the send is recorded', async () => {
      const { user, number } = await verifiedUser();
      const monitorId = await createMonitor(t, user, {
        ...phoneSettings(number, { sms: true }),
        intervalSeconds: 300,
      });
      const { incidentId, deliveryId, recordSend } = await sending(user, monitorId, 'sms');
      // Twilio's receipt, before the sending job has written what Twilio answered.
      expect(await store.phone.markDelivered(deliveryId, 'SM-early', t.clock.now())).toBe(true);
      await recordSend('SM-early');
      expect(await deliveryOf(incidentId, 'sms')).toMatchObject({
        status: 'delivered',
        providerMessageId: 'SM-early',
      });
      expect(await store.phone.markDelivered(deliveryId, 'SM-other', t.clock.now())).toBe(false);
    });

    it('sends one SMS when Twilio answers 500 and then 201, and records both tries', async () => {
      const { user, number } = await verifiedUser();
      const monitorId = await createMonitor(t, user, {
        ...phoneSettings(number, { sms: true }),
        intervalSeconds: 300,
      });
      phone().addFault({ resource: 'Messages', status: 500 });
      const incidentId = await openIncident(user, monitorId);
      await pollDelivery(incidentId, 'sms').toBe('delivered');
      expect(phone().messages({ to: number })).toHaveLength(1);
      const delivery = (await deliveryOf(incidentId, 'sms'))!;
      const tries = await triesOf(delivery.id);
      expect(tries.map((a) => a.outcome)).toEqual(['retry', 'sent']);
      expect(tries[0]!.error).toMatch(/Twilio refused \(500, error 20500\)/);
      expect((await usageThisMonth(user)).sms).toBe(1);
    });

    it('stops texting a number that replied STOP, says why, and emails instead; START resumes', async () => {
      const { user, number } = await verifiedUser();
      const monitorId = await createMonitor(t, user, {
        ...phoneSettings(number, { sms: true }),
        emailSettings: { checked: false, name: '', isAgree: false, email: '' },
        intervalSeconds: 300,
      });
      const confirmation = await phone().reply(number, ' Stop ');
      expect(confirmation.direction).toBe('inbound');
      // Twilio confirms the STOP itself, once; Vigil's webhook adds no second reply.
      await expect
        .poll(() =>
          phone()
            .messages({ to: number })
            .filter((m) => m.direction === 'outbound-reply'),
        )
        .toHaveLength(1);

      const incidentId = await openIncident(user, monitorId);
      await pollDelivery(incidentId, 'sms').toBe('skipped');
      const stoppedOn = (await store.phone.optedOut([number])).get(number)!.toISOString().slice(0, 10);
      expect((await deliveryOf(incidentId, 'sms'))!.lastError).toBe(
        `This number replied STOP on ${stoppedOn}: no texts go to it until it replies START to ${TEST_FROM_NUMBER}.`,
      );
      const fallback = (await deliveryOf(incidentId, 'email'))!;
      expect(fallback).toMatchObject({ recipient: user.email, fallbackFor: 'sms' });
      await pollDelivery(incidentId, 'email').toBe('sent');
      expect(
        phone()
          .messages({ to: number })
          .filter((m) => m.direction === 'outbound-api'),
      ).toHaveLength(0);

      const status = await call(t.app, 'GET', `/monitor-bff/monitor/contact-status?monitorId=${monitorId}`, {
        token: user.token,
      });
      expect(status.body.data.list).toEqual([
        expect.objectContaining({ channel: 'sms', address: number, state: 'opted_out' }),
      ]);

      await phone().reply(number, 'START');
      await expect.poll(async () => (await store.phone.optedOut([number])).has(number)).toBe(false);
      await t.database.db.update(incidents).set({ state: 'resolved' }).where(eq(incidents.id, incidentId));
      const next = await openIncident(user, monitorId);
      await pollDelivery(next, 'sms').toBe('delivered');
    });

    it('falls back to email when the month’s SMS are used up, and warns the account once', async () => {
      const { user, number } = await verifiedUser('Starter');
      const monitorId = await createMonitor(t, user, {
        ...phoneSettings(number, { sms: true }),
        intervalSeconds: 300,
      });
      await t.database.db
        .insert(phoneUsage)
        .values({ userId: user.userId, month: monthOf(t.clock.now()), channel: 'sms', used: 100 });
      const first = await openIncident(user, monitorId);
      await pollDelivery(first, 'sms').toBe('skipped');
      expect((await deliveryOf(first, 'sms'))!.lastError).toBe(
        'This month’s 100 SMS of the Starter plan are used up, so this alert went by email.',
      );
      await pollDelivery(first, 'email').toBe('sent');
      await t.database.db.update(incidents).set({ state: 'resolved' }).where(eq(incidents.id, first));
      const second = await openIncident(user, monitorId);
      await pollDelivery(second, 'email').toBe('sent');
      const warnings = t.sandbox.mailbox
        .list({ to: user.email })
        .filter((m) => m.to.includes(user.email) && m.subject === '[Vigil] This month’s SMS are used up');
      expect(warnings).toHaveLength(1);
      const contacts = await call(
        t.app,
        'GET',
        `/monitor-bff/monitor/contact-status?monitorId=${monitorId}`,
        {
          token: user.token,
        },
      );
      expect(contacts.body.data).toMatchObject({
        list: [
          { channel: 'sms', address: number, state: 'quota_exhausted' },
          { channel: 'email', address: user.email, state: 'ok' },
        ],
        usage: { sms: { used: 100, limit: 100 }, calls: { used: 0, limit: 0 } },
      });
    });
  });

  describe('alerts by call', () => {
    it('rings in the monitor’s language; pressing 1 acknowledges and the reminders stop', async () => {
      const { user, number } = await verifiedUser();
      const monitorId = await createMonitor(t, user, {
        ...phoneSettings(number, { call: true }),
        languageCode: 'de-DE',
        intervalSeconds: 300,
      });
      const incidentId = await openIncident(user, monitorId);
      const ringing = await phone().waitForCall((c) => c.to === number && c.status === 'ringing');
      await pollDelivery(incidentId, 'call').toBe('sent');
      const answered = await phone().answer(ringing.sid);
      expect(answered.gathering).toBe(true);
      expect(answered.spoken[0]).toMatchObject({
        text: 'Vigil-Alarm. Storefront hat ein Problem: HTTP 503 from shop.example.',
        language: 'de-DE',
      });
      expect(answered.spoken[1]!.text).toBe(
        'Drücken Sie die 1, um diesen Alarm zu bestätigen und die Erinnerungen zu beenden.',
      );
      await pollDelivery(incidentId, 'call').toBe('delivered');
      const pressed = await phone().press(ringing.sid, '1');
      expect(pressed.spoken.at(-1)!.text).toBe('Danke. Der Alarm ist bestätigt. Auf Wiederhören.');
      await pollDelivery(incidentId, 'call').toBe('acknowledged');
      await expect.poll(() => phone().call(ringing.sid)!.status).toBe('completed');
      const [incident] = await t.database.db.select().from(incidents).where(eq(incidents.id, incidentId));
      expect(incident).toMatchObject({ state: 'acknowledged', nextAlertAt: null });
      expect(phone().calls({ to: number })).toHaveLength(1);
    });

    it('calls again after a pause when nobody answers, then texts instead', async () => {
      const { user, number } = await verifiedUser();
      const monitorId = await createMonitor(t, user, {
        ...phoneSettings(number, { call: true }),
        intervalSeconds: 300,
      });
      const incidentId = await openIncident(user, monitorId);
      const first = await phone().waitForCall((c) => c.to === number && c.status === 'ringing');
      await pollDelivery(incidentId, 'call').toBe('sent');
      await phone().leaveUnanswered(first.sid);
      await pollDelivery(incidentId, 'call').toBe('pending');
      expect((await deliveryOf(incidentId, 'call'))!.lastError).toBe(
        'Nobody answered (call 1 of 2); calling again in 1 min.',
      );
      const second = await phone().waitForCall(
        (c) => c.to === number && c.status === 'ringing' && c.sid !== first.sid,
      );
      await pollDelivery(incidentId, 'call').toBe('sent');
      await phone().busy(second.sid);
      await pollDelivery(incidentId, 'call').toBe('unanswered');
      expect((await deliveryOf(incidentId, 'call'))!.lastError).toBe(
        'The line was busy: 2 calls went unanswered, so an SMS goes instead.',
      );
      await pollDelivery(incidentId, 'sms').toBe('delivered');
      expect((await deliveryOf(incidentId, 'sms'))!.fallbackFor).toBe('call');
      expect(phone().calls({ to: number })).toHaveLength(2);
      const alerts = await call(t.app, 'GET', `/monitor-bff/monitor/alerts?monitorId=${monitorId}`, {
        token: user.token,
      });
      expect(alerts.body.data.list[0].deliveries).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ channel: 'call', status: 'unanswered', attempts: 2, fallbackFor: null }),
          expect.objectContaining({ channel: 'sms', status: 'delivered', fallbackFor: 'call' }),
        ]),
      );
    });

    it('ignores an earlier call’s callback while the next call is placed, and keeps the next one’s', async () => {
      const { user, number } = await verifiedUser();
      const monitorId = await createMonitor(t, user, {
        ...phoneSettings(number, { call: true }),
        intervalSeconds: 300,
      });
      const { incidentId, deliveryId, recordSend } = await sending(user, monitorId, 'call');
      await recordSend('CA-first');
      const now = t.clock.now();
      expect(
        await store.phone.markNotReached(deliveryId, 'CA-first', 'pending', 'Nobody answered', now),
      ).toBe(true);
      await store.alerting.startAttempt(deliveryId, now, addMs(now, 20_000));
      // Call 1's callback again, while call 2 is being placed: it is not call 2's.
      expect(await store.phone.markNotReached(deliveryId, 'CA-first', 'unanswered', 'Busy', now)).toBe(false);
      expect(await store.phone.markDelivered(deliveryId, 'CA-first', now)).toBe(false);
      expect((await deliveryOf(incidentId, 'call'))!.status).toBe('sending');
      // Call 2's receipt, before its job has recorded it: kept, and counted as the second call placed.
      expect(await store.phone.providerTries(deliveryId, 'CA-second')).toBe(2);
      expect(await store.phone.markDelivered(deliveryId, 'CA-second', now)).toBe(true);
      expect(await deliveryOf(incidentId, 'call')).toMatchObject({
        status: 'delivered',
        providerMessageId: 'CA-second',
      });
      expect(await store.phone.providerTries(deliveryId)).toBe(2);
    });

    it('falls back from call to SMS to email when the plan no longer has them', async () => {
      const { user, number } = await verifiedUser('Pro');
      const monitorId = await createMonitor(t, user, {
        ...phoneSettings(number, { call: true }),
        emailSettings: { checked: false, name: '', isAgree: false, email: '' },
        intervalSeconds: 300,
      });
      // The plan ran out after the monitor was saved: the Free period that follows has neither calls nor SMS, so
      // email it is.
      const ended = Math.floor(t.clock.now().getTime() / 1000) - 60;
      await store.users.update(user.userId, { plan: 'Pro', planExpiresAt: ended }, t.clock.now());
      const incidentId = await openIncident(user, monitorId);
      await pollDelivery(incidentId, 'call').toBe('skipped');
      expect((await deliveryOf(incidentId, 'call'))!.lastError).toBe(
        'The Free plan has no call alerts, so this alert went by email.',
      );
      await pollDelivery(incidentId, 'sms').toBe('skipped');
      await pollDelivery(incidentId, 'email').toBe('sent');
      expect((await deliveryOf(incidentId, 'email'))!.fallbackFor).toBe('call');
      expect(phone().calls({ to: number })).toHaveLength(0);
    });
  });

  describe('Twilio’s webhooks', () => {
    const post = (path: string, params: Record<string, string>, signature?: string) =>
      t.app.inject({
        method: 'POST',
        url: path,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(signature ? { 'x-twilio-signature': signature } : {}),
        },
        payload: new URLSearchParams(params).toString(),
      });

    it('refuse unsigned and forged requests, and take signed ones', async () => {
      const { user, number } = await verifiedUser();
      const monitorId = await createMonitor(t, user, {
        ...phoneSettings(number, { call: true }),
        intervalSeconds: 300,
      });
      const incidentId = await openIncident(user, monitorId);
      const ringing = await phone().waitForCall((c) => c.to === number && c.status === 'ringing');
      await pollDelivery(incidentId, 'call').toBe('sent');
      const deliveryId = (await deliveryOf(incidentId, 'call'))!.id;
      const path = `/webhooks/twilio/gather?delivery=${deliveryId}`;
      const params = { CallSid: ringing.sid, AccountSid: SANDBOX_TWILIO.accountSid, Digits: '1' };

      const unsigned = await post(path, params);
      expect(unsigned.statusCode).toBe(403);
      expect(unsigned.json()).toEqual({
        code: 'FORBIDDEN',
        message: 'This request is not signed by Twilio.',
      });
      const forged = await post(path, params, twilioSignature('not-the-token', `${t.url}${path}`, params));
      expect(forged.statusCode).toBe(403);
      const tampered = await post(
        path,
        { ...params, Digits: '2' },
        twilioSignature(SANDBOX_TWILIO.authToken, `${t.url}${path}`, params),
      );
      expect(tampered.statusCode).toBe(403);
      const otherUrl = await post(
        path.replace(deliveryId, '00000000-0000-4000-8000-000000000000'),
        params,
        twilioSignature(SANDBOX_TWILIO.authToken, `${t.url}${path}`, params),
      );
      expect(otherUrl.statusCode).toBe(403);
      const [still] = await t.database.db.select().from(incidents).where(eq(incidents.id, incidentId));
      expect(still!.state).toBe('open');

      const signed = await post(
        path,
        params,
        twilioSignature(SANDBOX_TWILIO.authToken, `${t.url}${path}`, params),
      );
      expect(signed.statusCode).toBe(200);
      expect(signed.headers['content-type']).toContain('text/xml');
      expect(signed.body).toContain('The alert is acknowledged');
      const [acked] = await t.database.db.select().from(incidents).where(eq(incidents.id, incidentId));
      expect(acked!.state).toBe('acknowledged');
    });

    it('ignore a repeated callback and one about another message', async () => {
      const { user, number } = await verifiedUser();
      const monitorId = await createMonitor(t, user, {
        ...phoneSettings(number, { sms: true }),
        intervalSeconds: 300,
      });
      const incidentId = await openIncident(user, monitorId);
      await pollDelivery(incidentId, 'sms').toBe('delivered');
      const delivery = (await deliveryOf(incidentId, 'sms'))!;
      const path = `/webhooks/twilio/message-status?delivery=${delivery.id}`;
      const sign = (params: Record<string, string>) =>
        twilioSignature(SANDBOX_TWILIO.authToken, `${t.url}${path}`, params);
      const repeat = { MessageSid: delivery.providerMessageId!, MessageStatus: 'delivered' };
      expect((await post(path, repeat, sign(repeat))).statusCode).toBe(204);
      const other = {
        MessageSid: 'SM00000000000000000000000000000000',
        MessageStatus: 'undelivered',
        ErrorCode: '30003',
      };
      expect((await post(path, other, sign(other))).statusCode).toBe(204);
      // The SMS is still delivered and nothing fell back to email.
      const after = await deliveriesOf(incidentId);
      expect(after.find((d) => d.channel === 'sms')!.status).toBe('delivered');
      expect(after.filter((d) => d.fallbackFor !== null)).toEqual([]);
      const bad = await post('/webhooks/twilio/message-status?delivery=nope', {}, 'x');
      expect(bad.statusCode).toBe(403);
    });

    const postSigned = (path: string, params: Record<string, string>) =>
      post(path, params, twilioSignature(SANDBOX_TWILIO.authToken, `${t.url}${path}`, params));

    it('keep an undelivered receipt that beats the send’s record, and email instead, once', async () => {
      const { user, number } = await verifiedUser();
      const monitorId = await createMonitor(t, user, {
        ...phoneSettings(number, { sms: true }),
        emailSettings: { checked: false, name: '', isAgree: false, email: '' },
        intervalSeconds: 300,
      });
      const { incidentId, deliveryId, attemptId, recordSend } = await sending(user, monitorId, 'sms');
      const path = `/webhooks/twilio/message-status?delivery=${deliveryId}`;
      const receipt = { MessageSid: 'SM-early', MessageStatus: 'undelivered', ErrorCode: '30003' };
      expect((await postSigned(path, receipt)).statusCode).toBe(204);
      await pollDelivery(incidentId, 'email').toBe('sent');
      await recordSend('SM-early');
      expect(await deliveryOf(incidentId, 'sms')).toMatchObject({
        status: 'failed',
        providerMessageId: 'SM-early',
        lastError:
          'The phone network did not deliver this SMS (Twilio error 30003), so an email goes instead.',
      });
      const [attempt] = await t.database.db
        .select()
        .from(deliveryAttempts)
        .where(eq(deliveryAttempts.id, attemptId));
      expect(attempt).toMatchObject({ outcome: 'sent', providerId: 'SM-early' });
      expect((await postSigned(path, receipt)).statusCode).toBe(204);
      const fallbacks = (await deliveriesOf(incidentId)).filter((d) => d.fallbackFor !== null);
      expect(fallbacks.map((d) => [d.channel, d.fallbackFor])).toEqual([['email', 'sms']]);
    });

    it('keep a no-answer callback that beats the call’s record, and call again after the pause', async () => {
      const { user, number } = await verifiedUser();
      const monitorId = await createMonitor(t, user, {
        ...phoneSettings(number, { call: true }),
        intervalSeconds: 300,
      });
      const { incidentId, deliveryId, recordSend } = await sending(user, monitorId, 'call');
      const path = `/webhooks/twilio/call-status?delivery=${deliveryId}`;
      const noAnswer = { CallSid: 'CA-early', CallStatus: 'no-answer' };
      expect((await postSigned(path, noAnswer)).statusCode).toBe(204);
      await recordSend('CA-early');
      expect(await deliveryOf(incidentId, 'call')).toMatchObject({
        status: 'pending',
        providerMessageId: 'CA-early',
        lastError: 'Nobody answered (call 1 of 2); calling again in 1 min.',
      });
      const second = await phone().waitForCall((c) => c.to === number && c.status === 'ringing');
      await pollDelivery(incidentId, 'call').toBe('sent');
      expect((await postSigned(path, noAnswer)).statusCode).toBe(204);
      expect(await deliveryOf(incidentId, 'call')).toMatchObject({
        status: 'sent',
        providerMessageId: second.sid,
      });
      expect(phone().calls({ to: number })).toHaveLength(1);
    });

    it('count the next call against the month when the first call’s worker stopped after its callback', async () => {
      const { user, number } = await verifiedUser();
      const monitorId = await createMonitor(t, user, {
        ...phoneSettings(number, { call: true }),
        intervalSeconds: 300,
      });
      // `sending` counts nothing against the quota, so what is counted below is the next call alone.
      const { incidentId, deliveryId, attemptId } = await sending(user, monitorId, 'call');
      const path = `/webhooks/twilio/call-status?delivery=${deliveryId}`;
      expect((await postSigned(path, { CallSid: 'CA-stopped', CallStatus: 'no-answer' })).statusCode).toBe(
        204,
      );
      // The worker that placed CA-stopped never records it; the next try takes over its open try.
      const second = await phone().waitForCall((c) => c.to === number && c.status === 'ringing');
      await pollDelivery(incidentId, 'call').toBe('sent');
      expect((await deliveryOf(incidentId, 'call'))!.providerMessageId).toBe(second.sid);
      expect((await usageThisMonth(user)).call).toBe(1);
      const tries = await triesOf(deliveryId);
      expect(tries.map((a) => [a.id === attemptId, a.outcome, a.providerId, a.error])).toEqual([
        [true, 'sent', 'CA-stopped', null],
        [false, 'sent', second.sid, null],
      ]);
    });

    it('take only Twilio’s form posts of text: JSON, even signed, and control characters are a 400', async () => {
      const delivery = '00000000-0000-4000-8000-000000000000';
      const paths = [
        '/webhooks/twilio/inbound-sms',
        `/webhooks/twilio/call-status?delivery=${delivery}`,
        `/webhooks/twilio/message-status?delivery=${delivery}`,
        `/webhooks/twilio/gather?delivery=${delivery}`,
      ];
      for (const path of paths) {
        const json = { From: newNumber(), Body: 123, CallSid: ['CA1'], Digits: { one: 1 } };
        const asSigned = { From: json.From, Body: '123', CallSid: 'CA1', Digits: '[object Object]' };
        const signedJson = await t.app.inject({
          method: 'POST',
          url: path,
          headers: {
            'content-type': 'application/json',
            'x-twilio-signature': twilioSignature(SANDBOX_TWILIO.authToken, `${t.url}${path}`, asSigned),
          },
          payload: JSON.stringify(json),
        });
        expect(signedJson.statusCode, path).toBe(400);
        expect(signedJson.json()).toEqual({
          code: 'INVALID',
          message: 'Twilio webhooks take form posts: send Content-Type: application/x-www-form-urlencoded.',
        });

        const withNul = {
          From: newNumber(),
          Body: 'STOP\u0000',
          CallSid: 'CA\u0000',
          MessageSid: 'SM\u0000',
        };
        const signedNul = await post(
          path,
          withNul,
          twilioSignature(SANDBOX_TWILIO.authToken, `${t.url}${path}`, withNul),
        );
        expect(signedNul.statusCode, path).toBe(400);
        expect(signedNul.json()).toMatchObject({
          code: 'INVALID',
          message: expect.stringMatching(/must not contain control characters/),
        });
      }
    });
  });
});
