import type { preHandlerAsyncHookHandler } from 'fastify';
import {
  changePasswordBody,
  emptyData,
  forgetPasswordBody,
  loginBody,
  loginResponse,
  messageResponse,
  registerBody,
  registerResponse,
  verifyPasswordBody,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientNetwork } from '../../lib/client-network.ts';
import { errorResponses, SESSION_SECURITY } from '../../lib/route-schemas.ts';
import type { OidcService } from '../oidc/oidc.service.ts';
import { sessionOf } from '../sessions/authenticate.ts';
import type { AuthService } from './auth.service.ts';

export interface AuthRoutesOptions {
  auth: AuthService;
  oidc: OidcService;
  authenticate: preHandlerAsyncHookHandler;
}

const tags = ['account'];

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { auth, oidc, authenticate },
) => {
  app.post(
    '/oauth-bff/v1/user/register',
    {
      schema: {
        tags,
        summary: 'Create an account with email and password, and sign in',
        body: registerBody,
        description: '20 accounts per client address an hour; more answer 429.',
        response: { 200: registerResponse, ...errorResponses(409, 413, 429) },
      },
    },
    async (request) => ({ data: await auth.register(request.body, { ip: clientNetwork(request.ip) }) }),
  );

  app.post(
    '/oauth-bff/v1/user/login',
    {
      schema: {
        tags,
        summary: 'Sign in with email and password, or finish an OpenID sign-in with {code, state}',
        description:
          'Wrong credentials answer 400 (not 401, which the web app reserves for "session over"). 5 failures at one account from one address, or 20 from one address, in 15 minutes answer 429 to that address; past 100 attempts at an account in an hour, only addresses that have not tried it yet get through.',
        body: loginBody,
        response: { 200: loginResponse, ...errorResponses(413, 429, 503) },
      },
    },
    async (request) => {
      const caller = { ip: clientNetwork(request.ip) };
      const body = request.body;
      const session = 'code' in body ? await oidc.finish(body, caller) : await auth.login(body, caller);
      return { data: session };
    },
  );

  app.post(
    '/monitor-bff/v1/user/logout',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'End this session',
        security: SESSION_SECURITY,
        response: { 200: emptyData, ...errorResponses(401) },
      },
    },
    async (request) => {
      await auth.logout(sessionOf(request));
      return { data: null };
    },
  );

  app.post(
    '/oauth-bff/v1/user/forget-password',
    {
      schema: {
        tags,
        summary: 'Email a 6-digit reset code, if an account uses this email',
        description:
          'The same answer whether or not the account exists. 3 emails per account and 10 per address an hour.',
        body: forgetPasswordBody,
        response: { 200: messageResponse, ...errorResponses(413, 429) },
      },
    },
    async (request) => {
      await auth.forgetPassword(request.body.email, { ip: clientNetwork(request.ip) });
      return {
        data: {
          message: `If an account uses ${request.body.email}, a reset code is on its way. It works for 30 minutes.`,
        },
      };
    },
  );

  app.post(
    '/oauth-bff/v1/user/verify-password',
    {
      schema: {
        tags,
        summary: 'Set a new password with the emailed code; ends every session of the account',
        body: verifyPasswordBody,
        response: { 200: messageResponse, ...errorResponses(413) },
      },
    },
    async (request) => {
      await auth.verifyPassword(request.body, { ip: clientNetwork(request.ip) });
      return { data: { message: 'Your password is changed. Sign in with your new password.' } };
    },
  );

  app.put(
    '/monitor-bff/v1/user/change-password',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'Change the password; ends every other session of the account',
        security: SESSION_SECURITY,
        body: changePasswordBody,
        response: { 200: messageResponse, ...errorResponses(401, 413, 429) },
      },
    },
    async (request) => {
      await auth.changePassword(sessionOf(request), request.body);
      return { data: { message: 'Your password is changed. Other devices were signed out.' } };
    },
  );
};
