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

describe.each(databases)('sign-up, sign-in and sessions on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
  });
  afterAll(async () => {
    await t?.close();
  });

  const login = (body: unknown, address = uniqueAddress()) =>
    call(t.app, 'POST', '/oauth-bff/v1/user/login', { body, address });

  describe('POST /oauth-bff/v1/user/register', () => {
    it('creates a Free account and a session that works at once', async () => {
      const email = uniqueEmail();
      const { status, body } = await call(t.app, 'POST', '/oauth-bff/v1/user/register', {
        body: { email: `  ${email.toUpperCase()} `, password: PASSWORD },
      });
      expect(status).toBe(200);
      expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(body.data.monitor_key).toMatch(/^[A-Za-z0-9_-]{16,}$/);
      const me = await call(t.app, 'GET', '/monitor-bff/user-info', { token: body.data.token });
      expect(me.body).toEqual({
        data: { email, industry: null, telPhone: null, contactEmail: null, plan: 'Free', planExpiresin: '0' },
      });
    });

    it('answers 429 after 20 accounts from one address in an hour, and takes them again after it', async () => {
      const address = uniqueAddress();
      const register = () =>
        call(t.app, 'POST', '/oauth-bff/v1/user/register', {
          body: { email: uniqueEmail(), password: PASSWORD },
          address,
        });
      for (let i = 0; i < 20; i++) expect((await register()).status).toBe(200);
      const limited = await register();
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({
        code: 'RATE_LIMITED',
        message: 'Too many accounts were created from your network. Try again in 60 minutes.',
      });
      expect(limited.response.headers['retry-after']).toBe('3600');
      expect(
        (
          await call(t.app, 'POST', '/oauth-bff/v1/user/register', {
            body: { email: uniqueEmail(), password: PASSWORD },
            address: uniqueAddress(),
          })
        ).status,
      ).toBe(200);
      t.clock.advance(60 * MINUTE_MS);
      expect((await register()).status).toBe(200);
    });

    it('counts an IPv6 network as one address: 20 accounts from one /64, however written', async () => {
      const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
      for (let i = 0; i < 20; i++) {
        const answer = await call(t.app, 'POST', '/oauth-bff/v1/user/register', {
          body: { email: uniqueEmail(), password: PASSWORD },
          address: `${prefix}::${(i + 1).toString(16)}`,
        });
        expect(answer.status).toBe(200);
      }
      const limited = await call(t.app, 'POST', '/oauth-bff/v1/user/register', {
        body: { email: uniqueEmail(), password: PASSWORD },
        address: `${prefix}:0:0:0:ff`,
      });
      expect(limited.status).toBe(429);
    });

    it('gives each account its own monitor_key', async () => {
      const [a, b] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
      expect(a.monitorKey).not.toBe(b.monitorKey);
    });

    it('answers 409 with a way forward when the email already has an account', async () => {
      const user = await registerUser(t.app);
      const { status, body } = await call(t.app, 'POST', '/oauth-bff/v1/user/register', {
        body: { email: user.email.toUpperCase(), password: 'another-pass-9' },
      });
      expect(status).toBe(409);
      expect(body).toEqual({
        code: 'CONFLICT',
        message:
          'An account with this email already exists. Sign in instead, or reset your password if you forgot it.',
      });
    });

    it('refuses a weak password, listing each rule it breaks', async () => {
      const { status, body } = await call(t.app, 'POST', '/oauth-bff/v1/user/register', {
        body: { email: uniqueEmail(), password: 'short' },
      });
      expect(status).toBe(400);
      expect(body).toEqual({
        code: 'INVALID',
        message: 'Password: at least 8 characters.',
        details: [
          { path: 'password', message: 'Password: at least 8 characters.' },
          { path: 'password', message: 'Password: at least one number.' },
        ],
      });
    });

    it('refuses missing fields, wrong types and a malformed email with 400 per field', async () => {
      const missing = await call(t.app, 'POST', '/oauth-bff/v1/user/register', { body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe('Enter your email address.');
      expect(missing.body.details.map((d: { path: string }) => d.path)).toEqual(['email', 'password']);

      const wrongType = await call(t.app, 'POST', '/oauth-bff/v1/user/register', {
        body: { email: 42, password: ['x'] },
      });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.code).toBe('INVALID');

      const malformed = await call(t.app, 'POST', '/oauth-bff/v1/user/register', {
        body: { email: 'not-an-email', password: PASSWORD },
      });
      expect(malformed.body).toMatchObject({
        code: 'INVALID',
        message: 'Enter a valid email address, like name@shop.com.',
      });
    });

    it('refuses a request without a body', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/oauth-bff/v1/user/register' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'INVALID',
        message: 'Send the request body as a JSON object.',
      });
    });
  });

  describe('POST /oauth-bff/v1/user/login with email and password', () => {
    it('starts a new session and answers token, monitor_key and a null redirect', async () => {
      const user = await registerUser(t.app);
      const { status, body } = await login({ email: user.email, password: PASSWORD });
      expect(status).toBe(200);
      expect(body.data).toEqual({ token: expect.any(String), monitor_key: user.monitorKey, redirect: null });
      expect(body.data.token).not.toBe(user.token);
      expect((await call(t.app, 'GET', '/monitor-bff/user-info', { token: body.data.token })).status).toBe(
        200,
      );
    });

    it('answers a wrong password and an unknown email alike, with 400 (not 401)', async () => {
      const user = await registerUser(t.app);
      const wrong = await login({ email: user.email, password: 'wrong-pass-1' });
      const unknown = await login({ email: uniqueEmail(), password: 'wrong-pass-1' });
      for (const answer of [wrong, unknown]) {
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ code: 'INVALID', message: 'The email or password is incorrect.' });
      }
    });

    it('asks for email and password, or code and state, when the body is neither', async () => {
      const empty = await login({});
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe(
        'Sign in with your email and password, or through your Google account.',
      );
      const half = await login({ email: uniqueEmail() });
      expect(half.body).toMatchObject({ code: 'INVALID', message: 'Enter your password.' });
      const noState = await login({ code: 'abc' });
      expect(noState.body).toMatchObject({ code: 'INVALID', message: 'state is required.' });
    });

    it('refuses an address after 5 failures at an account, even with the right password, until the window passes', async () => {
      const user = await registerUser(t.app);
      const guesser = uniqueAddress();
      for (let i = 0; i < 5; i++) {
        expect((await login({ email: user.email, password: `wrong-pass-${i}` }, guesser)).status).toBe(400);
      }
      expect((await login({ email: user.email, password: 'wrong-pass-6' }, guesser)).status).toBe(429);
      const locked = await login({ email: user.email, password: PASSWORD }, guesser);
      expect(locked.status).toBe(429);
      expect(locked.body).toEqual({
        code: 'RATE_LIMITED',
        message: 'Too many failed sign-in attempts. Try again in 15 minutes, or reset your password.',
      });
      expect(locked.response.headers['retry-after']).toBe('900');

      t.clock.advance(10 * MINUTE_MS);
      const stillLocked = await login({ email: user.email, password: PASSWORD }, guesser);
      expect(stillLocked.body.message).toContain('in 5 minutes');

      t.clock.advance(5 * MINUTE_MS + 1000);
      expect((await login({ email: user.email, password: PASSWORD }, guesser)).status).toBe(200);
    });

    it('lets the owner sign in from another address while a stranger is locked out of the account', async () => {
      const user = await registerUser(t.app);
      const stranger = uniqueAddress();
      for (let i = 0; i < 6; i++) await login({ email: user.email, password: `wrong-pass-${i}` }, stranger);
      expect((await login({ email: user.email, password: PASSWORD }, stranger)).status).toBe(429);
      expect((await login({ email: user.email, password: PASSWORD }, uniqueAddress())).status).toBe(200);
    });

    it('past 100 attempts at an account in an hour, refuses addresses that already tried it but not a fresh one', async () => {
      const user = await registerUser(t.app);
      const guessers = Array.from({ length: 20 }, () => uniqueAddress());
      const answers = await Promise.all(
        guessers.map(async (address) => {
          const statuses = [];
          for (let i = 0; i < 5; i++) {
            statuses.push((await login({ email: user.email, password: 'wrong-pass-1' }, address)).status);
          }
          return statuses;
        }),
      );
      expect(answers.flat().every((status) => status === 400)).toBe(true);
      // guessers[0] has 5 failures, its own limit; one more from an address with a single try:
      const tried = uniqueAddress();
      expect((await login({ email: user.email, password: 'wrong-pass-1' }, tried)).status).toBe(400);
      const refused = await login({ email: user.email, password: PASSWORD }, tried);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toContain('in 60 minutes');
      expect((await login({ email: user.email, password: PASSWORD }, uniqueAddress())).status).toBe(200);
    });

    it('lets the account sign in from the start again after a success resets its count', async () => {
      const user = await registerUser(t.app);
      const address = uniqueAddress();
      for (let i = 0; i < 4; i++) await login({ email: user.email, password: 'wrong-pass-1' }, address);
      expect((await login({ email: user.email, password: PASSWORD }, address)).status).toBe(200);
      for (let i = 0; i < 5; i++) {
        expect((await login({ email: user.email, password: 'wrong-pass-1' }, address)).status).toBe(400);
      }
    });

    it('answers 429 after 20 failures from one address, and a success in between does not reset it', async () => {
      const address = uniqueAddress();
      const own = await registerUser(t.app);
      for (let i = 0; i < 20; i++) {
        expect((await login({ email: uniqueEmail(), password: 'wrong-pass-1' }, address)).status).toBe(400);
        if (i === 10)
          expect((await login({ email: own.email, password: PASSWORD }, address)).status).toBe(200);
      }
      const limited = await login({ email: own.email, password: PASSWORD }, address);
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('RATE_LIMITED');
      expect((await login({ email: own.email, password: PASSWORD }, uniqueAddress())).status).toBe(200);
    });
  });

  describe('authentication of private routes', () => {
    it('accepts the raw token and the Bearer form', async () => {
      const user = await registerUser(t.app);
      for (const authorization of [user.token, `Bearer ${user.token}`, `bearer  ${user.token}`]) {
        const response = await t.app.inject({
          method: 'GET',
          url: '/monitor-bff/user-info',
          headers: { authorization },
        });
        expect(response.statusCode, authorization).toBe(200);
      }
    });

    it('answers 401 "Your session has ended" without a token, with an unknown one, or a malformed one', async () => {
      const user = await registerUser(t.app);
      for (const authorization of [
        undefined,
        '',
        'Bearer',
        `${user.token}x`,
        'Bearer abc',
        'x'.repeat(5000),
      ]) {
        const response = await t.app.inject({
          method: 'GET',
          url: '/monitor-bff/user-info',
          headers: authorization === undefined ? {} : { authorization },
        });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({
          code: 'UNAUTHORIZED',
          message: 'Your session has ended. Sign in again.',
        });
      }
    });

    it('ends a session 30 days after its last use, and keeps one that is used', async () => {
      const idle = await registerUser(t.app);
      const active = await registerUser(t.app);
      for (let day = 0; day < 4; day++) {
        t.clock.advance(10 * 24 * 60 * MINUTE_MS);
        expect((await call(t.app, 'GET', '/monitor-bff/user-info', { token: active.token })).status).toBe(
          200,
        );
      }
      expect((await call(t.app, 'GET', '/monitor-bff/user-info', { token: idle.token })).status).toBe(401);
    });
  });

  describe('POST /monitor-bff/v1/user/logout', () => {
    it('ends this session only, also when the client sends an empty JSON body', async () => {
      const user = await registerUser(t.app);
      const other = (await login({ email: user.email, password: PASSWORD })).body.data.token as string;
      const response = await t.app.inject({
        method: 'POST',
        url: '/monitor-bff/v1/user/logout',
        headers: { authorization: user.token, 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: null });
      expect((await call(t.app, 'GET', '/monitor-bff/user-info', { token: user.token })).status).toBe(401);
      expect((await call(t.app, 'GET', '/monitor-bff/user-info', { token: other })).status).toBe(200);
      expect((await call(t.app, 'POST', '/monitor-bff/v1/user/logout', { token: user.token })).status).toBe(
        401,
      );
    });

    it('answers 401 without a session', async () => {
      expect((await call(t.app, 'POST', '/monitor-bff/v1/user/logout')).status).toBe(401);
    });
  });

  describe('PUT /monitor-bff/v1/user/change-password', () => {
    const change = (token: string | undefined, body: unknown) =>
      call(t.app, 'PUT', '/monitor-bff/v1/user/change-password', { token, body });

    it('changes the password, keeps this session and ends every other one', async () => {
      const user = await registerUser(t.app);
      const other = (await login({ email: user.email, password: PASSWORD })).body.data.token as string;
      // Used first, so that this process holds the session when it ends.
      expect((await call(t.app, 'GET', '/monitor-bff/user-info', { token: other })).status).toBe(200);
      const { status, body } = await change(user.token, {
        oldPassword: PASSWORD,
        newPassword: 'new-secret-42',
      });
      expect(status).toBe(200);
      expect(body).toEqual({ data: { message: 'Your password is changed. Other devices were signed out.' } });
      expect((await call(t.app, 'GET', '/monitor-bff/user-info', { token: user.token })).status).toBe(200);
      expect((await call(t.app, 'GET', '/monitor-bff/user-info', { token: other })).status).toBe(401);
      expect((await login({ email: user.email, password: PASSWORD })).status).toBe(400);
      expect((await login({ email: user.email, password: 'new-secret-42' })).status).toBe(200);
    });

    it('answers 400 for a wrong current password and changes nothing', async () => {
      const user = await registerUser(t.app);
      const { status, body } = await change(user.token, {
        oldPassword: 'not-it-123',
        newPassword: 'new-secret-42',
      });
      expect(status).toBe(400);
      expect(body).toEqual({ code: 'INVALID', message: 'Your current password is not right.' });
      expect((await login({ email: user.email, password: PASSWORD })).status).toBe(200);
    });

    it('limits wrong current passwords like failed sign-ins', async () => {
      const user = await registerUser(t.app);
      for (let i = 0; i < 5; i++)
        await change(user.token, { oldPassword: 'not-it-123', newPassword: 'new-secret-42' });
      const limited = await change(user.token, { oldPassword: PASSWORD, newPassword: 'new-secret-42' });
      expect(limited.status).toBe(429);
    });

    it('refuses a weak new password, the same password, and a missing session', async () => {
      const user = await registerUser(t.app);
      const weak = await change(user.token, { oldPassword: PASSWORD, newPassword: 'abcdefgh' });
      expect(weak.body).toMatchObject({ code: 'INVALID', message: 'Password: at least one number.' });
      const same = await change(user.token, { oldPassword: PASSWORD, newPassword: PASSWORD });
      expect(same.body).toMatchObject({
        code: 'INVALID',
        message: 'Choose a new password that differs from your current one.',
      });
      expect((await change(undefined, { oldPassword: PASSWORD, newPassword: 'new-secret-42' })).status).toBe(
        401,
      );
    });
  });
});

describe.each(databases)('behind one proxy (TRUST_PROXY=on) on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(testDatabase, { trustProxy: 1 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts the address the proxy appended, whatever a client writes before it in X-Forwarded-For', async () => {
    const client = uniqueAddress();
    const register = (written: string) =>
      call(t.app, 'POST', '/oauth-bff/v1/user/register', {
        body: { email: uniqueEmail(), password: PASSWORD },
        headers: { 'x-forwarded-for': `${written}, ${client}` },
      });
    for (let i = 0; i < 20; i++) expect((await register(`9.9.9.${i}`)).status).toBe(200);
    expect((await register('9.9.9.99')).status).toBe(429);
  });
});
