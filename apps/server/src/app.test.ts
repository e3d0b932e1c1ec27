import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { databases } from './test/databases.ts';
import { call, registerUser, startTestApp, type TestApp } from './test/test-app.ts';

describe.each(databases)('the HTTP app on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /healthz answers ok when the database answers', async () => {
    const { status, body } = await call(t.app, 'GET', '/healthz');
    expect(status).toBe(200);
    expect(body).toEqual({ data: { status: 'ok' } });
  });

  it('GET /healthz answers 503 when the database does not', async () => {
    const down = await buildApp({
      ...t.deps,
      database: {
        ...t.deps.database,
        ping: async () => {
          throw new Error('connection refused');
        },
      },
      sandbox: undefined,
      logger: false,
    });
    const { status, body } = await call(down, 'GET', '/healthz');
    expect(status).toBe(503);
    expect(body).toEqual({ code: 'UNAVAILABLE', message: 'The database is not answering.' });
    await down.close();
  });

  it('answers an unknown route with 404 NOT_FOUND', async () => {
    const { status, body } = await call(t.app, 'GET', '/monitor-bff/nothing-here');
    expect(status).toBe(404);
    expect(body).toEqual({ code: 'NOT_FOUND', message: 'There is no GET /monitor-bff/nothing-here here.' });
  });

  it('answers a URL it cannot parse with 400 INVALID and the strict headers, echoing nothing', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/%' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'INVALID', message: 'The address is not a valid URL.' });
    expect(response.headers).toMatchObject({
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
  });

  it('answers invalid JSON with 400 INVALID', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/oauth-bff/v1/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.co", "password":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'INVALID', message: 'The request body is not valid JSON.' });
  });

  it('reads JSON sent with a charset, and refuses a body that tries prototype poisoning', async () => {
    const withCharset = await t.app.inject({
      method: 'POST',
      url: '/oauth-bff/v1/user/forget-password',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify({ email: 'charset@shop.example' }),
    });
    expect(withCharset.statusCode).toBe(200);
    const poisoned = await t.app.inject({
      method: 'POST',
      url: '/oauth-bff/v1/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@shop.example","password":"x","__proto__":{"admin":true}}',
    });
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json()).toMatchObject({ code: 'INVALID' });
  });

  it('refuses a body that is not JSON with 400 saying to send JSON', async () => {
    for (const [type, payload] of [
      ['text/plain', 'hello'],
      ['application/x-www-form-urlencoded', 'email=a%40b.co&password=x'],
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/oauth-bff/v1/user/login',
        headers: { 'content-type': type! },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'INVALID',
        message: expect.stringMatching(/^Send JSON/),
      });
    }
  });

  it('refuses a body over 64 KiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const { status, body } = await call(t.app, 'POST', '/oauth-bff/v1/user/register', {
      body: { email: 'big@shop.example', password: 'x1'.repeat(40_000) },
    });
    expect(status).toBe(413);
    expect(body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers a JSON body that is not an object with 400 naming the problem', async () => {
    const { status, body } = await call(t.app, 'POST', '/oauth-bff/v1/user/register', {
      body: [1, 2],
      headers: { 'content-type': 'application/json' },
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'INVALID', message: 'Send the request body as a JSON object.' });
  });

  it('never leaks internals in a 500', async () => {
    const { database, wakeups, config } = t.deps;
    const failing = await buildApp({
      config,
      database,
      wakeups,
      queue: {
        send: async () => {
          throw new Error('connect ECONNREFUSED 10.1.2.3:5432 secret-host');
        },
      },
      logger: false,
    });
    const user = await registerUser(t.app);
    const { status, body } = await call(failing, 'POST', '/oauth-bff/v1/user/forget-password', {
      body: { email: user.email },
    });
    expect(status).toBe(500);
    expect(body).toEqual({
      code: 'INTERNAL',
      message: 'Something went wrong on our side. Try again in a moment.',
    });
    await failing.close();
  });

  describe('API documentation', () => {
    it('serves swagger-ui at /docs', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/docs/' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('swagger');
    });

    it('lists every endpoint in the OpenAPI document, and no sandbox route', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/docs/json' });
      const paths = response.json<{ paths: Record<string, Record<string, unknown>> }>().paths;
      const endpoints = Object.entries(paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(endpoints.sort()).toEqual(
        [
          'GET /healthz',
          'POST /oauth-bff/v1/user/register',
          'POST /oauth-bff/v1/user/login',
          'POST /monitor-bff/v1/user/logout',
          'POST /oauth-bff/v1/user/forget-password',
          'POST /oauth-bff/v1/user/verify-password',
          'PUT /monitor-bff/v1/user/change-password',
          'GET /oauth-bff/v1/oidc/authorize',
          'GET /monitor-bff/user-info',
          'PUT /monitor-bff/user-info',
          'POST /monitor-bff/onboarding/user-info',
          'GET /monitor-bff/plans',
          'POST /monitor-bff/v1/user/choose-plan',
          'GET /monitor-bff/plan-order/accounts',
          'POST /monitor-bff/plan-order/create',
          'GET /monitor-bff/plan-order',
          'GET /monitor-bff/subscription',
          'POST /monitor-bff/subscription/portal',
          'GET /monitor-bff/monitor-service',
          'POST /monitor-bff/monitor',
          'PUT /monitor-bff/monitor',
          'GET /monitor-bff/monitor',
          'DELETE /monitor-bff/monitor',
          'GET /monitor-bff/monitor-summary',
          'GET /monitor-bff/monitor-info',
          'GET /monitor-bff/monitor-stats',
          'GET /monitor-bff/monitor-checks',
          'POST /monitor-bff/monitor-pause',
          'POST /monitor-bff/monitor-start',
          'POST /monitor-bff/monitor-check',
          'POST /monitor-bff/monitor/send-code',
          'POST /monitor-bff/monitor/verify-code',
          'GET /monitor-bff/monitor/verified-contacts',
          'GET /monitor-bff/monitor/contact-status',
          'GET /monitor-bff/monitor/alerts',
          'GET /monitor-bff/monitor/alerts/timeline',
          'POST /monitor-bff/monitor/alerts/acknowledge',
          'POST /monitor-bff/monitor/alerts/resolve',
          'GET /monitor-bff/alerts/acknowledge',
          'GET /monitor-bff/monitor/ouathuri',
          'POST /monitor-bff/monitor/bind',
          'GET /monitor-bff/monitor/shopify-products',
          'GET /monitor-bff/monitor/google-customers',
          'GET /monitor-bff/monitor/google-customerads',
          'GET /monitor-bff/monitor/facebook/account',
          'GET /monitor-bff/monitor/facebook/adsets',
          'GET /monitor-bff/connections',
          'DELETE /monitor-bff/connections',
          'GET /shopify/install',
        ].sort(),
      );
    });
  });

  describe('the web app under /app', () => {
    it('redirects / and /app to /app/', async () => {
      for (const url of ['/', '/app']) {
        const response = await t.app.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(302);
        expect(response.headers.location).toBe('/app/');
      }
    });

    it('serves index.html at /app/ and for deep links, never cached', async () => {
      for (const url of ['/app/', '/app/monitor', '/app/monitor_edit?monitorId=3', '/app/payment-success']) {
        const response = await t.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-type']).toContain('text/html');
        expect(response.headers['cache-control']).toBe('no-cache');
        expect(response.body).toContain('<div id="root">');
      }
    });

    it('serves hashed assets with a long cache', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/app/assets/index-abc123.js' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.body).toBe('console.log("vigil")');
    });

    it('answers a missing asset with 404, not the app page', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/app/assets/gone-123.js' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    });

    it('answers 503 saying to build when the web app is not built', async () => {
      const emptyDist = `${t.webDist}-missing`;
      await rm(emptyDist, { recursive: true, force: true });
      const unbuilt = await buildApp({
        ...t.deps,
        config: { ...t.deps.config, webDist: emptyDist },
        sandbox: undefined,
      });
      for (const url of ['/app/', '/app/monitor']) {
        const response = await unbuilt.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({
          code: 'UNAVAILABLE',
          message: expect.stringContaining('npm run build'),
        });
      }
      await unbuilt.close();
    });
  });
});
