import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { MINUTE_MS } from '../../lib/clock.ts';
import { databases } from '../../test/databases.ts';
import {
  call,
  OIDC_CLIENT,
  PASSWORD,
  registerUser,
  startTestApp,
  uniqueAddress,
  uniqueEmail,
  type TestApp,
} from '../../test/test-app.ts';

describe.each(databases)(
  '"Sign in with Google" through the sandbox OpenID provider on $name',
  (testDatabase) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(testDatabase);
    });
    afterAll(async () => {
      await t?.close();
    });

    const start = (redirect?: string) =>
      call(
        t.app,
        'GET',
        `/oauth-bff/v1/oidc/authorize${redirect === undefined ? '' : `?redirect=${encodeURIComponent(redirect)}`}`,
      );

    /** What a person does on the provider's page: pick an email and continue; answers the code and state sent back. */
    async function consent(
      authorizeUrl: string,
      email: string,
      verified = true,
    ): Promise<{ code: string; state: string }> {
      const url = new URL(authorizeUrl);
      const form = new URLSearchParams(url.searchParams);
      form.set('email', email);
      form.set('name', 'Test Merchant');
      if (verified) form.set('email_verified', 'true');
      form.set('decision', 'allow');
      const page = await fetch(authorizeUrl);
      expect(page.status).toBe(200);
      const response = await fetch(`${url.origin}${url.pathname}`, {
        method: 'POST',
        body: form,
        redirect: 'manual',
      });
      expect(response.status).toBe(302);
      const back = new URL(response.headers.get('location')!);
      expect(`${back.origin}${back.pathname}`).toBe(`${t.url}/app/oauth`);
      return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
    }

    const finish = (body: { code: string; state: string }, address = uniqueAddress()) =>
      call(t.app, 'POST', '/oauth-bff/v1/user/login', { body, address });

    async function signIn(email: string, options: { verified?: boolean; redirect?: string } = {}) {
      const started = await start(options.redirect);
      expect(started.status).toBe(200);
      return finish(await consent(started.body.data.url, email, options.verified ?? true));
    }

    it('answers the provider URL with code flow, PKCE S256, state, nonce and the /app/oauth return address', async () => {
      const { status, body } = await start();
      expect(status).toBe(200);
      const url = new URL(body.data.url);
      expect(`${url.origin}${url.pathname}`).toBe(`${t.url}/sandbox/oidc/authorize`);
      const params = Object.fromEntries(url.searchParams);
      expect(params).toMatchObject({
        response_type: 'code',
        client_id: OIDC_CLIENT.clientId,
        redirect_uri: `${t.url}/app/oauth`,
        scope: 'openid email profile',
        code_challenge_method: 'S256',
      });
      expect(params.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('creates an account on first sign-in and gives back the redirect it started with', async () => {
      const email = uniqueEmail('google');
      const redirect = encodeURIComponent(JSON.stringify({ auth: 'false', key: 'shop-123' }));
      const { status, body } = await signIn(email, { redirect });
      expect(status).toBe(200);
      expect(body.data).toEqual({ token: expect.any(String), monitor_key: expect.any(String), redirect });
      const me = await call(t.app, 'GET', '/monitor-bff/user-info', { token: body.data.token });
      expect(me.body.data).toMatchObject({ email, plan: 'Free', planExpiresin: '0' });

      const again = await signIn(email);
      expect(again.body.data.monitor_key).toBe(body.data.monitor_key);
      expect(again.body.data.redirect).toBeNull();
    });

    it('links to the existing account with the same verified email, which keeps its password', async () => {
      const user = await registerUser(t.app);
      const { status, body } = await signIn(user.email.toUpperCase());
      expect(status).toBe(200);
      expect(body.data.monitor_key).toBe(user.monitorKey);
      const byPassword = await call(t.app, 'POST', '/oauth-bff/v1/user/login', {
        body: { email: user.email, password: PASSWORD },
        address: uniqueAddress(),
      });
      expect(byPassword.body.data.monitor_key).toBe(user.monitorKey);
    });

    it('refuses an unverified email and creates no account', async () => {
      const email = uniqueEmail('unverified');
      const { status, body } = await signIn(email, { verified: false });
      expect(status).toBe(400);
      expect(body).toEqual({
        code: 'INVALID',
        message:
          'Your Google account’s email address is not verified. Verify it with Google, then sign in again.',
      });
      expect(
        (await call(t.app, 'POST', '/oauth-bff/v1/user/register', { body: { email, password: PASSWORD } }))
          .status,
      ).toBe(200);
    });

    it('refuses a state used before, an unknown one, and one older than 10 minutes', async () => {
      const started = await start();
      const answer = await consent(started.body.data.url, uniqueEmail('google'));
      expect((await finish(answer)).status).toBe(200);
      const reused = await finish(answer);
      expect(reused.status).toBe(400);
      expect(reused.body).toEqual({
        code: 'INVALID',
        message: 'This sign-in link has expired or was already used. Start the sign-in again.',
      });
      expect((await finish({ code: answer.code, state: 'made-up-state' })).status).toBe(400);

      const late = await start();
      const lateAnswer = await consent(late.body.data.url, uniqueEmail('google'));
      t.clock.advance(10 * MINUTE_MS + 1000);
      expect((await finish(lateAnswer)).body.message).toBe(
        'This sign-in link has expired or was already used. Start the sign-in again.',
      );
    });

    it('refuses a code the provider does not know with 400', async () => {
      const started = await start();
      const { state } = await consent(started.body.data.url, uniqueEmail('google'));
      const { status, body } = await finish({ code: 'not-a-real-code', state });
      expect(status).toBe(400);
      expect(body.message).toBe(
        'This Google sign-in has expired or was already used. Start the sign-in again.',
      );
    });

    it('counts failed OpenID sign-ins against the address limit', async () => {
      const address = uniqueAddress();
      for (let i = 0; i < 20; i++) {
        expect((await finish({ code: 'x', state: `bad-${i}` }, address)).status).toBe(400);
      }
      const limited = await finish({ code: 'x', state: 'bad-21' }, address);
      expect(limited.status).toBe(429);
      expect(limited.body.message).toBe(
        'Too many failed sign-in attempts from your network. Try again in 15 minutes.',
      );
    });

    it('refuses an oversized redirect and an empty code with 400', async () => {
      expect((await start('x'.repeat(3000))).body).toMatchObject({
        code: 'INVALID',
        message: 'redirect is too long (at most 2048 characters).',
      });
      expect((await finish({ code: '', state: 'abc' })).body).toMatchObject({ code: 'INVALID' });
    });

    it('tells that password change is not possible for an account without a password', async () => {
      const { body } = await signIn(uniqueEmail('google'));
      const change = await call(t.app, 'PUT', '/monitor-bff/v1/user/change-password', {
        token: body.data.token,
        body: { oldPassword: 'anything-1', newPassword: 'new-secret-42' },
      });
      expect(change.status).toBe(400);
      expect(change.body.message).toContain('signs in with Google and has no password yet');
    });

    it('answers 503 when OpenID is not set up or the provider does not answer', async () => {
      const off = await buildApp({
        ...t.deps,
        config: { ...t.deps.config, oidc: null },
        sandbox: undefined,
        logger: false,
      });
      const notSetUp = await call(off, 'GET', '/oauth-bff/v1/oidc/authorize');
      expect(notSetUp.status).toBe(503);
      expect(notSetUp.body.message).toBe(
        'Sign-in with Google is not set up on this server. Sign in with your email and password.',
      );
      await off.close();

      const down = await buildApp({
        ...t.deps,
        config: { ...t.deps.config, oidc: { issuer: 'http://127.0.0.1:9/oidc', ...OIDC_CLIENT } },
        sandbox: undefined,
        logger: false,
      });
      const unreachable = await call(down, 'GET', '/oauth-bff/v1/oidc/authorize');
      expect(unreachable.status).toBe(503);
      expect(unreachable.body).toEqual({
        code: 'UNAVAILABLE',
        message:
          'Sign-in with Google is not available right now. Try again in a few minutes, or sign in with your email and password.',
      });
      await down.close();
    });
  },
);
