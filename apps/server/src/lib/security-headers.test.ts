import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { databases } from '../test/databases.ts';
import { call, registerUser, startTestApp, uniqueAddress, type TestApp } from '../test/test-app.ts';

describe.each(databases)('security headers on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(testDatabase);
  });
  afterAll(async () => {
    await t?.close();
  });

  const expectHardened = (headers: Record<string, unknown>) => {
    const csp = String(headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('no-referrer');
    // And the rest of helmet's defaults.
    expect(headers).toMatchObject({
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    });
    // The test app's public URL is http://127.0.0.1: no HSTS there.
    expect(headers['strict-transport-security']).toBeUndefined();
  };

  it('hardens the web app, its assets and Swagger UI', async () => {
    for (const url of [
      '/app/',
      '/app/monitor',
      '/app/assets/index-abc123.js',
      '/docs',
      '/docs/static/index.html',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBeLessThan(400);
      expectHardened(response.headers);
    }
    // The web app's files keep their own caching; only API answers default to no-store.
    const asset = await t.app.inject({ method: 'GET', url: '/app/assets/index-abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('hardens API answers and errors, and never lets answers with sessions or personal data be stored', async () => {
    const register = await call(t.app, 'POST', '/oauth-bff/v1/user/register', {
      body: { email: 'headers@shop.example', password: 'correct-horse-7' },
      address: uniqueAddress(),
    });
    const login = await call(t.app, 'POST', '/oauth-bff/v1/user/login', {
      body: { email: 'headers@shop.example', password: 'correct-horse-7' },
      address: uniqueAddress(),
    });
    const user = await registerUser(t.app);
    const me = await call(t.app, 'GET', '/monitor-bff/user-info', { token: user.token });
    const notFound = await call(t.app, 'GET', '/no-such-route');
    const invalid = await call(t.app, 'POST', '/oauth-bff/v1/user/login', { body: {} });
    for (const [answer, status] of [
      [register, 200],
      [login, 200],
      [me, 200],
      [notFound, 404],
      [invalid, 400],
    ] as const) {
      expect(answer.status).toBe(status);
      expectHardened(answer.response.headers);
      expect(answer.response.headers['cache-control']).toBe('no-store');
    }
  });

  it('gives the sandbox pages their looser policy, still unframeable', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/sandbox/' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
  });

  it('sends HSTS and upgrades insecure requests only where the public URL is https', async () => {
    const https = await buildApp({
      ...t.deps,
      config: { ...t.deps.config, publicUrl: 'https://vigil.example' },
      sandbox: undefined,
      logger: false,
    });
    const response = await https.inject({ method: 'GET', url: '/healthz' });
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(String(response.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    await https.close();
  });
});
