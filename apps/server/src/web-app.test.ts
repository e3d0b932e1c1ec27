import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from './lib/error-handler.ts';
import { registerSecurityHeaders } from './lib/security-headers.ts';
import { registerWebApp } from './web-app.ts';

// A built web app as the web build leaves it (apps/web/precompress.ts): each text file with a .br and a .gz
// beside it, except where a copy would not be smaller (the favicon here).
const INDEX = `<!doctype html><html lang="en"><head><title>Vigil</title></head><body>${'<div id="root"></div>'.repeat(40)}</body></html>`;
const SCRIPT = `console.log(${JSON.stringify('vigil '.repeat(500))});`;
const ICON = '<svg/>';

describe('the web app under /app, precompressed', () => {
  let webDist: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    webDist = await mkdtemp(join(tmpdir(), 'vigil-web-'));
    await mkdir(join(webDist, 'assets'));
    const files = { 'index.html': INDEX, 'assets/index-abc123.js': SCRIPT };
    for (const [path, text] of Object.entries(files)) {
      await writeFile(join(webDist, path), text);
      await writeFile(join(webDist, `${path}.br`), brotliCompressSync(text));
      await writeFile(join(webDist, `${path}.gz`), gzipSync(text));
    }
    await writeFile(join(webDist, 'favicon.svg'), ICON);
    app = Fastify();
    registerErrorHandling(app);
    registerSecurityHeaders(app, 'http://127.0.0.1:3000');
    await registerWebApp(app, webDist);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await rm(webDist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends brotli to a browser that accepts it, with a long cache for hashed assets', async () => {
    const response = await get('/app/assets/index-abc123.js', 'gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends gzip when only gzip is accepted', async () => {
    const response = await get('/app/assets/index-abc123.js', 'gzip');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the file itself without Accept-Encoding, or when nothing offered is accepted', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'zstd']) {
      const response = await get('/app/assets/index-abc123.js', acceptEncoding);
      expect(response.statusCode, acceptEncoding).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(response.headers.vary, acceptEncoding).toMatch(/accept-encoding/i);
      expect(response.body).toBe(SCRIPT);
    }
  });

  it('sends the file itself when the build wrote no smaller copy', async () => {
    const response = await get('/app/favicon.svg', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-type']).toContain('image/svg+xml');
    expect(response.body).toBe(ICON);
  });

  it('compresses index.html at /app/ and for deep links, which stay uncached and hardened', async () => {
    for (const url of [
      '/app/',
      '/app/index.html',
      '/app/monitor',
      '/app/monitor?monitorId=3',
      '/app/login',
    ]) {
      const br = await get(url, 'br, gzip');
      expect(br.statusCode, url).toBe(200);
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers['content-type'], url).toContain('text/html');
      expect(br.headers['cache-control'], url).toBe('no-cache');
      expect(br.headers.vary, url).toMatch(/accept-encoding/i);
      expect(String(br.headers['content-security-policy']), url).toContain("script-src 'self';");
      expect(brotliDecompressSync(br.rawPayload).toString(), url).toBe(INDEX);

      const gzip = await get(url, 'gzip');
      expect(gzip.headers['content-encoding'], url).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString(), url).toBe(INDEX);

      const plain = await get(url);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.body, url).toBe(INDEX);
    }
  });

  it('still answers a missing asset with 404 whatever the browser accepts', async () => {
    const response = await get('/app/assets/gone-123.js', 'br, gzip');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('the prerendered login page', () => {
  const LOGIN =
    '<!doctype html><html lang="en"><body><div id="root" data-prerendered="login"><form></form></div></body></html>';
  let webDist: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    webDist = await mkdtemp(join(tmpdir(), 'vigil-web-'));
    for (const [path, text] of Object.entries({ 'index.html': INDEX, 'login.html': LOGIN })) {
      await writeFile(join(webDist, path), text);
      await writeFile(join(webDist, `${path}.br`), brotliCompressSync(text));
    }
    app = Fastify();
    registerErrorHandling(app);
    registerSecurityHeaders(app, 'http://127.0.0.1:3000');
    await registerWebApp(app, webDist);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await rm(webDist, { recursive: true, force: true });
  });

  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br', ...(cookie ? { cookie } : {}) } });
  const page = (response: Awaited<ReturnType<typeof get>>) =>
    brotliDecompressSync(response.rawPayload).toString();

  it('is what a visitor without a session gets at /app/login, compressed, uncached, varying by cookie', async () => {
    for (const cookie of [undefined, 'monitor_key=abc', 'token=; theme=dark', 'mytoken=abc']) {
      const response = await get('/app/login', cookie);
      expect(response.statusCode, cookie).toBe(200);
      expect(response.headers['content-type'], cookie).toContain('text/html');
      expect(response.headers['content-encoding'], cookie).toBe('br');
      expect(response.headers['cache-control'], cookie).toBe('no-cache');
      expect(String(response.headers.vary), cookie).toMatch(/cookie/i);
      expect(String(response.headers.vary), cookie).toMatch(/accept-encoding/i);
      expect(String(response.headers['content-security-policy']), cookie).toContain("script-src 'self';");
      expect(page(response), cookie).toBe(LOGIN);
    }
  });

  it('is not sent with a session, with a query, or at any other path', async () => {
    for (const [url, cookie] of [
      ['/app/login', 'token=abc'],
      ['/app/login', 'theme=dark; token=abc; monitor_key=def'],
      ['/app/login?reset=1&email=owner%40shop.com', undefined],
      ['/app/login?redirect=%2Fapp%2Falerts', undefined],
      ['/app/register', undefined],
      ['/app/monitor', undefined],
    ] as const) {
      const response = await get(url, cookie);
      expect(response.statusCode, url).toBe(200);
      expect(page(response), `${url} ${cookie}`).toBe(INDEX);
    }
  });
});
