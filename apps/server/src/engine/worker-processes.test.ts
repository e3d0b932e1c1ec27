import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { checkResults, monitors } from '../db/schema.ts';
import { createStore } from '../db/store.ts';
import type { CheckWorkerReport } from '../test/check-worker.fixture.ts';
import { databases } from '../test/databases.ts';
import { insertMonitor, userWithVerifiedEmail } from '../test/engine-kit.ts';
import { HEALTHY, startTargetServer } from '../test/target-server.ts';

const FIXTURE = fileURLToPath(new URL('../test/check-worker.fixture.ts', import.meta.url));
const MONITOR_COUNT = 200;
const INTERVAL_MS = 5_000;
/** First slots fall in four groups, 0.5 s apart, as monitors created at different times do. */
const GROUPS = 4;
const GROUP_GAP_MS = 500;
/** Slots every monitor must have had checked when the workers are stopped. */
const SLOTS = 3;

interface WorkerProcess {
  /** Resolves with the report the worker prints when it stops on SIGTERM. */
  stop(): Promise<CheckWorkerReport>;
  /** Ends the process at once (SIGKILL), as a crash or an out-of-memory kill does. */
  kill(): Promise<void>;
  /** Resolves when the worker next starts a check (it then holds that slot's claim). */
  nextCheck(): Promise<void>;
  /** The target paths of the checks it started so far, in order (all of them once it was killed). */
  checking(): string[];
}

/** Spawns the check worker fixture on its own node process; resolves once its engine runs. */
async function startWorkerProcess(
  databaseUrl: string,
  spawned: ChildProcess[],
  env: Record<string, string> = {},
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  spawned.push(child);
  const lines: string[] = [];
  let partial = '';
  let onLine = () => {};
  let onCheck = () => {};
  child.stdout!.on('data', (data: Buffer) => {
    const parts = (partial + data.toString()).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    onLine();
    if (parts.some((line) => line.startsWith('checking '))) onCheck();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // After its output too: what it printed before it died is all read.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    onLine = () => lines.includes('ready') && resolve();
    void exited.then((code) => reject(new Error(`check worker exited with ${code} before it was ready`)));
  });
  return {
    async stop() {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      return JSON.parse(lines.findLast((line) => line.startsWith('{'))!) as CheckWorkerReport;
    },
    nextCheck() {
      return new Promise<void>((resolve) => (onCheck = resolve));
    },
    async kill() {
      child.kill('SIGKILL');
      await closed;
    },
    checking() {
      return lines
        .filter((line) => line.startsWith('checking '))
        .map((line) => line.slice('checking '.length));
    },
  };
}

function killLeftovers(spawned: ChildProcess[]): void {
  for (const child of spawned)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

type FirstSlots = Map<string, { path: string; firstSlot: number }>;

/** `count` monitors of one user at `siteUrl` + `prefix` + n, their first slots in GROUPS groups from `start`. */
async function insertMonitors(
  database: Database,
  siteUrl: string,
  count: number,
  prefix: string,
  start: number,
): Promise<FirstSlots> {
  const owner = await userWithVerifiedEmail(createStore(database.db), new Date());
  const firstSlots: FirstSlots = new Map();
  for (let i = 0; i < count; i++) {
    const path = `${prefix}${i}`;
    const firstSlot = start + (i % GROUPS) * GROUP_GAP_MS;
    const id = await insertMonitor(database.db, {
      userId: owner.id,
      email: owner.email,
      url: `${siteUrl}${path}`,
      nextCheckAt: new Date(firstSlot),
      intervalSeconds: INTERVAL_MS / 1000,
    });
    firstSlots.set(id, { path, firstSlot });
  }
  return firstSlots;
}

/**
 * The slots checked per monitor path (from the results), and the slots that should have been: every slot on
 * the monitor's grid from its first up to the one it waits for now, so a missed slot shows as a difference.
 */
async function slotsOf(database: Database, firstSlots: FirstSlots) {
  const rows = await database.db
    .select({ id: monitors.id, nextCheckAt: monitors.nextCheckAt, claimedUntil: monitors.claimedUntil })
    .from(monitors);
  const results = await database.db
    .select({ monitorId: checkResults.monitorId, slotAt: checkResults.slotAt })
    .from(checkResults);
  const checkedSlots: Record<string, number[]> = {};
  const expectedSlots: Record<string, number[]> = {};
  for (const { monitorId, slotAt } of results) {
    (checkedSlots[firstSlots.get(monitorId)!.path] ??= []).push(slotAt.getTime());
  }
  for (const row of rows) {
    const { path, firstSlot } = firstSlots.get(row.id)!;
    checkedSlots[path]?.sort((a, b) => a - b);
    expectedSlots[path] = [];
    for (let slot = firstSlot; slot < row.nextCheckAt.getTime(); slot += INTERVAL_MS)
      expectedSlots[path].push(slot);
  }
  return { rows, results, checkedSlots, expectedSlots };
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

// PostgreSQL only: PGlite lives inside one process, so it cannot be shared by two.
describe('two worker processes on one PostgreSQL database', () => {
  const postgres = databases.find((d) => d.name === 'PostgreSQL')!;
  const spawned: ChildProcess[] = [];
  afterAll(() => killLeftovers(spawned));

  it(
    'share the due monitors on the real clock, checking every slot once and missing none',
    { timeout: 60_000 },
    async () => {
      const { database, drop } = await postgres.create();
      if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
      const site = await startTargetServer();
      // A short delay per answer, so one process cannot clear a whole group before the other polls.
      site.behaviour = { ...HEALTHY, delayMs: 50 };
      try {
        const workers = await Promise.all([
          startWorkerProcess(database.connectionString, spawned),
          startWorkerProcess(database.connectionString, spawned),
        ]);

        const start = Date.now() + 1_000;
        const firstSlots = await insertMonitors(database, site.url, MONITOR_COUNT, '/m', start);

        // Stop halfway between the last group's third slot and the first group's fourth: each is 1.75 s away.
        const lastThirdSlot = start + (SLOTS - 1) * INTERVAL_MS + (GROUPS - 1) * GROUP_GAP_MS;
        const firstFourthSlot = start + SLOTS * INTERVAL_MS;
        const stopAt = (lastThirdSlot + firstFourthSlot) / 2;
        await new Promise((resolve) => setTimeout(resolve, stopAt - Date.now()));
        const reports = await Promise.all(workers.map((worker) => worker.stop()));

        const { rows, checkedSlots, expectedSlots } = await slotsOf(database, firstSlots);
        expect(rows).toHaveLength(MONITOR_COUNT);
        expect(checkedSlots).toEqual(expectedSlots);

        // One request per written result: a slot checked twice shows here even when its second write is refused.
        const resultsPerPath = Object.fromEntries(
          Object.entries(checkedSlots).map(([path, slots]) => [path, slots.length]),
        );
        expect(Object.fromEntries(site.hits)).toEqual(resultsPerPath);
        // The two processes' own counts add up to those requests, and each process did part of the work.
        const [first, second] = reports.map((report) => report.checksPerPath);
        const combined: Record<string, number> = {};
        for (const counts of [first!, second!]) {
          for (const [path, checks] of Object.entries(counts))
            combined[path] = (combined[path] ?? 0) + checks;
        }
        expect(combined).toEqual(resultsPerPath);
        // The workers stopped cleanly: every slot they claimed was checked and written.
        expect(rows.filter((row) => row.claimedUntil !== null)).toEqual([]);
        // At least three slots of every monitor passed before the stop, and were all checked.
        expect(Math.min(...Object.values(expectedSlots).map((slots) => slots.length))).toBeGreaterThanOrEqual(
          SLOTS,
        );
        expect(sum(first!)).toBeGreaterThan(0);
        expect(sum(second!)).toBeGreaterThan(0);
      } finally {
        killLeftovers(spawned);
        await site.close();
        await drop();
      }
    },
  );
});

// PostgreSQL only, as above. The claim lease is shortened from 35 s to 3 s (the target answers in 50 ms), so the
// killed worker's claims run out within one 5-second interval: a claim made up to a second ahead lasts 4 s from
// then. Not shorter: a live worker's healthy result is written up to 1.5 s after its slot (the start tick, then
// up to a second waiting to share a write), and on a busy machine a lease ending near that made other workers
// check the same slots again, which this test would count against the killed worker.
describe('three worker processes on one PostgreSQL database, one killed and another started', () => {
  const postgres = databases.find((d) => d.name === 'PostgreSQL')!;
  const spawned: ChildProcess[] = [];
  afterAll(() => killLeftovers(spawned));
  const LEASE_MS = 3_000;
  const MONITORS = 150;

  it(
    "take over the dead worker's slots: every slot checked and written once, none missed",
    { timeout: 90_000 },
    async () => {
      const { database, drop } = await postgres.create();
      if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
      const site = await startTargetServer();
      // Long enough that the killed worker has checks in flight when it dies.
      site.behaviour = { ...HEALTHY, delayMs: 50 };
      const env = { CLAIM_LEASE_MS: String(LEASE_MS) };
      try {
        const [doomed, ...survivors] = await Promise.all(
          [1, 2, 3].map(() => startWorkerProcess(database.connectionString, spawned, env)),
        );
        const start = Date.now() + 1_000;
        const firstSlots = await insertMonitors(database, site.url, MONITORS, '/k', start);

        // Killed as it starts a check of its second round, so it dies holding claims; a new worker starts a
        // second later. Stopped between the last group's fourth slot and the first group's fifth.
        await sleepUntil(start + INTERVAL_MS - 100);
        const firstRound = doomed!.checking().length;
        await doomed!.nextCheck();
        await doomed!.kill();
        const lastRound = doomed!.checking().slice(firstRound);
        await sleepUntil(start + INTERVAL_MS + 1_000);
        const newcomer = await startWorkerProcess(database.connectionString, spawned, env);
        const rounds = 4;
        await sleepUntil(start + rounds * INTERVAL_MS - (INTERVAL_MS - (GROUPS - 1) * GROUP_GAP_MS) / 2);
        const reports = await Promise.all([...survivors, newcomer].map((worker) => worker!.stop()));

        const { rows, results, checkedSlots, expectedSlots } = await slotsOf(database, firstSlots);
        // Every slot of every monitor up to the one it waits for now has its one result: none missed.
        expect(rows).toHaveLength(MONITORS);
        expect(checkedSlots).toEqual(expectedSlots);
        expect(Math.min(...Object.values(expectedSlots).map((slots) => slots.length))).toBeGreaterThanOrEqual(
          rounds,
        );
        expect(rows.filter((row) => row.claimedUntil !== null)).toEqual([]);

        // Requests beyond one per result are only checks the killed worker started in its last round and never
        // wrote (running, or finished and waiting for their batch: a healthy result waits up to a second to share
        // a write), each of a slot whose result another worker wrote after the lease: none was written twice.
        const resultsPerPath = Object.fromEntries(
          Object.entries(checkedSlots).map(([path, slots]) => [path, slots.length]),
        );
        const extra = Object.entries(Object.fromEntries(site.hits)).flatMap(([path, hits]) =>
          Array.from({ length: hits - (resultsPerPath[path] ?? 0) }, () => path),
        );
        expect(extra.length).toBeLessThanOrEqual(lastRound.length);
        for (const path of extra) {
          expect(lastRound).toContain(path);
          expect(resultsPerPath[path]).toBeGreaterThan(0);
        }
        // The survivors' and the newcomer's own counts are the rest of the requests, and all three took part.
        const counted: Record<string, number> = {};
        for (const report of reports) {
          for (const [path, checks] of Object.entries(report.checksPerPath)) {
            counted[path] = (counted[path] ?? 0) + checks;
          }
        }
        const survivorsRequests = sum(counted);
        expect(survivorsRequests).toBeLessThanOrEqual(results.length);
        expect(sum(Object.fromEntries(site.hits)) - survivorsRequests).toBeGreaterThan(0);
        for (const report of reports) expect(sum(report.checksPerPath)).toBeGreaterThan(0);
      } finally {
        killLeftovers(spawned);
        await site.close();
        await drop();
      }
    },
  );
});

function sleepUntil(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
}
