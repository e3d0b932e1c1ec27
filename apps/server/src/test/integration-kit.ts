import { createCheckers } from '../checks/all-checkers.ts';
import { createStore, type Store } from '../db/store.ts';
import { createCheckEngine } from '../engine/check-engine.ts';
import type { TestApp } from './test-app.ts';

/** A log that says nothing: the tests read what the checks did, not what they logged. */
export const SILENT_LOG = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** What a service's integration is built with, from the test app (its settings aside). */
export function integrationDeps(t: TestApp) {
  return {
    store: createStore(t.database.db),
    clock: t.clock,
    cipher: t.deps.tokenCipher!,
    publicUrl: t.url,
    log: SILENT_LOG,
  };
}

/** A check engine over the website checker and `checkers`; alerts it raises are not sent. */
export function testCheckEngine(
  t: TestApp,
  store: Store,
  checkers: Parameters<typeof createCheckers>[0],
  batchSize = 10,
) {
  return createCheckEngine({
    store,
    queue: { send: async () => undefined },
    clock: t.clock,
    checkers: createCheckers(checkers),
    log: SILENT_LOG,
    concurrency: 10,
    batchSize,
  });
}
