import { createHmac } from 'node:crypto';
import type Stripe from 'stripe';
import { Waiters } from './waiters.ts';

/**
 * Stripe-Signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the endpoint's
 * signing secret>`, the header `stripe.webhooks.constructEvent` checks.
 */
export function stripeSignature(rawBody: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export type EventStatus = 'held' | 'pending' | 'retrying' | 'delivered' | 'failed';
/** Why an attempt was made: the first send, an automatic retry, or a control's re-send or duplicate. */
export type DeliveryTrigger = 'automatic' | 'retry' | 'resend' | 'duplicate';

export interface StripeDelivery {
  at: string;
  trigger: DeliveryTrigger;
  /** The HTTP status Vigil answered, or null when it did not (refused, timed out). */
  status: number | null;
  error: string | null;
  /** The start of the answer's body, as Stripe's dashboard shows it. */
  response: string;
  durationMs: number;
}

export interface StripeEventView {
  id: string;
  type: string;
  created: string;
  /** The id of the object the event is about. */
  objectId: string;
  status: EventStatus;
  deliveries: StripeDelivery[];
  event: Stripe.Event;
}

interface Entry {
  event: Stripe.Event;
  /** The body exactly as every attempt sends (and signs) it. */
  body: string;
  status: EventStatus;
  deliveries: StripeDelivery[];
  automaticAttempts: number;
  retryTimer: NodeJS.Timeout | null;
  /** Settles after the first automatic attempt, so a release can wait for what it released. */
  sent: Promise<void>;
  markSent: () => void;
}

export interface WebhookSettings {
  secret: string;
  url: () => string;
  retryDelaysMs: readonly number[];
  now: () => number;
}

/** Stripe waits 10 seconds for an answer (Stripe documents up to 20 s; 10 s keeps tests and demos lively). */
const TIMEOUT_MS = 10_000;
const CAPACITY = 1000;
const RESPONSE_CHARS = 300;

/**
 * The events of the Stripe account and their delivery to Vigil's one webhook endpoint: each event is POSTed
 * as JSON, signed; the first attempts go one after another in the order the events were made (the events of
 * one action arrive in order), and a failed one (no 2xx, no answer in time) is retried after each of
 * `retryDelaysMs`. Webhooks can be held and released later, in order or reversed, to show out-of-order handling.
 */
export class StripeWebhooks {
  readonly #entries: Entry[] = [];
  readonly #byId = new Map<string, Entry>();
  readonly #queue: Entry[] = [];
  readonly #waiters = new Waiters<StripeEventView>('Stripe event');
  readonly #inFlight = new Set<AbortController>();
  #draining = false;
  #held = false;
  /** Bumped by stop(), so deliveries under way end quietly. */
  #generation = 0;

  constructor(private readonly settings: WebhookSettings) {}

  get held(): boolean {
    return this.#held;
  }

  get heldCount(): number {
    return this.#entries.filter((entry) => entry.status === 'held').length;
  }

  /** Keeps the event and sends it (or holds it). */
  record(event: Stripe.Event): StripeEventView {
    let markSent = () => {};
    const sent = new Promise<void>((resolve) => (markSent = resolve));
    const entry: Entry = {
      event,
      body: JSON.stringify(event, null, 2),
      status: this.#held ? 'held' : 'pending',
      deliveries: [],
      automaticAttempts: 0,
      retryTimer: null,
      sent,
      markSent,
    };
    this.#entries.unshift(entry);
    this.#byId.set(event.id, entry);
    if (this.#entries.length > CAPACITY) {
      for (const dropped of this.#entries.splice(CAPACITY)) {
        this.#byId.delete(dropped.event.id);
        if (dropped.retryTimer) clearTimeout(dropped.retryTimer);
      }
    }
    if (entry.status === 'pending') this.#enqueue([entry]);
    const view = this.#view(entry);
    this.#waiters.notify(view);
    return view;
  }

  /** Newest first. */
  list(filter: { type?: string; limit?: number } = {}): StripeEventView[] {
    return this.#entries
      .filter((entry) => !filter.type || entry.event.type === filter.type)
      .slice(0, filter.limit ?? CAPACITY)
      .map((entry) => this.#view(entry));
  }

  get(eventId: string): StripeEventView | undefined {
    const entry = this.#byId.get(eventId);
    return entry && this.#view(entry);
  }

  /** The event as the REST API answers it now: `pending_webhooks` is 0 once delivered. */
  eventNow(eventId: string): Stripe.Event | undefined {
    const entry = this.#byId.get(eventId);
    if (!entry) return undefined;
    return { ...entry.event, pending_webhooks: entry.status === 'delivered' ? 0 : 1 };
  }

  /** Sends the event once more now (the same event id), as the dashboard's "Resend" does; answers that delivery. */
  async resend(eventId: string): Promise<StripeDelivery | undefined> {
    const entry = this.#byId.get(eventId);
    return entry && this.#attempt(entry, 'resend');
  }

  /** Sends the event twice at the same moment, as happens when Stripe's delivery overlaps a retry. */
  async duplicate(eventId: string): Promise<StripeDelivery[] | undefined> {
    const entry = this.#byId.get(eventId);
    if (!entry) return undefined;
    return Promise.all([this.#attempt(entry, 'duplicate'), this.#attempt(entry, 'duplicate')]);
  }

  hold(held: boolean): void {
    this.#held = held;
  }

  /**
   * Sends the held events — in the order they were made, or the reverse — and answers them once their
   * first attempts are over.
   */
  async release(order: 'created' | 'reverse'): Promise<StripeEventView[]> {
    const held = this.#entries.filter((entry) => entry.status === 'held').reverse();
    if (order === 'reverse') held.reverse();
    for (const entry of held) entry.status = 'pending';
    this.#enqueue(held);
    await Promise.all(held.map((entry) => entry.sent));
    return held.map((entry) => this.#view(entry));
  }

  waitFor(predicate: (event: StripeEventView) => boolean, timeoutMs: number): Promise<StripeEventView> {
    return this.#waiters.waitFor(this.list(), predicate, timeoutMs);
  }

  /** Stops retries, the queue and requests under way; events keep what they had. */
  stop(): void {
    this.#generation += 1;
    for (const entry of this.#entries) {
      if (entry.retryTimer) clearTimeout(entry.retryTimer);
      entry.retryTimer = null;
      entry.markSent();
    }
    this.#queue.length = 0;
    for (const controller of this.#inFlight) controller.abort();
    this.#inFlight.clear();
  }

  #enqueue(entries: Entry[]): void {
    this.#queue.push(...entries);
    if (!this.#draining) void this.#drain();
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      for (let entry = this.#queue.shift(); entry; entry = this.#queue.shift()) {
        await this.#attempt(entry, 'automatic');
        entry.markSent();
      }
    } finally {
      this.#draining = false;
    }
  }

  async #attempt(entry: Entry, trigger: DeliveryTrigger): Promise<StripeDelivery> {
    const generation = this.#generation;
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const at = new Date(this.settings.now()).toISOString();
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    let response = '';
    try {
      const answer = await fetch(this.settings.url(), {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Cache-Control': 'no-cache',
          Accept: '*/*; q=0.5, application/xml',
          'Stripe-Signature': stripeSignature(
            entry.body,
            this.settings.secret,
            Math.floor(this.settings.now() / 1000),
          ),
        },
        body: entry.body,
        redirect: 'manual',
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(TIMEOUT_MS)]),
      });
      status = answer.status;
      response = (await answer.text()).slice(0, RESPONSE_CHARS);
    } catch (caught) {
      const cause = (caught as Error & { cause?: Error }).cause;
      error =
        (caught as Error).name === 'TimeoutError'
          ? 'timed out'
          : (cause?.message ?? (caught as Error).message);
    } finally {
      this.#inFlight.delete(controller);
    }
    const delivery: StripeDelivery = {
      at,
      trigger,
      status,
      error,
      response,
      durationMs: Math.round(performance.now() - started),
    };
    if (generation !== this.#generation) return delivery;
    entry.deliveries.push(delivery);
    const ok = status !== null && status >= 200 && status < 300;
    if (ok) {
      entry.status = 'delivered';
      if (entry.retryTimer) clearTimeout(entry.retryTimer);
      entry.retryTimer = null;
    } else if (trigger === 'automatic' || trigger === 'retry') {
      entry.automaticAttempts += 1;
      const delay = this.settings.retryDelaysMs[entry.automaticAttempts - 1];
      if (delay === undefined) entry.status = 'failed';
      else {
        entry.status = 'retrying';
        entry.retryTimer = setTimeout(() => {
          entry.retryTimer = null;
          void this.#attempt(entry, 'retry');
        }, delay);
        entry.retryTimer.unref();
      }
    }
    this.#waiters.notify(this.#view(entry));
    return delivery;
  }

  #view(entry: Entry): StripeEventView {
    const object = entry.event.data.object as { id?: string };
    return {
      id: entry.event.id,
      type: entry.event.type,
      created: new Date(entry.event.created * 1000).toISOString(),
      objectId: object.id ?? '',
      status: entry.status,
      deliveries: entry.deliveries.map((delivery) => ({ ...delivery })),
      event: entry.event,
    };
  }
}
