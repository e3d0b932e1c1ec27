import type { preHandlerAsyncHookHandler } from 'fastify';
import { onboardingBody, updateUserInfoBody, userInfoResponse } from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, SESSION_SECURITY } from '../../lib/route-schemas.ts';
import { sessionOf } from '../sessions/authenticate.ts';
import type { UserService } from './user.service.ts';

const tags = ['user'];

export const userRoutes: FastifyPluginAsyncZod<{
  users: UserService;
  authenticate: preHandlerAsyncHookHandler;
}> = async (app, { users, authenticate }) => {
  app.get(
    '/monitor-bff/user-info',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'The signed-in user',
        security: SESSION_SECURITY,
        response: { 200: userInfoResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await users.get(sessionOf(request)) }),
  );

  app.put(
    '/monitor-bff/user-info',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary:
          'Change some of industry, telPhone, contactEmail (null or "" clears a contact, but not the last one)',
        security: SESSION_SECURITY,
        body: updateUserInfoBody,
        response: { 200: userInfoResponse, ...errorResponses(401, 413) },
      },
    },
    async (request) => ({ data: await users.update(sessionOf(request), request.body) }),
  );

  app.post(
    '/monitor-bff/onboarding/user-info',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'Onboarding: industry, and a contact phone and/or email',
        security: SESSION_SECURITY,
        body: onboardingBody,
        response: { 200: userInfoResponse, ...errorResponses(401, 413) },
      },
    },
    async (request) => ({ data: await users.onboard(sessionOf(request), request.body) }),
  );
};
