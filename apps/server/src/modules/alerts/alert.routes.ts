import type { preHandlerAsyncHookHandler } from 'fastify';
import {
  acknowledgeBody,
  alertListQuery,
  alertListResponse,
  alertResponse,
  incidentTimelineQuery,
  incidentTimelineResponse,
  resolveBody,
  TIMELINE_FAILURES_SHOWN,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, SESSION_SECURITY } from '../../lib/route-schemas.ts';
import { sessionOf } from '../sessions/authenticate.ts';
import { ACK_LINK_PATH } from './ack-link.ts';
import type { AlertService } from './alert.service.ts';

const tags = ['alerts'];

// Whatever arrives, the link answers with a redirect: a person clicked it in an email.
const ackLinkQuery = z.object({ token: z.string().max(1000).optional().catch(undefined) });

export const alertRoutes: FastifyPluginAsyncZod<{
  alerts: AlertService;
  authenticate: preHandlerAsyncHookHandler;
  publicUrl: string;
}> = async (app, { alerts, authenticate, publicUrl }) => {
  app.get(
    '/monitor-bff/monitor/alerts',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'Your alerts (incidents), newest first, with their deliveries per channel',
        security: SESSION_SECURITY,
        querystring: alertListQuery,
        response: { 200: alertListResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({ data: await alerts.list(sessionOf(request), request.query) }),
  );

  app.get(
    '/monitor-bff/monitor/alerts/timeline',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary:
          "One alert's timeline: failed checks, opening, alerts sent per channel, acknowledgement, end",
        description: `In time order. The failed checks of the alert's condition run from the last passing check before it opened (at most 24 hours back) to its end or now; beyond the first and last ${TIMELINE_FAILURES_SHOWN}, one \`more-failures\` entry counts the rest. Another person's alert answers 404.`,
        security: SESSION_SECURITY,
        querystring: incidentTimelineQuery,
        response: { 200: incidentTimelineResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({ data: await alerts.timeline(sessionOf(request), request.query.incidentId) }),
  );

  app.post(
    '/monitor-bff/monitor/alerts/acknowledge',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'Acknowledge an open alert: no more repeat alerts; the recovery notice still comes',
        description: 'Acknowledging twice answers the alert as it is; a resolved alert answers 409.',
        security: SESSION_SECURITY,
        body: acknowledgeBody,
        response: { 200: alertResponse, ...errorResponses(401, 404, 409, 413) },
      },
    },
    async (request) => ({ data: await alerts.acknowledge(sessionOf(request), request.body.incidentId) }),
  );

  app.post(
    '/monitor-bff/monitor/alerts/resolve',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'Resolve an alert by hand, with an optional note',
        description:
          'Ends the incident now: no more repeat alerts and no recovery notice. If the checks still fail, a new alert opens after the confirmations. A resolved alert answers 409.',
        security: SESSION_SECURITY,
        body: resolveBody,
        response: { 200: alertResponse, ...errorResponses(400, 401, 404, 409, 413) },
      },
    },
    async (request) => ({
      data: await alerts.resolve(sessionOf(request), request.body.incidentId, request.body.note),
    }),
  );

  app.get(
    ACK_LINK_PATH,
    {
      schema: {
        tags,
        summary: 'The acknowledge link of alert emails (signed, 7 days, no session needed)',
        description:
          'Always answers 302: to /app/alerts?acknowledged=<incidentId>, or to /app/alerts?ackError=invalid|expired|resolved|not_found|failed.',
        querystring: ackLinkQuery,
        response: { 302: z.null().describe('Redirect to the alerts page') },
      },
    },
    async (request, reply) => {
      let target: string;
      try {
        const outcome = request.query.token
          ? await alerts.acknowledgeByToken(request.query.token)
          : ({ error: 'invalid' } as const);
        target =
          'error' in outcome
            ? `ackError=${outcome.error}`
            : `acknowledged=${encodeURIComponent(outcome.incidentId)}`;
      } catch (error) {
        request.log.error({ err: error }, 'acknowledge link failed');
        target = 'ackError=failed';
      }
      return reply.redirect(`${publicUrl}/app/alerts?${target}`, 302);
    },
  );
};
