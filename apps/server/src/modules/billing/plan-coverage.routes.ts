import type { preHandlerAsyncHookHandler } from 'fastify';
import { planOrderAccountsQuery, planOrderAccountsResponse } from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, SESSION_SECURITY } from '../../lib/route-schemas.ts';
import { sessionOf } from '../sessions/authenticate.ts';
import type { PlanCoverageService } from './plan-coverage.service.ts';

const tags = ['billing'];

export const planCoverageRoutes: FastifyPluginAsyncZod<{
  coverage: PlanCoverageService;
  authenticate: preHandlerAsyncHookHandler;
}> = async (app, { coverage, authenticate }) => {
  app.get(
    '/monitor-bff/plan-order/accounts',
    {
      preHandler: authenticate,
      schema: {
        tags,
        summary: 'Your connected accounts and monitors against each plan’s limits, before you order',
        description:
          'Accounts are your connections not disconnected, oldest first, with the monitors using each. Per plan (or only `plan`; an unknown one is 400): its limits, how many accounts it covers (oldest first), how many monitors could run on it (oldest first, those on an uncovered account left out), whether that is everything, and a sentence saying so.',
        security: SESSION_SECURITY,
        querystring: planOrderAccountsQuery,
        response: { 200: planOrderAccountsResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await coverage.coverage(sessionOf(request), request.query.plan) }),
  );
};
