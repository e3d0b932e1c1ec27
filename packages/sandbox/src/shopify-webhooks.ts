import { createHmac, randomUUID } from 'node:crypto';
import { Waiters } from './waiters.ts';

/** Shopify's X-Shopify-Hmac-Sha256: base64 HMAC-SHA256 of the raw body, keyed with the app's client secret. */
export function shopifyWebhookHmac(rawBody: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed';

/** One webhook sent (or being sent) to one address, with what the receiver answered. */
export interface ShopifyDelivery {
  /** X-Shopify-Webhook-Id: one per webhook, the same on its retries. */
  webhookId: string;
  /** X-Shopify-Event-Id: one per event, shared by the webhooks the event causes. */
  eventId: string;
  /** The REST topic name, products/update. */
  topic: string;
  shop: string;
  url: string;
  apiVersion: string;
  triggeredAt: string;
  /** The body exactly as sent (and signed). */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  /** The HTTP status of the last answer; null when the last attempt got none. */
  responseStatus: number | null;
  /** Why the last attempt failed without an answer (refused, timed out). */
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookEvent {
  topic: string;
  shop: string;
  url: string;
  apiVersion: string;
  eventId: string;
  triggeredAt: string;
  payload: unknown;
}

/** Shopify waits 5 seconds for an answer. */
const TIMEOUT_MS = 5000;

/**
 * Sends webhooks the way Shopify does — a POST of JSON, signed, with the X-Shopify-* headers — one
 * delivery per event and address, asynchronously; a failed one (no 2xx, or no answer) is retried after each
 * of `retryDelaysMs`. Keeps the newest deliveries for the control page and tests.
 */
export class WebhookDeliveries {
  readonly #deliveries: ShopifyDelivery[] = [];
  readonly #waiters = new Waiters<ShopifyDelivery>('webhook delivery');
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inFlight = new Set<AbortController>();
  /** Bumped by stop(), so deliveries under way end quietly. */
  #generation = 0;

  constructor(
    private readonly secret: string,
    private readonly retryDelaysMs: readonly number[],
    private readonly now: () => number,
    private readonly capacity = 1000,
  ) {}

  send(event: WebhookEvent): ShopifyDelivery {
    const at = new Date(this.now()).toISOString();
    const delivery: ShopifyDelivery = {
      webhookId: randomUUID(),
      eventId: event.eventId,
      topic: event.topic,
      shop: event.shop,
      url: event.url,
      apiVersion: event.apiVersion,
      triggeredAt: event.triggeredAt,
      body: JSON.stringify(event.payload),
      status: 'pending',
      attempts: 0,
      responseStatus: null,
      error: null,
      createdAt: at,
      updatedAt: at,
    };
    this.#deliveries.unshift(delivery);
    this.#deliveries.length = Math.min(this.#deliveries.length, this.capacity);
    this.#waiters.notify({ ...delivery });
    void this.#attempt(delivery, this.#generation);
    return { ...delivery };
  }

  /** Newest first. */
  list(filter: { shop?: string; topic?: string } = {}): ShopifyDelivery[] {
    return this.#deliveries
      .filter((d) => (!filter.shop || d.shop === filter.shop) && (!filter.topic || d.topic === filter.topic))
      .map((d) => ({ ...d }));
  }

  waitFor(predicate: (delivery: ShopifyDelivery) => boolean, timeoutMs: number): Promise<ShopifyDelivery> {
    return this.#waiters.waitFor(this.list(), predicate, timeoutMs);
  }

  /** Stops retries and requests under way; their deliveries stay as they were. */
  stop(): void {
    this.#generation += 1;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const controller of this.#inFlight) controller.abort();
    this.#inFlight.clear();
  }

  clear(): void {
    this.stop();
    this.#deliveries.length = 0;
  }

  async #attempt(delivery: ShopifyDelivery, generation: number): Promise<void> {
    const controller = new AbortController();
    this.#inFlight.add(controller);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Shopify-Captain-Hook',
          'X-Shopify-Topic': delivery.topic,
          'X-Shopify-Hmac-Sha256': shopifyWebhookHmac(delivery.body, this.secret),
          'X-Shopify-Shop-Domain': delivery.shop,
          'X-Shopify-API-Version': delivery.apiVersion,
          'X-Shopify-Webhook-Id': delivery.webhookId,
          'X-Shopify-Event-Id': delivery.eventId,
          'X-Shopify-Triggered-At': delivery.triggeredAt,
        },
        body: delivery.body,
        redirect: 'manual',
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(TIMEOUT_MS)]),
      });
      status = response.status;
      await response.body?.cancel();
    } catch (caught) {
      error = (caught as Error).message;
    } finally {
      this.#inFlight.delete(controller);
    }
    if (generation !== this.#generation) return;
    delivery.attempts += 1;
    delivery.responseStatus = status;
    delivery.error = error;
    delivery.updatedAt = new Date(this.now()).toISOString();
    const delay = this.retryDelaysMs[delivery.attempts - 1];
    if (status !== null && status >= 200 && status < 300) delivery.status = 'delivered';
    else if (delay === undefined) delivery.status = 'failed';
    else {
      delivery.status = 'retrying';
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        void this.#attempt(delivery, generation);
      }, delay);
      timer.unref();
      this.#timers.add(timer);
    }
    this.#waiters.notify({ ...delivery });
  }
}
