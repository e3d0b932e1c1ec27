/** A loader's lookups not yet answered, by key: several lookups of one key share its answer. */
type Waiting<V> = Map<
  string,
  { resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[]
>;

function wait<V>(waiting: Waiting<V>, key: string): Promise<V | undefined> {
  return new Promise((resolve, reject) => {
    const waiters = waiting.get(key) ?? [];
    waiters.push({ resolve, reject });
    waiting.set(key, waiters);
  });
}

/** Answers a batch's lookups with what `loaded` found for each key (undefined if nothing), or its failure. */
function settle<V>(batch: Waiting<V>, loaded: Promise<Map<string, V>>): Promise<void> {
  return loaded.then(
    (found) => {
      for (const [key, waiters] of batch) for (const waiter of waiters) waiter.resolve(found.get(key));
    },
    (error: unknown) => {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
    },
  );
}

/**
 * Loads by key, with the lookups asked for within `waitMs` of each other read in one call of `loadMany`
 * (one statement for the checks that run at the same moment). A key `loadMany` does not answer resolves to
 * undefined; if it fails, every lookup of the batch fails with it.
 */
export function createBatchLoader<V>(
  loadMany: (keys: string[]) => Promise<Map<string, V>>,
  waitMs: number,
): (key: string) => Promise<V | undefined> {
  let pending: Waiting<V> = new Map();
  let timer: NodeJS.Timeout | undefined;
  return (key) => {
    const answer = wait(pending, key);
    timer ??= setTimeout(() => {
      const batch = pending;
      pending = new Map();
      timer = undefined;
      void settle(batch, loadMany([...batch.keys()]));
    }, waitMs);
    return answer;
  };
}

/**
 * Loads by key without waiting while it can: at most `inFlight` calls of `loadMany` run at once, a lookup asked
 * for while a place is free is read at once (a call with its one key), and the lookups asked for while all run
 * wait; when a call ends, up to `most` of their keys go in the next. An idle server so reads each key as it comes;
 * a busy one pays a statement's fixed cost once for many lookups. Nothing is cached: a lookup waits only for a call
 * that starts after it was asked for. Unanswered keys and failures as `createBatchLoader`'s.
 */
export function createBusyBatchLoader<V>(
  loadMany: (keys: string[]) => Promise<Map<string, V>>,
  { inFlight, most }: { inFlight: number; most: number },
): (key: string) => Promise<V | undefined> {
  const pending: Waiting<V> = new Map();
  let running = 0;

  function next(): void {
    if (pending.size === 0 || running >= inFlight) return;
    const batch: Waiting<V> = new Map();
    for (const [key, waiters] of pending) {
      if (batch.size === most) break;
      batch.set(key, waiters);
      pending.delete(key);
    }
    running += 1;
    void settle(batch, loadMany([...batch.keys()])).finally(() => {
      running -= 1;
      next();
    });
  }

  return (key) => {
    const answer = wait(pending, key);
    next();
    return answer;
  };
}
