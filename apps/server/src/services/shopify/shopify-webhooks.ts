import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { webhookEvents } from '../../db/schema.ts';
import type { Repositories, Store } from '../../db/store.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ShopifyClient } from './shopify.client.ts';

interface Delivery {
  topic: string;
  shop: string;
  webhookId: string;
  payload: Record<string, unknown>;
}

const gid = (kind: string, id: unknown) =>
  typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id))
    ? `gid://shopify/${kind}/${id}`
    : null;

/**
 * What Shopify's webhooks change. Each is processed once by its `X-Shopify-Webhook-Id`, in the transaction
 * that records the id, so a retried delivery changes nothing and a failed one is retried by Shopify.
 */
export function createShopifyWebhookService(deps: {
  store: Store;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'info'>;
}) {
  const { store, clock, log } = deps;

  /** The monitors of the shop that watch `fragment` are checked again now, on fresh data. */
  async function recheck(tx: Repositories, shop: string, fragment: unknown): Promise<number> {
    const active = (await tx.connections.byAccount('shopify', shop)).filter((row) => row.userId !== null);
    const ids = active.map((row) => row.id);
    const now = clock.now();
    await tx.connections.touchData(ids, now);
    return tx.checks.requestChecks(await tx.connections.monitorsWatching(ids, fragment), now);
  }

  const handlers: Record<string, (tx: Repositories, delivery: Delivery) => Promise<void>> = {
    async 'products/update'(tx, { shop, payload }) {
      const productId =
        typeof payload.admin_graphql_api_id === 'string'
          ? payload.admin_graphql_api_id
          : gid('Product', payload.id);
      if (productId) await recheck(tx, shop, { products: [{ productId }] });
    },
    async 'inventory_levels/update'(tx, { shop, payload }) {
      const item = gid('InventoryItem', payload.inventory_item_id);
      if (item) await recheck(tx, shop, { products: [{ variants: [{ inventoryItemId: item }] }] });
    },
    async 'app/uninstalled'(tx, { shop }) {
      const now = clock.now();
      const rows = await tx.connections.byAccount('shopify', shop);
      const ids = rows.map((row) => row.id);
      await tx.connections.setStatus(
        ids,
        'lost',
        `The Vigil app was uninstalled from ${shop} on ${now.toISOString().slice(0, 10)}.`,
        now,
      );
      await tx.checks.requestChecks(await tx.connections.monitorsWatching(ids), now);
    },
    // Vigil keeps no data about a shop's customers: there is nothing to send or erase.
    async 'customers/data_request'() {},
    async 'customers/redact'() {},
    /** 48 hours after an uninstall: everything Vigil keeps about the shop goes. */
    async 'shop/redact'(tx, { shop }) {
      const rows = await tx.connections.byAccount('shopify', shop);
      await tx.connections.deleteMany(rows.map((row) => row.id));
    },
  };

  return {
    async receive(delivery: Delivery): Promise<'processed' | 'duplicate' | 'ignored'> {
      const handle = handlers[delivery.topic];
      return store.transaction(async (tx) => {
        const first = await tx.connections.recordWebhook({
          provider: 'shopify',
          eventId: delivery.webhookId,
          topic: delivery.topic,
          account: delivery.shop,
          receivedAt: clock.now(),
        });
        if (!first) return 'duplicate';
        if (!handle) return 'ignored';
        await handle(tx, delivery);
        log.info({ topic: delivery.topic, shop: delivery.shop }, 'shopify webhook processed');
        return 'processed';
      });
    },
  };
}
export type ShopifyWebhookService = ReturnType<typeof createShopifyWebhookService>;
export type WebhookEventRow = typeof webhookEvents.$inferInsert;

/**
 * `/webhooks/shopify/*`: the body is read raw, its `X-Shopify-Hmac-Sha256` checked in constant time (401
 * otherwise, before anything is parsed), and the topic taken from `X-Shopify-Topic`.
 */
export const shopifyWebhookRoutes: FastifyPluginAsync<{
  client: ShopifyClient;
  webhooks: ShopifyWebhookService;
}> = async (app, { client, webhooks }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post('/webhooks/shopify/*', { schema: { hide: true } }, async (request, reply) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    if (!client.verifyWebhook(raw, header('x-shopify-hmac-sha256'))) {
      throw new AppError('UNAUTHORIZED', 'This webhook is not signed by Shopify.');
    }
    const topic = header('x-shopify-topic');
    const shop = header('x-shopify-shop-domain');
    const webhookId = header('x-shopify-webhook-id') ?? header('x-shopify-event-id');
    if (!topic || !shop || !webhookId) {
      throw new AppError('INVALID', 'A Shopify webhook needs its topic, shop domain and webhook id headers.');
    }
    let payload: unknown;
    try {
      payload = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new AppError('INVALID', 'The webhook body is not JSON.');
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      throw new AppError('INVALID', 'The webhook body is not a JSON object.');
    }
    const outcome = await webhooks.receive({
      topic,
      shop,
      webhookId,
      payload: payload as Record<string, unknown>,
    });
    return reply.code(200).send({ data: { outcome } });
  });
};
