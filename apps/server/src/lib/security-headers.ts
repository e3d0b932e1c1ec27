import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

type Directives = Record<string, string[]>;

/**
 * What the built web app needs: its own scripts only; Mantine injects <style> tags, so inline styles stay;
 * its icons and checkboxes use data: images. Swagger UI at /docs loads the same way (its own files, data:
 * icons), so one policy serves both.
 */
const APP_DIRECTIVES: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * The sandbox stands in for other companies' pages (local runs only): an inline refresh script on the
 * Twilio page, stored emails with remote images, forms that post and redirect like the real providers.
 */
const { 'form-action': _formAction, ...appWithoutFormAction } = APP_DIRECTIVES;
const SANDBOX_DIRECTIVES: Directives = {
  ...appWithoutFormAction,
  'script-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'https:', 'http:'],
};

function serialize(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/**
 * The headers helmet sets for `options`, found once. Helmet's policies here are all fixed (no per-request nonces),
 * so every answer gets the same ones; @fastify/helmet built helmet's middleware anew on each request, parsing
 * the policy each time (3 % of the API process's CPU serving the monitor list).
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader() {},
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Security headers on every answer (the app, /docs, the API, errors and 404s), helmet's, set in an onRequest
 * hook so they are there whatever the route does later. HSTS only where the public URL is https: over plain
 * http a browser ignores it, and a local run must not pin localhost to https.
 * API answers carry sessions and personal data, so nothing is cached unless a route chose otherwise
 * (the web app's files set their own Cache-Control).
 */
export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): void {
  const https = publicUrl.startsWith('https:');
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { ...APP_DIRECTIVES, ...(https ? { 'upgrade-insecure-requests': [] } : {}) },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: https ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: false } : false,
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
  });
}

/** The looser policy of the sandbox's pages, for the scope that registers the sandbox. */
export function useSandboxPolicy(scope: FastifyInstance): void {
  const policy = serialize(SANDBOX_DIRECTIVES);
  scope.addHook('onRequest', async (_request, reply) => {
    reply.header('Content-Security-Policy', policy);
  });
}

/**
 * The headers of an answer Fastify gives before any hook runs (a URL it cannot parse): nothing in it may be
 * scripted, framed, sniffed or cached.
 */
export function setBareSecurityHeaders(reply: FastifyReply): void {
  reply.headers({
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
}
