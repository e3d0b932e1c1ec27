import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { createStore } from '../../db/store.ts';
import { SESSIONS_CHANNEL, type Wakeups } from '../../db/wakeups.ts';
import { DAY_MS, MINUTE_MS } from '../../lib/clock.ts';
import { sha256Hex } from '../../lib/secrets.ts';
import { databases, databaseWithWakeups, type TestDatabase } from '../../test/databases.ts';
import { uniqueEmail } from '../../test/test-app.ts';
import { createTestClock } from '../../test/test-clock.ts';
import { newMonitorKey } from '../auth/auth.service.ts';
import { createSessionCache, type SessionCache } from './session-cache.ts';
import { createSessionService } from './session.service.ts';

/** Far sooner than a cached entry's 30 s: only a notification explains it. */
const PROMPTLY = { timeout: 2_000, interval: 20 };

function suite(testDatabase: TestDatabase) {
  let database: Database;
  /** Another process's connection to the same database, on PostgreSQL; PGlite has only the one. */
  let other: Database;
  let wakeups: Wakeups;
  let tearDown: (() => Promise<void>) | undefined;
  const caches: SessionCache[] = [];

  beforeAll(async () => ({ database, other, wakeups, tearDown } = await databaseWithWakeups(testDatabase)));
  afterEach(() => caches.splice(0).forEach((cache) => cache.close()));
  afterAll(() => tearDown?.());

  /** The session service of this process, its cache, and how often it read and touched sessions. */
  async function service(options: { maxEntries?: number; now?: () => number } = {}) {
    const store = createStore(database.db);
    const cache = await createSessionCache({ wakeups, ...options });
    caches.push(cache);
    const clock = createTestClock();
    const counts = { lookups: 0, touches: 0 };
    const sessions = {
      ...store.sessions,
      findByTokenHash(tokenHash: string) {
        counts.lookups += 1;
        return store.sessions.findByTokenHash(tokenHash);
      },
      touch(id: string, now: Date) {
        counts.touches += 1;
        return store.sessions.touch(id, now);
      },
    };
    const service = createSessionService({ sessions, clock, ttlDays: 30, cache });
    return {
      service,
      cache,
      clock,
      counts,
      /** A new user's session: its token, the answer `authenticate` gives, and its user. */
      async signIn(userId?: string) {
        const id =
          userId ??
          (
            await store.users.insert({
              email: uniqueEmail(),
              passwordHash: null,
              monitorKey: newMonitorKey(),
              now: clock.now(),
            })
          ).id;
        const token = await service.start(store.sessions, id);
        return { token, userId: id, session: await service.authenticate(token) };
      },
      /** Whether the token still authenticates. */
      accepts: (token: string) =>
        service.authenticate(token).then(
          () => true,
          () => false,
        ),
    };
  }

  it('answers a signed-in request from memory, and refuses it within moments of another process deleting the session', async () => {
    const { signIn, accepts, counts } = await service();
    const { token, userId } = await signIn();
    expect(await accepts(token)).toBe(true);
    expect(counts.lookups).toBe(1);

    await other.db.execute(sql`delete from sessions where user_id = ${userId}::uuid`);
    await expect.poll(() => accepts(token), PROMPTLY).toBe(false);
  });

  it('ends a session logged out in this process at once', async () => {
    const { service: sessions, signIn, accepts } = await service();
    const { token, session } = await signIn();
    const { token: otherToken } = await signIn(session.userId);
    await sessions.end(session);
    expect(await accepts(token)).toBe(false);
    expect(await accepts(otherToken)).toBe(true);
  });

  it('ends the other sessions of a password change made elsewhere, and at once when made here', async () => {
    const { service: sessions, signIn, accepts } = await service();
    const kept = await signIn();
    const ended = await signIn(kept.userId);
    await createStore(other.db).transaction((tx) =>
      tx.sessions.deleteOthersOfUser(kept.userId, kept.session.sessionId),
    );
    await expect.poll(() => accepts(ended.token), PROMPTLY).toBe(false);
    expect(await accepts(kept.token)).toBe(true);

    // A reset here: deleted in a transaction, then forgotten by this process without waiting for the NOTIFY.
    await createStore(database.db).transaction((tx) => tx.sessions.deleteAllOfUser(kept.userId));
    sessions.forgetUser(kept.userId);
    expect(await accepts(kept.token)).toBe(false);
  });

  it('answers a monitor key changed elsewhere within moments', async () => {
    const { service: sessions, signIn } = await service();
    const { token, userId } = await signIn();
    const changed = newMonitorKey();
    await other.db.execute(sql`update users set monitor_key = ${changed} where id = ${userId}::uuid`);
    await expect.poll(async () => (await sessions.authenticate(token)).monitorKey, PROMPTLY).toBe(changed);
  });

  it('ends a session it holds 30 days after its last use, writing the last use once a minute', async () => {
    const { signIn, accepts, clock, counts } = await service();
    const { token } = await signIn();
    clock.advance(2 * MINUTE_MS);
    expect(await accepts(token)).toBe(true);
    expect(await accepts(token)).toBe(true);
    // Held all along, and the last use written once: the copy here learnt it.
    expect(counts).toEqual({ lookups: 1, touches: 1 });

    clock.advance(30 * DAY_MS + 1);
    expect(await accepts(token)).toBe(false);
    const [left] = await rowsOf<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from sessions where token_hash = ${sha256Hex(token)}`,
    );
    expect(left!.n).toBe(0);
  });

  it('keeps a session another process used, though the copy here looks idle for too long', async () => {
    const { signIn, accepts, clock } = await service();
    const { token } = await signIn();
    clock.advance(29 * DAY_MS);
    await other.db.execute(
      sql`update sessions set last_used_at = ${clock.now().toISOString()}::timestamptz
            where token_hash = ${sha256Hex(token)}`,
    );
    clock.advance(2 * DAY_MS);
    expect(await accepts(token)).toBe(true);
  });

  it('does not keep a session read while a notification about it arrived', async () => {
    const { cache, signIn } = await service();
    const { token, userId } = await signIn();
    const tokenHash = sha256Hex(token);
    cache.forget(() => true);
    let heard = () => undefined as void;
    const announced = new Promise<void>((resolve) => (heard = resolve));
    // Registered after the cache's own handler, so called after it.
    const unlisten = await wakeups.listen(SESSIONS_CHANNEL, (payload) => payload === tokenHash && heard());
    const store = createStore(database.db);
    try {
      // The row is read, then deleted and announced before the read returns.
      const read = await cache.load(tokenHash, async () => {
        const row = await store.sessions.findByTokenHash(tokenHash);
        await other.db.execute(sql`delete from sessions where user_id = ${userId}::uuid`);
        await announced;
        return row;
      });
      expect(read).toBeDefined();
      expect(cache.get(tokenHash)).toBeUndefined();
    } finally {
      unlisten();
    }
  });

  it('holds a bounded number of sessions, each for a bounded time', async () => {
    let now = 0;
    const { cache, signIn } = await service({ maxEntries: 2, now: () => now });
    const [first, second, third] = [await signIn(), await signIn(), await signIn()].map(({ token }) =>
      sha256Hex(token),
    );
    expect([cache.get(first!), cache.get(second!), cache.get(third!)].map(Boolean)).toEqual([
      false,
      true,
      true,
    ]);
    now += 30_000;
    expect(cache.get(third!)).toBeUndefined();
  });
}

describe.each(databases)('the session cache on $name', suite);

// PostgreSQL only: PGlite runs inside the process, with no connection that could be cut.
describe('the session cache on PostgreSQL while the listening connection is cut', () => {
  let database: Database;
  let other: Database;
  let wakeups: Wakeups;
  let tearDown: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ database, other, wakeups, tearDown } = await databaseWithWakeups(
      databases.find((d) => d.name === 'PostgreSQL')!,
    ));
  });
  afterAll(() => tearDown?.());

  it('reads every session while it cannot hear of deletions, and holds them again once it can', async () => {
    const store = createStore(database.db);
    const cache = await createSessionCache({ wakeups });
    let lookups = 0;
    const sessions = createSessionService({
      sessions: {
        ...store.sessions,
        findByTokenHash(tokenHash) {
          lookups += 1;
          return store.sessions.findByTokenHash(tokenHash);
        },
      },
      clock: createTestClock(),
      ttlDays: 30,
      cache,
    });
    const signIn = async () => {
      const user = await store.users.insert({
        email: uniqueEmail(),
        passwordHash: null,
        monitorKey: newMonitorKey(),
        now: new Date(),
      });
      return { userId: user.id, token: await sessions.start(store.sessions, user.id) };
    };
    try {
      const before = await signIn();
      await sessions.authenticate(before.token);
      await sessions.authenticate(before.token);
      expect(lookups).toBe(1);

      const [cut] = await rowsOf<{ n: number }>(
        other.db,
        sql`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
              where application_name = 'vigil-wakeups' and datname = current_database()`,
      );
      expect(cut!.n).toBe(1);
      await expect.poll(() => wakeups.isListening(SESSIONS_CHANNEL), PROMPTLY).toBe(false);
      // The connection comes back after half a second: until then every request reads its session.
      await sessions.authenticate(before.token);
      await sessions.authenticate(before.token);
      expect(lookups).toBe(3);
      await other.db.execute(sql`delete from sessions where user_id = ${before.userId}::uuid`);
      await expect(sessions.authenticate(before.token)).rejects.toThrow('Your session has ended');

      await expect.poll(() => wakeups.isListening(SESSIONS_CHANNEL), PROMPTLY).toBe(true);
      const after = await signIn();
      lookups = 0;
      await sessions.authenticate(after.token);
      await sessions.authenticate(after.token);
      expect(lookups).toBe(1);
    } finally {
      cache.close();
    }
  });
});
