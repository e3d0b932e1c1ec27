import { oidcStartQuery, oidcStartResponse } from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/route-schemas.ts';
import type { OidcService } from './oidc.service.ts';

export const oidcRoutes: FastifyPluginAsyncZod<{ oidc: OidcService }> = async (app, { oidc }) => {
  app.get(
    '/oauth-bff/v1/oidc/authorize',
    {
      schema: {
        tags: ['account'],
        summary: 'Start "Sign in with Google": the provider URL to send the browser to',
        description:
          'The provider returns to /app/oauth?code&state; the page posts {code, state} to /oauth-bff/v1/user/login, which answers with the `redirect` given here.',
        querystring: oidcStartQuery,
        response: { 200: oidcStartResponse, ...errorResponses(503) },
      },
    },
    async (request) => ({ data: await oidc.start(request.query.redirect) }),
  );
};
