import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { createStore } from '../db/store.ts';
import { HOUR_MS, MINUTE_MS } from '../lib/clock.ts';
import { countCheck, type HourlyTally } from '../modules/monitors/uptime-tally.ts';
import { databases } from '../test/databases.ts';
import { insertMonitor, monitorRow, userWithVerifiedEmail } from '../test/engine-kit.ts';
import { createCheckRepository } from './check.repository.ts';

const H = new Date('2026-03-01T10:00:00Z').getTime();
const FAR = new Date('2100-01-01T00:00:00Z');

/** A walk of checks: mostly a minute apart, with new hours, gaps of hours and days, and late writes. */
function walk(): [number, boolean][] {
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const steps = [MINUTE_MS, 17 * MINUTE_MS, HOUR_MS, 5 * HOUR_MS, 23 * HOUR_MS, 30 * HOUR_MS, -HOUR_MS];
  const checks: [number, boolean][] = [];
  let time = H;
  for (let i = 0; i < 60; i++) {
    const step = random() < 0.6 ? MINUTE_MS : steps[Math.floor(random() * steps.length)]!;
    time += step;
    // A late write reaches back (the check started before the newest counted hour), some past the 24 hours.
    const late = random() < 0.1 ? -Math.floor(random() * 30) * HOUR_MS : 0;
    checks.push([time + late, random() < 0.7]);
  }
  return checks;
}

describe.each(databases)(
  'the engine’s write counts the hourly tally as countCheck does, on $name',
  (kind) => {
    let database: Database;
    let drop: () => Promise<void>;
    let repository: ReturnType<typeof createCheckRepository>;

    beforeAll(async () => {
      ({ database, drop } = await kind.create());
      repository = createCheckRepository(database.db);
    });
    afterAll(() => drop());

    async function newMonitor() {
      const owner = await userWithVerifiedEmail(createStore(database.db), new Date(H));
      return insertMonitor(database.db, {
        userId: owner.id,
        email: owner.email,
        url: 'http://x',
        nextCheckAt: new Date(H),
      });
    }

    /** Claims the monitor's slot and writes one check of it started at `checkedAt`, as the engine does. */
    async function check(monitorId: string, checkedAt: Date, ok: boolean) {
      const [claimed] = await repository.claimDue({
        now: checkedAt,
        dueBy: FAR,
        leaseUntil: new Date(checkedAt.getTime() + MINUTE_MS),
        limit: 1,
        services: ['website'],
      });
      expect(claimed?.id).toBe(monitorId);
      const moved = await repository.record([
        {
          monitorId,
          slotText: claimed!.slotText,
          nextCheckAt: new Date(claimed!.slotAt.getTime() + MINUTE_MS),
          checkedAt,
          ok,
          responseMs: ok ? 80 : null,
          statusCode: ok ? 200 : 503,
          failedConditions: ok ? [] : ['http_status'],
          error: ok ? null : 'HTTP 503',
          status: ok ? 'up' : 'down',
          checkState: {},
        },
      ]);
      expect([...moved]).toEqual([monitorId]);
    }

    async function tallyOf(monitorId: string): Promise<HourlyTally> {
      const row = await monitorRow(database.db, monitorId);
      return { hour: row.tallyHour, checks: row.tallyChecks, failures: row.tallyFailures };
    }

    it('through first checks, new hours, gaps of hours and days, and late writes', async () => {
      const monitorId = await newMonitor();
      let expected: HourlyTally = await tallyOf(monitorId);
      expect(expected).toEqual({ hour: null, checks: [], failures: [] });
      for (const [ms, ok] of walk()) {
        await check(monitorId, new Date(ms), ok);
        expected = countCheck(expected, new Date(ms), ok);
        expect(await tallyOf(monitorId), new Date(ms).toISOString()).toEqual(expected);
      }
    });

    it('counts a late write in the oldest of the 24 hours, and leaves out one an hour older', async () => {
      const monitorId = await newMonitor();
      let expected = await tallyOf(monitorId);
      for (const ms of [H + 30 * MINUTE_MS, H - 23 * HOUR_MS, H - 24 * HOUR_MS + 59 * MINUTE_MS]) {
        await check(monitorId, new Date(ms), false);
        expected = countCheck(expected, new Date(ms), false);
        expect(await tallyOf(monitorId)).toEqual(expected);
      }
      expect(expected.checks[0]).toBe(1);
      expect(expected.checks[23]).toBe(1);
      expect(expected.failures.reduce((a, b) => a + b)).toBe(2);
    });

    it('from a row whose arrays are shorter than the 24 hours', async () => {
      const monitorId = await newMonitor();
      await database.db.execute(
        sql`update monitors set tally_hour = ${new Date(H).toISOString()}, tally_checks = '{3,60}',
            tally_failures = '{1,0}' where id = ${monitorId}`,
      );
      let expected = await tallyOf(monitorId);
      for (const ms of [H + 5 * MINUTE_MS, H + HOUR_MS, H - HOUR_MS]) {
        await check(monitorId, new Date(ms), false);
        expected = countCheck(expected, new Date(ms), false);
        expect(await tallyOf(monitorId)).toEqual(expected);
      }
      expect(expected.checks.slice(0, 3)).toEqual([1, 4, 61]);
    });
  },
);

describe.each(databases)('the claim on $name', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ database, drop } = await kind.create());
  });
  afterAll(() => drop());

  it('walks from a given slot on, leaving earlier ones to a claim from the start', async () => {
    const owner = await userWithVerifiedEmail(createStore(database.db), new Date(H));
    const ids: string[] = [];
    for (const ms of [0, 1, 1_000, 2_000])
      ids.push(
        await insertMonitor(database.db, {
          userId: owner.id,
          email: owner.email,
          url: 'http://x',
          nextCheckAt: new Date(H + ms),
        }),
      );
    const repository = createCheckRepository(database.db);
    const claim = (from?: string) =>
      repository.claimDue({
        now: new Date(H + 5_000),
        leaseUntil: new Date(H + MINUTE_MS),
        limit: 10,
        services: ['website'],
        from,
      });

    const fromSlot = await claim(new Date(H + 1_000).toISOString());
    expect(fromSlot.map((m) => m.id).sort()).toEqual([ids[2], ids[3]].sort());
    // The millisecond before it is not taken by the walk from it, but by the next from the start.
    const fromStart = await claim();
    expect(fromStart.map((m) => m.id).sort()).toEqual([ids[0], ids[1]].sort());
  });
});
