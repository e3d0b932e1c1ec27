type Waiter<T> = { predicate: (item: T) => boolean; resolve: (item: T) => void };

/**
 * Promises that settle when something matching a predicate shows up: what tests await instead of sleeping.
 * The owner calls `notify` whenever an item is added or changes.
 */
export class Waiters<T> {
  #waiters: Waiter<T>[] = [];

  constructor(private readonly noun: string) {}

  notify(item: T): void {
    const ready = this.#waiters.filter((waiter) => waiter.predicate(item));
    if (ready.length === 0) return;
    this.#waiters = this.#waiters.filter((waiter) => !ready.includes(waiter));
    for (const waiter of ready) waiter.resolve(item);
  }

  /** Resolves with the first of `present`, or of the items notified later, that matches; rejects after `timeoutMs`. */
  waitFor(present: readonly T[], predicate: (item: T) => boolean, timeoutMs: number): Promise<T> {
    const found = present.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter: Waiter<T> = {
        predicate,
        resolve: (item) => {
          clearTimeout(timer);
          resolve(item);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(new Error(`No matching ${this.noun} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }
}
