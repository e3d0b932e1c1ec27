import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '@vigil/contracts';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { errorResponses } from '../../lib/route-schemas.ts';

const healthResponse = envelope(z.object({ status: z.literal('ok') }));

export const healthRoutes: FastifyPluginAsyncZod<{ ping: () => Promise<void> }> = async (app, { ping }) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness and database reachability',
        response: { 200: healthResponse, ...errorResponses(503) },
      },
    },
    async (request) => {
      try {
        await ping();
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        throw new AppError('UNAVAILABLE', 'The database is not answering.', { retryAfterSeconds: 5 });
      }
      return { data: { status: 'ok' as const } };
    },
  );
};
