import { verifiedContactResponse, verifiedContactsResponse } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../lib/clock.ts';
import { databases } from '../../test/databases.ts';
import { call, registerUser, startTestApp, uniqueEmail, type TestApp } from '../../test/test-app.ts';
import { signUp, websiteMonitor } from '../monitors/monitor-test-helpers.ts';
import { createRateLimitRepository } from '../rate-limits/rate-limit.repository.ts';
import { CONTACT_CODE_EMAIL_SUBJECT } from './contact-code-email.ts';
import { CONTACT_CODE_LIMITS } from './contact.service.ts';

describe.each(databases)('alert contact verification on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
  });
  afterAll(async () => {
    await t?.close();
  });

  const sendCode = (token: string | undefined, body: unknown) =>
    call(t.app, 'POST', '/monitor-bff/monitor/send-code', { token, body });
  const verifyCode = (token: string | undefined, body: unknown) =>
    call(t.app, 'POST', '/monitor-bff/monitor/verify-code', { token, body });

  /** The newest code the sandbox SMTP server received for `email`. */
  async function codeFor(email: string, after = 0): Promise<string> {
    const mail = await t.sandbox.mailbox.waitFor(
      (m) =>
        m.to.includes(email) && m.subject === CONTACT_CODE_EMAIL_SUBJECT && Date.parse(m.receivedAt) >= after,
      10_000,
    );
    const code = /verification code is (\d{6})/.exec(mail.text)?.[1];
    if (!code) throw new Error(`no code in ${mail.text}`);
    return code;
  }
  const wrongCode = (code: string) => (code === '000000' ? '000001' : '000000');

  it('emails a code; entering it verifies the address, which alerts may then use', async () => {
    const user = await registerUser(t.app);
    const address = uniqueEmail('alerts');
    const sent = await sendCode(user.token, { channel: 'email', email: address.toUpperCase() });
    expect(sent.status).toBe(200);
    expect(verifiedContactResponse.parse(sent.body)).toEqual(sent.body);
    expect(sent.body.data).toEqual({
      channel: 'email',
      address,
      verified: false,
      message: `A 6-digit code is on its way to ${address}. It works for 15 minutes.`,
    });
    const code = await codeFor(address);

    const refused = await call(t.app, 'POST', '/monitor-bff/monitor', {
      token: user.token,
      body: websiteMonitor(address),
    });
    expect(refused.body.message).toBe(`Verify ${address} first: send a code and enter it.`);

    const wrong = await verifyCode(user.token, { channel: 'email', email: address, code: wrongCode(code) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('That code is not right. Check the email and try again (4 tries left).');
    const verified = await verifyCode(user.token, { channel: 'email', email: address, code });
    expect(verified.status).toBe(200);
    expect(verified.body.data).toEqual({
      channel: 'email',
      address,
      verified: true,
      message: `${address} is verified: alerts can go to it.`,
    });

    const list = await call(t.app, 'GET', '/monitor-bff/monitor/verified-contacts', { token: user.token });
    expect(verifiedContactsResponse.parse(list.body)).toEqual(list.body);
    expect(list.body.data.list).toEqual([
      { channel: 'email', address, verifiedAt: t.clock.now().toISOString() },
    ]);
    const created = await call(t.app, 'POST', '/monitor-bff/monitor', {
      token: user.token,
      body: websiteMonitor(address),
    });
    expect(created.status).toBe(200);

    // Verified already: no new email, and the answer says so.
    t.sandbox.mailbox.clear();
    const again = await sendCode(user.token, { channel: 'email', email: address });
    expect(again.body.data).toMatchObject({ verified: true, message: `${address} is already verified.` });
    expect(t.sandbox.mailbox.list({ to: address })).toEqual([]);
  });

  it("keeps each user's verifications apart", async () => {
    const [a, b] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    const address = uniqueEmail('shared');
    await sendCode(a.token, { channel: 'email', email: address });
    const code = await codeFor(address);
    const other = await verifyCode(b.token, { channel: 'email', email: address, code });
    expect(other.body).toEqual({
      code: 'INVALID',
      message: `No code is waiting for ${address}. Send a code first.`,
    });
    expect((await verifyCode(a.token, { channel: 'email', email: address, code })).status).toBe(200);
    const listOfB = await call(t.app, 'GET', '/monitor-bff/monitor/verified-contacts', { token: b.token });
    expect(listOfB.body.data.list).toEqual([]);
  });

  it('refuses a code after 15 minutes, and a code replaced by a newer one', async () => {
    const user = await registerUser(t.app);
    const address = uniqueEmail('late');
    const start = Date.now();
    await sendCode(user.token, { channel: 'email', email: address });
    const first = await codeFor(address, start);
    t.clock.advance(15 * MINUTE_MS);
    const expired = await verifyCode(user.token, { channel: 'email', email: address, code: first });
    expect(expired.body).toEqual({
      code: 'INVALID',
      message: 'This code has expired: codes work for 15 minutes. Send a new code.',
    });
    t.sandbox.mailbox.clear();
    await sendCode(user.token, { channel: 'email', email: address });
    const second = await codeFor(address);
    if (first !== second) {
      expect((await verifyCode(user.token, { channel: 'email', email: address, code: first })).status).toBe(
        400,
      );
    }
    expect((await verifyCode(user.token, { channel: 'email', email: address, code: second })).status).toBe(
      200,
    );
  });

  it('burns the code after 5 wrong tries', async () => {
    const user = await registerUser(t.app);
    const address = uniqueEmail('guess');
    await sendCode(user.token, { channel: 'email', email: address });
    const code = await codeFor(address);
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) {
      messages.push(
        (await verifyCode(user.token, { channel: 'email', email: address, code: wrongCode(code) })).body
          .message,
      );
    }
    expect(messages[3]).toBe('That code is not right. Check the email and try again (1 try left).');
    expect(messages[4]).toBe('That code was wrong too many times and no longer works. Send a new code.');
    const burned = await verifyCode(user.token, { channel: 'email', email: address, code });
    expect(burned.body.message).toBe(`No code is waiting for ${address}. Send a code first.`);
  });

  it('sends at most 5 codes per address and 20 per account an hour', async () => {
    const [a, b] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    const address = uniqueEmail('flood');
    for (let i = 0; i < 3; i++)
      expect((await sendCode(a.token, { channel: 'email', email: address })).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await sendCode(b.token, { channel: 'email', email: address })).status).toBe(200);
    const limited = await sendCode(b.token, { channel: 'email', email: address });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      code: 'RATE_LIMITED',
      message:
        'Several codes were already sent. Use the code in the newest email, or ask again in 60 minutes.',
    });
    expect(limited.response.headers['retry-after']).toBe('3600');

    // Per account: 2 codes sent here, 18 counted straight in the database (sending 20 emails is slow).
    const busy = await signUp(t);
    for (let i = 0; i < 2; i++) {
      expect((await sendCode(busy.token, { channel: 'email', email: uniqueEmail('many') })).status).toBe(200);
    }
    const byAccount = CONTACT_CODE_LIMITS.byAccount(busy.userId);
    const counters = createRateLimitRepository(t.database.db);
    for (let i = 0; i < 18; i++) await counters.hit(byAccount.key, t.clock.now(), byAccount.windowMs);
    expect((await sendCode(busy.token, { channel: 'email', email: uniqueEmail('many') })).status).toBe(429);
    t.clock.advance(60 * MINUTE_MS);
    expect((await sendCode(busy.token, { channel: 'email', email: uniqueEmail('many') })).status).toBe(200);
  });

  it('refuses malformed input with 400 and a missing session with 401', async () => {
    const user = await registerUser(t.app);
    const address = uniqueEmail();
    expect((await sendCode(user.token, { channel: 'sms', email: address })).status).toBe(400);
    expect((await sendCode(user.token, { channel: 'email', email: 'nope' })).body.message).toBe(
      'Enter a valid email address, like name@shop.com.',
    );
    expect((await sendCode(user.token, {})).status).toBe(400);
    expect(
      (await verifyCode(user.token, { channel: 'email', email: address, code: '12ab' })).body.message,
    ).toBe('The code has 6 digits.');
    expect(
      (await verifyCode(user.token, { channel: 'email', email: address, code: '123456' })).body.message,
    ).toBe(`No code is waiting for ${address}. Send a code first.`);
    expect((await sendCode(undefined, { channel: 'email', email: address })).status).toBe(401);
    expect((await verifyCode(undefined, { channel: 'email', email: address, code: '123456' })).status).toBe(
      401,
    );
    expect((await call(t.app, 'GET', '/monitor-bff/monitor/verified-contacts')).status).toBe(401);
  });
});
