import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';

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
 * Security headers on every answer (the app, /docs, the API, errors and 404s), set by @fastify/helmet in
 * an onRequest hook so they are there whatever the route does later. HSTS only where the public URL is
 * https: over plain http a browser ignores it, and a local run must not pin localhost to https.
 * API answers carry sessions and personal data, so nothing is cached unless a route chose otherwise
 * (the web app's files set their own Cache-Control).
 */
export async function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): Promise<void> {
  const https = publicUrl.startsWith('https:');
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { ...APP_DIRECTIVES, ...(https ? { 'upgrade-insecure-requests': [] } : {}) },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: https ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: false } : false,
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
