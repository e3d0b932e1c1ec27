import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { contactVerifications, verifiedContacts } from '../../db/schema.ts';

export type ContactVerificationRow = typeof contactVerifications.$inferSelect;
export type VerifiedContactRow = typeof verifiedContacts.$inferSelect;

export interface ContactKey {
  userId: string;
  channel: string;
  address: string;
}

const sameContact = (key: ContactKey) =>
  and(
    eq(contactVerifications.userId, key.userId),
    eq(contactVerifications.channel, key.channel),
    eq(contactVerifications.address, key.address),
  );

/** Codes sent to prove a contact, and the contacts proved. */
export function createContactRepository(db: Db) {
  return {
    /** Voids the unused codes for this contact: only the newest message's code works. */
    async voidActive(key: ContactKey, now: Date): Promise<void> {
      await db
        .update(contactVerifications)
        .set({ consumedAt: now })
        .where(and(sameContact(key), isNull(contactVerifications.consumedAt)));
    },

    async insertCode(key: ContactKey, codeHash: string, now: Date, expiresAt: Date): Promise<void> {
      await db.insert(contactVerifications).values({ ...key, codeHash, createdAt: now, expiresAt });
    },

    async findUnused(key: ContactKey): Promise<ContactVerificationRow | undefined> {
      const [row] = await db
        .select()
        .from(contactVerifications)
        .where(and(sameContact(key), isNull(contactVerifications.consumedAt)))
        .orderBy(desc(contactVerifications.createdAt))
        .limit(1);
      return row;
    },

    /** Counts a wrong try; the try that reaches `maxAttempts` burns the code. Returns the tries so far. */
    async recordFailure(id: string, now: Date, maxAttempts: number): Promise<number> {
      const [row] = await db
        .update(contactVerifications)
        .set({
          failedAttempts: sql`${contactVerifications.failedAttempts} + 1`,
          consumedAt: sql`case when ${contactVerifications.failedAttempts} + 1 >= ${maxAttempts} then ${now.toISOString()}::timestamptz else null end`,
        })
        .where(and(eq(contactVerifications.id, id), isNull(contactVerifications.consumedAt)))
        .returning({ failedAttempts: contactVerifications.failedAttempts });
      return row?.failedAttempts ?? maxAttempts;
    },

    /** Marks the code used; false when another request used or burned it first. */
    async consume(id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(contactVerifications)
        .set({ consumedAt: now })
        .where(and(eq(contactVerifications.id, id), isNull(contactVerifications.consumedAt)))
        .returning({ id: contactVerifications.id });
      return rows.length === 1;
    },

    async markVerified(key: ContactKey, now: Date): Promise<void> {
      await db
        .insert(verifiedContacts)
        .values({ ...key, verifiedAt: now })
        .onConflictDoNothing({
          target: [verifiedContacts.userId, verifiedContacts.channel, verifiedContacts.address],
        });
    },

    async isVerified(key: ContactKey): Promise<boolean> {
      const [row] = await db
        .select({ address: verifiedContacts.address })
        .from(verifiedContacts)
        .where(
          and(
            eq(verifiedContacts.userId, key.userId),
            eq(verifiedContacts.channel, key.channel),
            eq(verifiedContacts.address, key.address),
          ),
        );
      return row !== undefined;
    },

    async verifiedOfUser(userId: string): Promise<VerifiedContactRow[]> {
      return db
        .select()
        .from(verifiedContacts)
        .where(eq(verifiedContacts.userId, userId))
        .orderBy(asc(verifiedContacts.channel), asc(verifiedContacts.address));
    },
  };
}
export type ContactRepository = ReturnType<typeof createContactRepository>;
