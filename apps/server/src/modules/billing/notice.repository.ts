import { and, asc, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { accountNotices } from '../../db/schema.ts';

export type AccountNoticeRow = typeof accountNotices.$inferSelect;

export interface NewAccountNotice {
  userId: string;
  /** Makes the notice once: a second notice under the same key is ignored. */
  key: string;
  recipient: string;
  subject: string;
  text: string;
  now: Date;
}

/** Emails about the account, written in the transaction that decides them and sent by `send-account-notice`. */
export function createNoticeRepository(db: Db) {
  return {
    /** The new notice's id; null when a notice with this key was written before. */
    async add(notice: NewAccountNotice): Promise<string | null> {
      const [row] = await db
        .insert(accountNotices)
        .values({
          userId: notice.userId,
          key: notice.key,
          recipient: notice.recipient,
          subject: notice.subject,
          text: notice.text,
          createdAt: notice.now,
        })
        .onConflictDoNothing({ target: accountNotices.key })
        .returning({ id: accountNotices.id });
      return row?.id ?? null;
    },

    async find(id: string): Promise<AccountNoticeRow | undefined> {
      const [row] = await db.select().from(accountNotices).where(eq(accountNotices.id, id));
      return row;
    },

    /** Ids of notices not sent yet, oldest first; `createdBefore`/`createdAfter` bound when they were written. */
    async unsent(
      limit: number,
      window: { createdBefore?: Date; createdAfter?: Date } = {},
    ): Promise<string[]> {
      const rows = await db
        .select({ id: accountNotices.id })
        .from(accountNotices)
        .where(
          and(
            isNull(accountNotices.sentAt),
            window.createdBefore ? lt(accountNotices.createdAt, window.createdBefore) : undefined,
            window.createdAfter ? gt(accountNotices.createdAt, window.createdAfter) : undefined,
          ),
        )
        .orderBy(asc(accountNotices.createdAt))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    /** False when it was marked sent before (another job sent it). */
    async markSent(id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(accountNotices)
        .set({ sentAt: now })
        .where(and(eq(accountNotices.id, id), isNull(accountNotices.sentAt)))
        .returning({ id: accountNotices.id });
      return rows.length > 0;
    },
  };
}
export type NoticeRepository = ReturnType<typeof createNoticeRepository>;
