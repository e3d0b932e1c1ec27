import type { FastifyInstance } from 'fastify';
import {
  ShopifyActionError,
  type ComplianceTopic,
  type CreateShopInput,
  type ProductInput,
  type ProductStatus,
  type ShopifySandbox,
} from './shopify.ts';

const STATUS_OF: Record<ShopifyActionError['code'], number> = { INVALID: 400, NOT_FOUND: 404, CONFLICT: 409 };

type Body = Record<string, unknown> | undefined;
type ShopParams = { shop: string };

function flag(body: Body, name: string, fallback?: boolean): boolean {
  const value = body?.[name] ?? fallback;
  if (typeof value !== 'boolean') throw new ShopifyActionError('INVALID', `${name} must be true or false.`);
  return value;
}

function text(body: Body, name: string): string | undefined {
  const value = body?.[name];
  return typeof value === 'string' ? value : undefined;
}

function optionalNumber(body: Body, name: string): number | undefined {
  const value = body?.[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number') throw new ShopifyActionError('INVALID', `${name} must be a number.`);
  return value;
}

/**
 * The sandbox's own JSON API for the Shopify stand-in, under `${basePath}/api/shopify`, for tests and
 * benchmarks: shops and products, the changes a merchant makes (each sending its webhook), the app's install,
 * the Admin API's counts, bucket and faults, and the webhooks sent. Answers `{ data }`, errors `{ code, message }`.
 */
export function registerShopifyApi(app: FastifyInstance, shopify: ShopifySandbox): void {
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof ShopifyActionError)) throw error;
    return reply.code(STATUS_OF[error.code]).send({ code: error.code, message: error.message });
  });

  app.get('/', async () => ({
    data: {
      clientId: shopify.clientId,
      appUrl: shopify.appUrl,
      redirectUris: shopify.redirectUris,
      complianceWebhookUrl: shopify.complianceWebhookUrl,
      shops: shopify.shops(),
    },
  }));

  app.delete('/', async () => {
    shopify.reset();
    return { data: null };
  });

  app.post<{ Body: Body }>('/shops', async (request) => ({
    data: shopify.createShop((request.body ?? {}) as unknown as CreateShopInput),
  }));

  app.get<{ Params: ShopParams }>('/shops/:shop', async (request) => {
    const shop = shopify.shop(request.params.shop);
    if (!shop) throw new ShopifyActionError('NOT_FOUND', `There is no shop ${request.params.shop}.`);
    return { data: shop };
  });

  app.get<{ Params: ShopParams }>('/shops/:shop/products', async (request) => ({
    data: { list: shopify.products(request.params.shop) },
  }));

  app.post<{ Params: ShopParams; Body: Body }>('/shops/:shop/products', async (request) => ({
    data: shopify.addProduct(request.params.shop, (request.body ?? {}) as unknown as ProductInput),
  }));

  app.post<{ Params: ShopParams & { variantId: string }; Body: Body }>(
    '/shops/:shop/variants/:variantId/stock',
    async (request) => {
      const quantity = optionalNumber(request.body, 'quantity');
      if (quantity === undefined) throw new ShopifyActionError('INVALID', 'quantity must be a number.');
      return { data: shopify.setStock(request.params.shop, request.params.variantId, quantity) };
    },
  );

  app.post<{ Params: ShopParams & { variantId: string }; Body: Body }>(
    '/shops/:shop/variants/:variantId/price',
    async (request) => ({
      data: shopify.setPrice(
        request.params.shop,
        request.params.variantId,
        String(request.body?.price ?? ''),
      ),
    }),
  );

  app.post<{ Params: ShopParams & { productId: string }; Body: Body }>(
    '/shops/:shop/products/:productId/status',
    async (request) => ({
      data: shopify.setStatus(
        request.params.shop,
        request.params.productId,
        String(request.body?.status ?? '').toUpperCase() as ProductStatus,
      ),
    }),
  );

  app.post<{ Params: ShopParams & { productId: string }; Body: Body }>(
    '/shops/:shop/products/:productId/publish',
    async (request) => ({
      data: shopify.setPublished(
        request.params.shop,
        request.params.productId,
        flag(request.body, 'published', true),
      ),
    }),
  );

  app.post<{ Params: ShopParams; Body: Body }>('/shops/:shop/password', async (request) => ({
    data: shopify.setPasswordEnabled(
      request.params.shop,
      flag(request.body, 'enabled'),
      text(request.body, 'password'),
    ),
  }));

  app.post<{ Params: ShopParams; Body: Body }>('/shops/:shop/cart', async (request) => ({
    data: shopify.setCartBroken(request.params.shop, flag(request.body, 'broken')),
  }));

  app.get<{ Params: ShopParams }>('/shops/:shop/install-url', async (request) => ({
    data: { url: shopify.installUrl(request.params.shop) },
  }));

  app.post<{ Params: ShopParams }>('/shops/:shop/uninstall', async (request) => ({
    data: shopify.uninstall(request.params.shop),
  }));

  app.post<{ Params: ShopParams; Body: Body }>('/shops/:shop/compliance', async (request) => ({
    data: shopify.sendComplianceWebhook(
      request.params.shop,
      String(request.body?.topic ?? '') as ComplianceTopic,
      {
        email: text(request.body, 'email'),
        phone: text(request.body, 'phone'),
      },
    ),
  }));

  app.get<{ Params: ShopParams }>('/shops/:shop/calls', async (request) => ({
    data: shopify.calls(request.params.shop),
  }));

  app.delete<{ Params: ShopParams }>('/shops/:shop/calls', async (request) => {
    shopify.resetCalls(request.params.shop);
    return { data: null };
  });

  app.get<{ Params: ShopParams }>('/shops/:shop/throttle', async (request) => ({
    data: shopify.throttle(request.params.shop),
  }));

  app.post<{ Params: ShopParams; Body: Body }>('/shops/:shop/throttle', async (request) => ({
    data: shopify.setThrottle(request.params.shop, {
      maximumAvailable: optionalNumber(request.body, 'maximumAvailable'),
      restoreRate: optionalNumber(request.body, 'restoreRate'),
      currentlyAvailable: optionalNumber(request.body, 'currentlyAvailable'),
    }),
  }));

  app.post<{ Params: ShopParams; Body: Body }>('/shops/:shop/faults', async (request) => {
    shopify.addFault(request.params.shop, {
      status: optionalNumber(request.body, 'status') ?? 0,
      count: optionalNumber(request.body, 'count'),
    });
    return { data: null };
  });

  app.delete<{ Params: ShopParams }>('/shops/:shop/faults', async (request) => {
    shopify.clearFaults(request.params.shop);
    return { data: null };
  });

  app.get<{ Querystring: { shop?: string; topic?: string } }>('/deliveries', async (request) => ({
    data: { list: shopify.deliveries({ shop: request.query.shop, topic: request.query.topic }) },
  }));
}
