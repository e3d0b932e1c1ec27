import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import {
  bindBody,
  bindResponse,
  connectionIdQuery,
  connectionListQuery,
  connectionListResponse,
  connectionResponse,
  oauthUriQuery,
  oauthUriResponse,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, SESSION_SECURITY } from '../../lib/route-schemas.ts';
import { sessionOf } from '../sessions/authenticate.ts';
import { HELD_TTL_MS, type ConnectionService } from './connection.service.ts';

const tags = ['connections'];
/** Holds the installing browser's secret: a held connection is claimed only from the browser that installed it. */
const HELD_COOKIE = 'vigil_held_connection';
const BIND_PATH = '/monitor-bff/monitor/bind';

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

export const connectionRoutes: FastifyPluginAsyncZod<{
  connections: ConnectionService;
  authenticate: preHandlerAsyncHookHandler;
  /** Fills `request.auth` when a valid session is sent, and leaves it null otherwise. */
  authenticateIfAny: preHandlerAsyncHookHandler;
  secureCookies: boolean;
}> = async (app, { connections, authenticate, authenticateIfAny, secureCookies }) => {
  const guarded = { preHandler: authenticate };

  app.get(
    '/monitor-bff/monitor/ouathuri',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'The provider’s authorize URL to connect a shop (or reconnect a monitor’s shop)',
        description:
          'The `state` in the URL is random, single use, valid 10 minutes and tied to the caller, the monitor (`monitor_id`, to reconnect) and the shop. The shop may be typed as `name`, `name.myshopify.com` or the shop’s own address, resolved through its storefront.',
        security: SESSION_SECURITY,
        querystring: oauthUriQuery,
        response: { 200: oauthUriResponse, ...errorResponses(401, 404, 503) },
      },
    },
    async (request) => ({ data: await connections.authorizeUrl(sessionOf(request), request.query) }),
  );

  app.post(
    BIND_PATH,
    {
      preHandler: authenticateIfAny,
      schema: {
        tags,
        summary:
          'Finish a binding with what the provider sent back, or claim a connection held since an install',
        description:
          'With `params` (every query parameter the provider sent to /app/oauth): Shopify’s `hmac` and `timestamp` (5 minutes) are checked, the `state` is taken once, the code is exchanged and the token kept encrypted. An install started on Shopify’s side (no session needed) is held under a `key` for an hour and claimed with `{key}` by the signed-in person, from the same browser.',
        body: bindBody,
        response: { 200: bindResponse, ...errorResponses(401, 503) },
      },
    },
    async (request, reply) => {
      const outcome = await connections.bind(request.auth, request.body, cookieOf(request, HELD_COOKIE));
      if (outcome.browserSecret) {
        const secure = secureCookies ? '; Secure' : '';
        void reply.header(
          'set-cookie',
          `${HELD_COOKIE}=${outcome.browserSecret}; Path=${BIND_PATH}; Max-Age=${HELD_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure}`,
        );
      }
      return { data: outcome.result };
    },
  );

  app.get(
    '/monitor-bff/connections',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'The caller’s connected accounts (shops), with their status and the monitors using each',
        security: SESSION_SECURITY,
        querystring: connectionListQuery,
        response: { 200: connectionListResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await connections.list(sessionOf(request), request.query.provider) }),
  );

  app.delete(
    '/monitor-bff/connections',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'Disconnect an account: its token is dropped and its monitors report the connection lost',
        security: SESSION_SECURITY,
        querystring: connectionIdQuery,
        response: { 200: connectionResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      data: await connections.disconnect(sessionOf(request), request.query.connectionId),
    }),
  );

  app.get(
    '/shopify/install',
    {
      schema: {
        tags,
        summary: 'Shopify’s app URL: a merchant installing Vigil from Shopify is sent on to approve it',
        description:
          'Checks Shopify’s `hmac` and `timestamp`, then answers 302 to the shop’s authorize page.',
        querystring: z.record(z.string(), z.string()),
        response: { 302: z.null(), ...errorResponses() },
      },
    },
    async (request, reply) => reply.redirect(await connections.installUrl(request.query), 302),
  );
};
