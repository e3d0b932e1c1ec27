import type { preHandlerAsyncHookHandler } from 'fastify';
import { choosePlanBody, plansResponse, userInfoResponse } from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, SESSION_SECURITY } from '../../lib/route-schemas.ts';
import { sessionOf } from '../sessions/authenticate.ts';
import type { PlanService } from './plan.service.ts';

const tags = ['plans'];

export const planRoutes: FastifyPluginAsyncZod<{
  plans: PlanService;
  authenticate: preHandlerAsyncHookHandler;
}> = async (app, { plans, authenticate }) => {
  app.get(
    '/monitor-bff/plans',
    {
      schema: {
        tags,
        summary: 'The plan catalogue, in pricing-page order',
        response: { 200: plansResponse },
      },
    },
    async () => ({ data: { list: plans.list() } }),
  );

  app.post(
    '/monitor-bff/v1/user/choose-plan',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'Choose Free (starts a 14-day period); paid plans answer 400 and go through checkout',
        security: SESSION_SECURITY,
        body: choosePlanBody,
        response: { 200: userInfoResponse, ...errorResponses(401, 413) },
      },
    },
    async (request) => ({ data: await plans.choose(sessionOf(request), request.body.plan) }),
  );
};
