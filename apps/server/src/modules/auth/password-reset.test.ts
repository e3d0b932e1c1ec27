import type { Mail } from '@vigil/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../lib/clock.ts';
import { databases } from '../../test/databases.ts';
import {
  call,
  PASSWORD,
  registerUser,
  startTestApp,
  uniqueAddress,
  uniqueEmail,
  type TestApp,
} from '../../test/test-app.ts';
import { RESET_EMAIL_SUBJECT } from './reset-code-email.ts';

describe.each(databases)('password reset by emailed code on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
  });
  afterAll(async () => {
    await t?.close();
  });

  const forget = (email: string, address = uniqueAddress()) =>
    call(t.app, 'POST', '/oauth-bff/v1/user/forget-password', { body: { email }, address });
  const verify = (body: unknown, address = uniqueAddress()) =>
    call(t.app, 'POST', '/oauth-bff/v1/user/verify-password', { body, address });
  const login = (email: string, password: string, address = uniqueAddress()) =>
    call(t.app, 'POST', '/oauth-bff/v1/user/login', { body: { email, password }, address });

  /** The newest reset email the sandbox SMTP server received for `email`, and its code. */
  async function resetMail(email: string, after = 0): Promise<{ mail: Mail; code: string }> {
    const mail = await t.sandbox.mailbox.waitFor(
      (m) => m.to.includes(email) && m.subject === RESET_EMAIL_SUBJECT && Date.parse(m.receivedAt) >= after,
      10_000,
    );
    const code = /reset code is (\d{6})/.exec(mail.text)?.[1];
    if (!code) throw new Error(`no code in ${mail.text}`);
    return { mail, code };
  }

  it('emails a 6-digit code and a link to the login page, and the code sets a new password', async () => {
    const user = await registerUser(t.app);
    const { status, body } = await forget(user.email);
    expect(status).toBe(200);
    expect(body.data.message).toContain('a reset code is on its way');

    const { mail, code } = await resetMail(user.email);
    expect(mail.from).toBe('alerts@vigil.test');
    const link = `${t.url}/app/login?reset=1&email=${encodeURIComponent(user.email)}`;
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(code);
    expect(mail.html).toContain(link.replace(/&/g, '&#38;'));

    const reset = await verify({ email: user.email, code, password: 'brand-new-pass-1' });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({
      data: { message: 'Your password is changed. Sign in with your new password.' },
    });
    expect((await login(user.email, PASSWORD)).status).toBe(400);
    expect((await login(user.email, 'brand-new-pass-1')).status).toBe(200);
  });

  it('ends every session of the account on reset', async () => {
    const user = await registerUser(t.app);
    const second = (await login(user.email, PASSWORD)).body.data.token as string;
    // Used first, so that this process holds both sessions when they end.
    for (const token of [user.token, second]) {
      expect((await call(t.app, 'GET', '/monitor-bff/user-info', { token })).status).toBe(200);
    }
    await forget(user.email);
    const { code } = await resetMail(user.email);
    expect((await verify({ email: user.email, code, password: 'brand-new-pass-1' })).status).toBe(200);
    for (const token of [user.token, second]) {
      expect((await call(t.app, 'GET', '/monitor-bff/user-info', { token })).status).toBe(401);
    }
  });

  it('answers the same for an email without an account, and sends nothing', async () => {
    const email = uniqueEmail('nobody');
    const known = await registerUser(t.app);
    const unknownAnswer = await forget(email);
    const knownAnswer = await forget(known.email);
    expect(unknownAnswer.status).toBe(200);
    expect(unknownAnswer.body.data.message).toBe(knownAnswer.body.data.message.replace(known.email, email));
    await resetMail(known.email);
    expect(t.sandbox.mailbox.list({ to: email })).toEqual([]);
  });

  it('uses a code once', async () => {
    const user = await registerUser(t.app);
    await forget(user.email);
    const { code } = await resetMail(user.email);
    expect((await verify({ email: user.email, code, password: 'brand-new-pass-1' })).status).toBe(200);
    const again = await verify({ email: user.email, code, password: 'brand-new-pass-2' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This code is not valid. Ask for a new code and use the newest email.');
  });

  it('refuses a code after 30 minutes', async () => {
    const user = await registerUser(t.app);
    await forget(user.email);
    const { code } = await resetMail(user.email);
    t.clock.advance(30 * MINUTE_MS);
    const expired = await verify({ email: user.email, code, password: 'brand-new-pass-1' });
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({
      code: 'INVALID',
      message: 'This code has expired: codes work for 30 minutes. Ask for a new code.',
    });
  });

  it('burns the code after 5 wrong tries, telling how many are left', async () => {
    const user = await registerUser(t.app);
    await forget(user.email);
    const { code } = await resetMail(user.email);
    const wrong = code === '000000' ? '000001' : '000000';
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await verify({ email: user.email, code: wrong, password: 'brand-new-pass-1' });
      expect(answer.status).toBe(400);
      messages.push(answer.body.message);
    }
    expect(messages[0]).toBe('That code is not right. Check the email and try again (4 tries left).');
    expect(messages[3]).toBe('That code is not right. Check the email and try again (1 try left).');
    expect(messages[4]).toBe('That code was wrong too many times and no longer works. Ask for a new code.');
    const burned = await verify({ email: user.email, code, password: 'brand-new-pass-1' });
    expect(burned.status).toBe(400);
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });

  it('voids the previous code when a new one is sent', async () => {
    const user = await registerUser(t.app);
    const start = Date.now();
    await forget(user.email);
    const first = await resetMail(user.email, start);
    t.sandbox.mailbox.clear();
    await forget(user.email);
    const second = await resetMail(user.email);
    if (first.code !== second.code) {
      expect(
        (await verify({ email: user.email, code: first.code, password: 'brand-new-pass-1' })).status,
      ).toBe(400);
    }
    expect(
      (await verify({ email: user.email, code: second.code, password: 'brand-new-pass-1' })).status,
    ).toBe(200);
  });

  it('sends at most 3 emails per account an hour, whether or not the account exists', async () => {
    for (const email of [(await registerUser(t.app)).email, uniqueEmail('nobody')]) {
      for (let i = 0; i < 3; i++) expect((await forget(email)).status).toBe(200);
      const limited = await forget(email);
      expect(limited.status).toBe(429);
      expect(limited.body.message).toBe(
        'Several reset emails were already sent. Use the code in the newest one, or ask again in 60 minutes.',
      );
    }
  });

  it('sends at most 10 emails per address an hour', async () => {
    const address = uniqueAddress();
    for (let i = 0; i < 10; i++) expect((await forget(uniqueEmail('nobody'), address)).status).toBe(200);
    expect((await forget(uniqueEmail('nobody'), address)).status).toBe(429);
    t.clock.advance(60 * MINUTE_MS);
    expect((await forget(uniqueEmail('nobody'), address)).status).toBe(200);
  });

  it('lifts the sign-in lock of the address that resets the password', async () => {
    const user = await registerUser(t.app);
    const address = uniqueAddress();
    for (let i = 0; i < 6; i++) await login(user.email, 'wrong-pass-1', address);
    expect((await login(user.email, PASSWORD, address)).status).toBe(429);
    await forget(user.email, address);
    const { code } = await resetMail(user.email);
    expect((await verify({ email: user.email, code, password: 'brand-new-pass-1' }, address)).status).toBe(
      200,
    );
    expect((await login(user.email, 'brand-new-pass-1', address)).status).toBe(200);
  });

  it('refuses malformed input with 400', async () => {
    expect((await forget('not-an-email')).body).toMatchObject({ code: 'INVALID' });
    const badCode = await verify({ email: uniqueEmail(), code: '12ab', password: 'brand-new-pass-1' });
    expect(badCode.body).toMatchObject({ code: 'INVALID', message: 'The code has 6 digits.' });
    const weak = await verify({ email: uniqueEmail(), code: '123456', password: 'weak' });
    expect(weak.body).toMatchObject({ code: 'INVALID', message: 'Password: at least 8 characters.' });
    const unknown = await verify({ email: uniqueEmail(), code: '123456', password: 'brand-new-pass-1' });
    expect(unknown.body).toEqual({
      code: 'INVALID',
      message: 'This code is not valid. Ask for a new code and use the newest email.',
    });
  });
});
