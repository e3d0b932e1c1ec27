import { StripeApiError } from './stripe-errors.ts';

/** What a POST answered, kept to be answered again for the same Idempotency-Key. */
export interface SavedAnswer {
  status: number;
  body: unknown;
  requestId: string;
}

interface Saved extends SavedAnswer {
  fingerprint: string;
  savedAt: number;
}

/** Stripe keeps keys for at least 24 hours. */
const KEEP_MS = 24 * 3600_000;

/**
 * Stripe's idempotent requests: the first answer to a key is saved and answered again to a retry with the same
 * parameters, without doing anything again; other parameters under the same key are an idempotency_error.
 * Requests with one key run one at a time, so two sent at once still make one object.
 */
export class IdempotencyKeys {
  readonly #saved = new Map<string, Saved>();
  readonly #running = new Map<string, Promise<void>>();

  constructor(private readonly now: () => number) {}

  async run(
    key: string,
    fingerprint: string,
    work: () => SavedAnswer | Promise<SavedAnswer>,
  ): Promise<{ answer: SavedAnswer; replayed: boolean }> {
    const before = this.#running.get(key) ?? Promise.resolve();
    let done = () => {};
    const mine = new Promise<void>((resolve) => (done = resolve));
    const queue = before.then(() => mine);
    this.#running.set(key, queue);
    await before;
    try {
      this.#forgetOld();
      const saved = this.#saved.get(key);
      if (saved) {
        if (saved.fingerprint !== fingerprint) {
          throw new StripeApiError(
            400,
            'idempotency_error',
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          );
        }
        return { answer: saved, replayed: true };
      }
      const answer = await work();
      // Stripe saves a result only once the endpoint ran; a refused request can be retried with the same key.
      if (answer.status < 400) this.#saved.set(key, { ...answer, fingerprint, savedAt: this.now() });
      return { answer, replayed: false };
    } finally {
      done();
      if (this.#running.get(key) === queue) this.#running.delete(key);
    }
  }

  #forgetOld(): void {
    const oldest = this.now() - KEEP_MS;
    for (const [key, saved] of this.#saved) if (saved.savedAt < oldest) this.#saved.delete(key);
  }
}
