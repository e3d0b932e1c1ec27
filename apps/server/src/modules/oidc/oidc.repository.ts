import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { oidcLoginRequests, userIdentities } from '../../db/schema.ts';

export type OidcLoginRequest = typeof oidcLoginRequests.$inferSelect;

export function createOidcRepository(db: Db) {
  return {
    async saveRequest(request: OidcLoginRequest): Promise<void> {
      // Abandoned sign-ins are cleared as new ones start, so the table stays the size of ten minutes of traffic.
      await db.delete(oidcLoginRequests).where(lt(oidcLoginRequests.expiresAt, request.createdAt));
      await db.insert(oidcLoginRequests).values(request);
    },

    /** Removes and returns the request: a state works once, whatever happens next. */
    async takeRequest(state: string): Promise<OidcLoginRequest | undefined> {
      const [row] = await db.delete(oidcLoginRequests).where(eq(oidcLoginRequests.state, state)).returning();
      return row;
    },

    async findUserIdByIdentity(issuer: string, subject: string): Promise<string | undefined> {
      const [row] = await db
        .select({ userId: userIdentities.userId })
        .from(userIdentities)
        .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)));
      return row?.userId;
    },

    async linkIdentity(identity: {
      userId: string;
      issuer: string;
      subject: string;
      email: string;
      now: Date;
    }): Promise<void> {
      await db.insert(userIdentities).values({
        userId: identity.userId,
        issuer: identity.issuer,
        subject: identity.subject,
        email: identity.email,
        createdAt: identity.now,
      });
    },
  };
}
export type OidcRepository = ReturnType<typeof createOidcRepository>;
