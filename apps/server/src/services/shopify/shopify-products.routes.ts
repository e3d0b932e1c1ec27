import type { preHandlerAsyncHookHandler } from 'fastify';
import { shopifyProductsQuery, shopifyProductsResponse } from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, SESSION_SECURITY } from '../../lib/route-schemas.ts';
import { sessionOf } from '../../modules/sessions/authenticate.ts';
import type { ShopifyService } from './shopify.service.ts';

export const shopifyProductRoutes: FastifyPluginAsyncZod<{
  shopify: ShopifyService;
  authenticate: preHandlerAsyncHookHandler;
}> = async (app, { shopify, authenticate }) => {
  app.get(
    '/monitor-bff/monitor/shopify-products',
    {
      preHandler: authenticate,
      schema: {
        tags: ['monitors'],
        summary: 'The shop’s products, 10 a page by cursor, with a title search',
        description:
          'Read through the Admin GraphQL API (`products(first:, after:)` and `pageInfo`). Name the monitor (`monitorId`, as the spec does) or, for a monitor being created, the connection. A lost connection is a 409.',
        security: SESSION_SECURITY,
        querystring: shopifyProductsQuery,
        response: { 200: shopifyProductsResponse, ...errorResponses(401, 404, 409, 503) },
      },
    },
    async (request) => ({ data: await shopify.products(sessionOf(request), request.query) }),
  );
};
