import type { preHandlerAsyncHookHandler } from 'fastify';
import {
  facebookAccountsQuery,
  facebookAccountsResponse,
  facebookAdSetsQuery,
  facebookAdSetsResponse,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, SESSION_SECURITY } from '../../lib/route-schemas.ts';
import { sessionOf } from '../../modules/sessions/authenticate.ts';
import type { MetaAdsService } from './meta-ads.service.ts';

/** The pickers of the Meta ads monitor form: the person's ad accounts, then an account's ad sets. */
export function metaAdsRoutes(
  service: MetaAdsService,
): FastifyPluginAsyncZod<{ authenticate: preHandlerAsyncHookHandler }> {
  return async (app, { authenticate }) => {
    app.get(
      '/monitor-bff/monitor/facebook/account',
      {
        preHandler: authenticate,
        schema: {
          tags: ['monitors'],
          summary: 'The ad accounts the connected Facebook account can read, by cursor',
          description:
            'Read through Graph (`/me/adaccounts`). Amounts are in the currency’s major unit; a spend cap of none is null. Name the monitor (`monitor_id`) or, for a monitor being created, the connection. A lost connection is a 409; Meta’s rate limit a 503 with Retry-After.',
          security: SESSION_SECURITY,
          querystring: facebookAccountsQuery,
          response: { 200: facebookAccountsResponse, ...errorResponses(400, 401, 404, 409, 503) },
        },
      },
      async (request) => ({ data: await service.accounts(sessionOf(request), request.query) }),
    );

    app.get(
      '/monitor-bff/monitor/facebook/adsets',
      {
        preHandler: authenticate,
        schema: {
          tags: ['monitors'],
          summary: 'An ad account’s ad sets with their status, budgets and issues, by cursor',
          description:
            'Read through Graph (`/act_<id>` and `/act_<id>/adsets` in one batch request). An `account_id` the connection cannot reach is a 400.',
          security: SESSION_SECURITY,
          querystring: facebookAdSetsQuery,
          response: { 200: facebookAdSetsResponse, ...errorResponses(400, 401, 404, 409, 503) },
        },
      },
      async (request) => ({ data: await service.adSets(sessionOf(request), request.query) }),
    );
  };
}
