import type { preHandlerAsyncHookHandler } from 'fastify';
import {
  googleCustomerAdsQuery,
  googleCustomerAdsResponse,
  googleCustomersQuery,
  googleCustomersResponse,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, SESSION_SECURITY } from '../../lib/route-schemas.ts';
import { sessionOf } from '../../modules/sessions/authenticate.ts';
import type { GoogleAdsService } from './google-ads.service.ts';

export const googleAdsRoutes: FastifyPluginAsyncZod<{
  google: Pick<GoogleAdsService, 'customers' | 'customerAds'>;
  authenticate: preHandlerAsyncHookHandler;
}> = async (app, { google, authenticate }) => {
  app.get(
    '/monitor-bff/monitor/google-customers',
    {
      preHandler: authenticate,
      schema: {
        tags: ['monitors'],
        summary: 'The Google Ads accounts the connected Google account reaches',
        description:
          'Read through the Google Ads API (`customers:listAccessibleCustomers`, then each customer, and a manager’s clients by `customer_client` with the manager as `login-customer-id`). Name the monitor (`monitor_id`, as the spec does) or, for a monitor being created, the connection. A lost connection is a 409; Google’s quota or an outage is a 503 with Retry-After.',
        security: SESSION_SECURITY,
        querystring: googleCustomersQuery,
        response: { 200: googleCustomersResponse, ...errorResponses(401, 404, 409, 503) },
      },
    },
    async (request) => ({ data: await google.customers(sessionOf(request), request.query) }),
  );

  app.get(
    '/monitor-bff/monitor/google-customerads',
    {
      preHandler: authenticate,
      schema: {
        tags: ['monitors'],
        summary: 'An account’s campaigns, ad groups and ads, with their serving and policy states',
        description:
          'The account (`resource_name`, as `customers/1234567890`) must be one the connection reaches (else 400). Removed campaigns, ad groups and ads are left out; at most 2,000 ads are listed.',
        security: SESSION_SECURITY,
        querystring: googleCustomerAdsQuery,
        response: { 200: googleCustomerAdsResponse, ...errorResponses(401, 404, 409, 503) },
      },
    },
    async (request) => ({ data: await google.customerAds(sessionOf(request), request.query) }),
  );
};
