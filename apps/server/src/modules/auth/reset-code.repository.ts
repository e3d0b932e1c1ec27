import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { passwordResetCodes } from '../../db/schema.ts';

export type ResetCodeRow = typeof passwordResetCodes.$inferSelect;

export function createResetCodeRepository(db: Db) {
  return {
    /** Voids every unused code of the user: only the newest email's code works. */
    async voidActive(userId: string, now: Date): Promise<void> {
      await db
        .update(passwordResetCodes)
        .set({ consumedAt: now })
        .where(and(eq(passwordResetCodes.userId, userId), isNull(passwordResetCodes.consumedAt)));
    },

    async insert(code: { userId: string; codeHash: string; now: Date; expiresAt: Date }): Promise<void> {
      await db.insert(passwordResetCodes).values({
        userId: code.userId,
        codeHash: code.codeHash,
        createdAt: code.now,
        expiresAt: code.expiresAt,
      });
    },

    async findUnused(userId: string): Promise<ResetCodeRow | undefined> {
      const [row] = await db
        .select()
        .from(passwordResetCodes)
        .where(and(eq(passwordResetCodes.userId, userId), isNull(passwordResetCodes.consumedAt)))
        .orderBy(desc(passwordResetCodes.createdAt))
        .limit(1);
      return row;
    },

    /** Counts a wrong try; the try that reaches `maxAttempts` burns the code. Returns the tries so far. */
    async recordFailure(id: string, now: Date, maxAttempts: number): Promise<number> {
      const [row] = await db
        .update(passwordResetCodes)
        .set({
          failedAttempts: sql`${passwordResetCodes.failedAttempts} + 1`,
          consumedAt: sql`case when ${passwordResetCodes.failedAttempts} + 1 >= ${maxAttempts} then ${now.toISOString()}::timestamptz else null end`,
        })
        .where(and(eq(passwordResetCodes.id, id), isNull(passwordResetCodes.consumedAt)))
        .returning({ failedAttempts: passwordResetCodes.failedAttempts });
      return row?.failedAttempts ?? maxAttempts;
    },

    /** Marks the code used; false when another request used or burned it first. */
    async consume(id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(passwordResetCodes)
        .set({ consumedAt: now })
        .where(and(eq(passwordResetCodes.id, id), isNull(passwordResetCodes.consumedAt)))
        .returning({ id: passwordResetCodes.id });
      return rows.length === 1;
    },
  };
}
export type ResetCodeRepository = ReturnType<typeof createResetCodeRepository>;
