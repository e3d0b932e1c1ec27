import type { preHandlerAsyncHookHandler } from 'fastify';
import {
  monitorContactsQuery,
  monitorContactsResponse,
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
        summary: 'Send a 6-digit code that proves an alert contact is yours: by email, SMS or a call',
        description:
          'channel email sends it to `email`; sms texts it and call reads it out to `phone` (E.164, one of the nine countries); a phone verified either way receives both. The code works for 15 minutes, once; a new code voids the previous one. 5 codes per contact and 20 per account an hour, and for phones 10 per number and 30 per account a day (429). A contact already verified gets nothing and answers verified: true. 409 for SMS to a number that replied STOP; 503 when this server has no SMS/call provider.',
        security: SESSION_SECURITY,
        body: sendCodeBody,
        response: { 200: verifiedContactResponse, ...errorResponses(401, 409, 413, 429, 503) },
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
        summary: 'Enter the code: the address or number becomes a verified alert contact',
        description: '5 wrong codes burn the code; send a new one then.',
        security: SESSION_SECURITY,
        body: verifyCodeBody,
        response: { 200: verifiedContactResponse, ...errorResponses(401, 413) },
      },
    },
    async (request) => ({ data: await contacts.verifyCode(sessionOf(request), request.body) }),
  );

  app.get(
    '/monitor-bff/monitor/contact-status',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary:
          'Whether each alert channel of a monitor reaches its contact, and this month’s SMS and call use',
        description:
          'One row per ticked channel: ok, unverified, opted_out (the number replied STOP), quota_exhausted, not_in_plan or not_configured, with a sentence saying what to do.',
        security: SESSION_SECURITY,
        querystring: monitorContactsQuery,
        response: { 200: monitorContactsResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      data: await contacts.monitorContacts(sessionOf(request), request.query.monitorId),
    }),
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
