import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from './lib/app-error.ts';

// Vite puts content-hashed files under assets/: a new build has new names, so they may be cached for good.
const ASSET_PREFIX = '/app/assets/';

/**
 * The built SPA under /app. A path that is no file gets index.html, so deep links (/app/monitor) load the app
 * and its router; only a missing file under /app/assets/ is a 404, so a stale script tag fails visibly
 * instead of receiving HTML. The build writes a brotli (`.br`) and a gzip (`.gz`) copy beside each text file
 * (apps/web/precompress.ts): the answer is the one the browser accepts, brotli first, with
 * `Vary: Accept-Encoding`, and the file itself when it accepts neither or no copy was worth writing. Nothing
 * is compressed per request.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const toApp = { schema: { hide: true } };
  app.get('/', toApp, (_request, reply) => reply.redirect('/app/', 302));
  app.get('/app', toApp, (_request, reply) => reply.redirect('/app/', 302));

  if (!existsSync(join(webDist, 'index.html'))) {
    const notBuilt = async () => {
      throw new AppError(
        'UNAVAILABLE',
        `The web app is not built: ${webDist} has no index.html. Run \`npm run build\`, then restart the server.`,
      );
    };
    app.get('/app/', toApp, notBuilt);
    app.get('/app/*', toApp, notBuilt);
    return;
  }

  await app.register(
    async (scope) => {
      await scope.register(fastifyStatic, {
        root: webDist,
        prefix: '/',
        index: 'index.html',
        preCompressed: true,
        cacheControl: false,
        schemaHide: true,
        setHeaders: (reply, path) => {
          const hashed = path.startsWith(join(webDist, 'assets'));
          reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
      // The login page as the build rendered it (apps/web/prerender.ts): painted before any script has run.
      // Only for a plain visit without a session: a signed-in visitor moves on from /app/login, and a query
      // (a reset link's email and code, a redirect) changes what the page shows.
      if (existsSync(join(webDist, 'login.html'))) {
        scope.get('/login', toApp, async (request, reply) => {
          const plain = !request.url.includes('?') && !hasSessionCookie(request.headers.cookie);
          return reply
            .header('Cache-Control', 'no-cache')
            .header('Vary', 'Cookie')
            .sendFile(plain ? 'login.html' : 'index.html');
        });
      }
      scope.setNotFoundHandler(async (request, reply) => {
        const path = request.url.split('?')[0] ?? '';
        if ((request.method !== 'GET' && request.method !== 'HEAD') || path.startsWith(ASSET_PREFIX)) {
          throw new AppError('NOT_FOUND', `There is no ${request.method} ${path.slice(0, 200)} here.`);
        }
        return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
      });
    },
    { prefix: '/app' },
  );
}

/** Whether a request's cookies hold the web app's session token (`token`, apps/web/src/lib/session.ts). */
function hasSessionCookie(header: string | undefined): boolean {
  return header !== undefined && /(?:^|;)\s*token=[^;\s]/.test(header);
}
