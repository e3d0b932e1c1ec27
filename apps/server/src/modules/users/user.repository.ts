import { and, eq, sql, type AnyColumn } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;

export interface NewUser {
  email: string;
  passwordHash: string | null;
  monitorKey: string;
  now: Date;
}

export type UserPatch = Partial<
  Pick<UserRow, 'industry' | 'telPhone' | 'contactEmail' | 'plan' | 'planExpiresAt' | 'passwordHash'>
>;

export function createUserRepository(db: Db) {
  return {
    async insert(user: NewUser): Promise<UserRow> {
      const [row] = await db
        .insert(users)
        .values({
          email: user.email,
          passwordHash: user.passwordHash,
          monitorKey: user.monitorKey,
          plan: 'Free',
          planExpiresAt: null,
          createdAt: user.now,
          updatedAt: user.now,
        })
        .returning();
      return row!;
    },

    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },

    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email));
      return row;
    },

    async update(id: string, patch: UserPatch, now: Date): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...patch, updatedAt: now })
        .where(eq(users.id, id))
        .returning();
      return row;
    },

    /**
     * `update`, but only when the account is left with a contact phone or a contact email: checked in the same
     * statement, so two requests each clearing one contact cannot leave none. Undefined when refused or gone.
     */
    async updateKeepingAContact(id: string, patch: UserPatch, now: Date): Promise<UserRow | undefined> {
      const after = (column: AnyColumn, value: string | null | undefined) =>
        value === undefined ? sql`${column}` : sql`${value}::text`;
      const [row] = await db
        .update(users)
        .set({ ...patch, updatedAt: now })
        .where(
          and(
            eq(users.id, id),
            sql`coalesce(${after(users.telPhone, patch.telPhone)}, ${after(users.contactEmail, patch.contactEmail)}) is not null`,
          ),
        )
        .returning();
      return row;
    },
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;
