/**
 * A worker process for the multi-process test: runs only the check engine against DATABASE_URL, on the
 * real clock, and prints "ready" once its engine has started and "checking <path>" as each check starts. On
 * SIGTERM it stops as a worker does (running
 * checks finish and are written), then prints one JSON line: how many checks it ran per target path.
 * Results carry no worker id, so this count is the only way to tell which process checked what.
 */
import { createCheckers } from '../checks/all-checkers.ts';
import type { Checker } from '../checks/checker.ts';
import { openDatabase } from '../db/database.ts';
import { createStore } from '../db/store.ts';
import { createWakeups } from '../db/wakeups.ts';
import { createCheckEngine } from '../engine/check-engine.ts';
import { systemClock } from '../lib/clock.ts';

/** One JSON line on stdout after the engine stopped. */
export interface CheckWorkerReport {
  checksPerPath: Record<string, number>;
}

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL!, poolSize: 3 });
const wakeups = createWakeups(database);
const website = createCheckers().website!;
const checksPerPath: Record<string, number> = {};
const counting: Checker = {
  service: website.service,
  check(request) {
    const { pathname } = new URL((request.target as { url: string }).url);
    checksPerPath[pathname] = (checksPerPath[pathname] ?? 0) + 1;
    // The test that kills a worker mid-check waits for this line.
    process.stdout.write(`checking ${pathname}\n`);
    return website.check(request);
  },
};
const engine = createCheckEngine({
  store: createStore(database.db),
  // No alerts in this test (the target is healthy), and the roll-up job is not its concern.
  queue: { send: async () => undefined },
  clock: systemClock,
  checkers: { website: counting },
  log: {
    info: () => undefined,
    warn: () => undefined,
    error: (...args: unknown[]) => console.error(...args),
  },
  concurrency: 8,
  batchSize: 5,
  wakeups,
  ...(process.env.CLAIM_LEASE_MS ? { claimLeaseMs: Number(process.env.CLAIM_LEASE_MS) } : {}),
});
process.once('SIGTERM', () => {
  void (async () => {
    await engine.stop();
    const report: CheckWorkerReport = { checksPerPath };
    process.stdout.write(`${JSON.stringify(report)}\n`);
    await wakeups.close();
    await database.close();
    process.exit(0);
  })();
});
engine.start();
process.stdout.write('ready\n');
