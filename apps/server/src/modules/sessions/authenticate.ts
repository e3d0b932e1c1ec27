import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { SESSION_ENDED, type AuthSession, type SessionService } from './session.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthSession | null;
  }
}

/** Decorates requests with `auth` and returns the preHandler that fills it or answers 401. */
export function registerAuthentication(
  app: FastifyInstance,
  sessions: SessionService,
): preHandlerAsyncHookHandler {
  app.decorateRequest('auth', null);
  return async (request) => {
    request.auth = await sessions.authenticate(request.headers.authorization);
  };
}

/** The caller's session on a route guarded by the authenticate preHandler. */
export function sessionOf(request: FastifyRequest): AuthSession {
  if (!request.auth) throw new AppError('UNAUTHORIZED', SESSION_ENDED);
  return request.auth;
}
