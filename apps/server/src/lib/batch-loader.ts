/**
 * Loads by key, with the lookups asked for within `waitMs` of each other read in one call of `loadMany`
 * (one statement for the checks that run at the same moment). A key `loadMany` does not answer resolves to
 * undefined; if it fails, every lookup of the batch fails with it.
 */
export function createBatchLoader<V>(
  loadMany: (keys: string[]) => Promise<Map<string, V>>,
  waitMs: number,
): (key: string) => Promise<V | undefined> {
  let pending = new Map<
    string,
    { resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[]
  >();
  let timer: NodeJS.Timeout | undefined;
  return (key) =>
    new Promise((resolve, reject) => {
      const waiting = pending.get(key) ?? [];
      waiting.push({ resolve, reject });
      pending.set(key, waiting);
      timer ??= setTimeout(() => {
        const batch = pending;
        pending = new Map();
        timer = undefined;
        loadMany([...batch.keys()]).then(
          (found) => {
            for (const [id, waiters] of batch) for (const waiter of waiters) waiter.resolve(found.get(id));
          },
          (error: unknown) => {
            for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
          },
        );
      }, waitMs);
    });
}
