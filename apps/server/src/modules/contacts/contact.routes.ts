import type { preHandlerAsyncHookHandler } from 'fastify';
import {
  sendCodeBody,
  verifiedContactResponse,
  verifiedContactsResponse,
  verifyCodeBody,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, SESSION_SECURITY } from '../../lib/route-schemas.ts';
import { sessionOf } from '../sessions/authenticate.ts';
import type { ContactService } from './contact.service.ts';

const tags = ['alert contacts'];

export const contactRoutes: FastifyPluginAsyncZod<{
  contacts: ContactService;
  authenticate: preHandlerAsyncHookHandler;
}> = async (app, { contacts, authenticate }) => {
  app.post(
    '/monitor-bff/monitor/send-code',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'Email a 6-digit code that proves an alert address is yours',
        description:
          'The code works for 15 minutes, once; a new code voids the previous one. 5 codes per address and 20 per account an hour. An address already verified gets no email and answers verified: true.',
        security: SESSION_SECURITY,
        body: sendCodeBody,
        response: { 200: verifiedContactResponse, ...errorResponses(401, 413, 429) },
      },
    },
    async (request) => ({ data: await contacts.sendCode(sessionOf(request), request.body) }),
  );

  app.post(
    '/monitor-bff/monitor/verify-code',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'Enter the emailed code: the address becomes a verified alert contact',
        description: '5 wrong codes burn the code; send a new one then.',
        security: SESSION_SECURITY,
        body: verifyCodeBody,
        response: { 200: verifiedContactResponse, ...errorResponses(401, 413) },
      },
    },
    async (request) => ({ data: await contacts.verifyCode(sessionOf(request), request.body) }),
  );

  app.get(
    '/monitor-bff/monitor/verified-contacts',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'The alert contacts you verified',
        security: SESSION_SECURITY,
        response: { 200: verifiedContactsResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ data: { list: await contacts.listVerified(sessionOf(request)) } }),
  );
};
