import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { sessions, users } from '../../db/schema.ts';

export interface SessionWithUser {
  id: string;
  userId: string;
  lastUsedAt: Date;
  monitorKey: string;
}

/** The lookup behind every signed-in request, prepared once per connection (planned and built once). */
function prepareLookup(db: Db) {
  return db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      lastUsedAt: sessions.lastUsedAt,
      monitorKey: users.monitorKey,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .prepare('session_by_token_hash');
}

export function createSessionRepository(db: Db) {
  let lookup: ReturnType<typeof prepareLookup> | undefined;
  return {
    async insert(session: { userId: string; tokenHash: string; now: Date }): Promise<void> {
      await db.insert(sessions).values({
        userId: session.userId,
        tokenHash: session.tokenHash,
        createdAt: session.now,
        lastUsedAt: session.now,
      });
    },

    async findByTokenHash(tokenHash: string): Promise<SessionWithUser | undefined> {
      const [row] = await (lookup ??= prepareLookup(db)).execute({ tokenHash });
      return row;
    },

    async touch(id: string, now: Date): Promise<void> {
      await db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, id));
    },

    async delete(id: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.id, id));
    },

    async deleteAllOfUser(userId: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.userId, userId));
    },

    async deleteOthersOfUser(userId: string, keepId: string): Promise<void> {
      await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)));
    },
  };
}
export type SessionRepository = ReturnType<typeof createSessionRepository>;
