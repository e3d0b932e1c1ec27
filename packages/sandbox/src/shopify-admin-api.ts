import type { FastifyInstance } from 'fastify';
import type { ShopifySandbox } from './shopify.ts';

/** Shopify's quarterly versions (2025-01, 2025-04, …) and `unstable`. */
const API_VERSION = /^(\d{4}-(01|04|07|10)|unstable)$/;

/**
 * `POST /admin/api/{version}/graphql.json` under a shop's base, authenticated by `X-Shopify-Access-Token`.
 * The body is JSON `{ query, variables, operationName }` or, with `Content-Type: application/graphql`, the
 * query itself.
 */
export function registerShopifyAdminApi(app: FastifyInstance, shopify: ShopifySandbox): void {
  app.addContentTypeParser('application/graphql', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  app.post<{ Params: { shop: string; version: string }; Body: unknown }>(
    '/admin/api/:version/graphql.json',
    async (request, reply) => {
      const { shop, version } = request.params;
      if (!shopify.findShop(shop) || !API_VERSION.test(version))
        return reply.code(404).send({ errors: 'Not Found' });
      const body = request.body;
      const fields = typeof body === 'string' ? { query: body } : ((body ?? {}) as Record<string, unknown>);
      const variables = fields.variables;
      const token = request.headers['x-shopify-access-token'];
      const answer = shopify.adminGraphql(
        shop,
        typeof token === 'string' ? token : undefined,
        version,
        typeof fields.query === 'string' && fields.query.trim() !== ''
          ? {
              query: fields.query,
              variables:
                variables && typeof variables === 'object' ? (variables as Record<string, unknown>) : null,
              operationName: typeof fields.operationName === 'string' ? fields.operationName : null,
            }
          : null,
      );
      return reply
        .code(answer.status)
        .headers({ ...answer.headers, 'X-Shopify-API-Version': version })
        .send(answer.body);
    },
  );
}
