import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { at } from '../../db/raw-sql.ts';
import { monitors, oauthBindStates, providerConnections, webhookEvents } from '../../db/schema.ts';

export type ConnectionRow = typeof providerConnections.$inferSelect;
export type BindStateRow = typeof oauthBindStates.$inferSelect;

/** What binding learned about an account: kept on the connection. */
export interface AccountGrant {
  provider: string;
  account: string;
  name: string;
  scopes: string[];
  tokenCiphertext: string;
  details: Record<string, unknown>;
  /** When the token ends; null when it does not. */
  tokenExpiresAt: Date | null;
}

// Spelled out: drizzle leaves the columns of a one-table select unqualified, which inside the subquery would
// name the monitor's own id.
const monitorsUsing = sql<number>`(select count(*) from monitors as m where m.connection_id = provider_connections.id)::int`;

/** Connections, binding states and the monitors that watch through a connection. */
export function createConnectionRepository(db: Db) {
  async function upsertOwned(userId: string, grant: AccountGrant, now: Date): Promise<ConnectionRow> {
    const [row] = await db
      .insert(providerConnections)
      .values({ ...grant, userId, status: 'active', statusChangedAt: now, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [providerConnections.userId, providerConnections.provider, providerConnections.account],
        targetWhere: sql`user_id is not null`,
        set: {
          name: grant.name,
          scopes: grant.scopes,
          tokenCiphertext: grant.tokenCiphertext,
          tokenExpiresAt: grant.tokenExpiresAt,
          details: grant.details,
          status: 'active',
          statusReason: null,
          statusChangedAt: now,
          dataChangedAt: now,
          updatedAt: now,
        },
      })
      .returning();
    return row!;
  }

  return {
    async insertState(state: BindStateRow): Promise<void> {
      await db.insert(oauthBindStates).values(state);
    },

    /** A valid binding state, left in place: which provider an answer is from, before it is checked. */
    async findState(stateHash: string, now: Date): Promise<BindStateRow | undefined> {
      const [row] = await db
        .select()
        .from(oauthBindStates)
        .where(and(eq(oauthBindStates.stateHash, stateHash), sql`${oauthBindStates.expiresAt} > ${at(now)}`));
      return row;
    },

    /**
     * Takes a binding state once: it is deleted as it is read. A state started by a signed-in person is taken
     * only by that person; an install's state (no person) by anyone holding it.
     */
    async takeState(stateHash: string, userId: string | null, now: Date): Promise<BindStateRow | undefined> {
      const [row] = await db
        .delete(oauthBindStates)
        .where(
          and(
            eq(oauthBindStates.stateHash, stateHash),
            sql`${oauthBindStates.expiresAt} > ${at(now)}`,
            userId === null
              ? isNull(oauthBindStates.userId)
              : sql`(${oauthBindStates.userId} is null or ${oauthBindStates.userId} = ${userId})`,
          ),
        )
        .returning();
      return row;
    },

    async deleteExpiredStates(now: Date): Promise<void> {
      await db.delete(oauthBindStates).where(sql`${oauthBindStates.expiresAt} <= ${at(now)}`);
    },

    upsertOwned,

    async insertHeld(
      grant: AccountGrant,
      held: { keyHash: string; browserHash: string; until: Date },
      now: Date,
    ): Promise<ConnectionRow> {
      const [row] = await db
        .insert(providerConnections)
        .values({
          ...grant,
          userId: null,
          status: 'active',
          heldKeyHash: held.keyHash,
          heldBrowserHash: held.browserHash,
          heldUntil: held.until,
          statusChangedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return row!;
    },

    /** Locks a held connection by its key while it is valid. */
    async lockHeld(keyHash: string, now: Date): Promise<ConnectionRow | undefined> {
      const [row] = await db
        .select()
        .from(providerConnections)
        .where(
          and(
            eq(providerConnections.heldKeyHash, keyHash),
            isNull(providerConnections.userId),
            sql`${providerConnections.heldUntil} > ${at(now)}`,
          ),
        )
        .for('update');
      return row;
    },

    async deleteById(id: string): Promise<void> {
      await db.delete(providerConnections).where(eq(providerConnections.id, id));
    },

    async deleteExpiredHeld(now: Date): Promise<void> {
      await db
        .delete(providerConnections)
        .where(and(isNull(providerConnections.userId), sql`${providerConnections.heldUntil} <= ${at(now)}`));
    },

    async listOwned(userId: string, provider?: string) {
      return db
        .select({ row: providerConnections, monitors: monitorsUsing })
        .from(providerConnections)
        .where(
          and(
            eq(providerConnections.userId, userId),
            provider ? eq(providerConnections.provider, provider) : undefined,
          ),
        )
        .orderBy(providerConnections.createdAt);
    },

    async findOwned(userId: string, id: string) {
      const [found] = await db
        .select({ row: providerConnections, monitors: monitorsUsing })
        .from(providerConnections)
        .where(and(eq(providerConnections.userId, userId), eq(providerConnections.id, id)));
      return found;
    },

    async findMany(ids: string[]): Promise<ConnectionRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(providerConnections).where(inArray(providerConnections.id, ids));
    },

    async byAccount(provider: string, account: string): Promise<ConnectionRow[]> {
      return db
        .select()
        .from(providerConnections)
        .where(and(eq(providerConnections.provider, provider), eq(providerConnections.account, account)));
    },

    /** The provider refused the token, or the person disconnected: the token is dropped either way. */
    async setStatus(
      ids: string[],
      status: 'lost' | 'disconnected',
      reason: string,
      now: Date,
    ): Promise<ConnectionRow[]> {
      if (ids.length === 0) return [];
      return db
        .update(providerConnections)
        .set({ status, statusReason: reason, statusChangedAt: now, tokenCiphertext: null, updatedAt: now })
        .where(and(inArray(providerConnections.id, ids), eq(providerConnections.status, 'active')))
        .returning();
    },

    async touchData(ids: string[], now: Date): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(providerConnections)
        .set({ dataChangedAt: now })
        .where(inArray(providerConnections.id, ids));
    },

    async deleteMany(ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.delete(monitors).where(inArray(monitors.connectionId, ids));
      await db.delete(providerConnections).where(inArray(providerConnections.id, ids));
    },

    /** Targets of the running monitors on a connection: what its shop's checks must read. */
    async watchedTargets(connectionId: string): Promise<unknown[]> {
      const rows = await db
        .select({ target: monitors.target })
        .from(monitors)
        .where(and(eq(monitors.connectionId, connectionId), eq(monitors.paused, false)));
      return rows.map((row) => row.target);
    },

    /** Running monitors on these connections whose target contains `fragment` (jsonb containment). */
    async monitorsWatching(connectionIds: string[], fragment?: unknown): Promise<string[]> {
      if (connectionIds.length === 0) return [];
      const rows = await db
        .select({ id: monitors.id })
        .from(monitors)
        .where(
          and(
            inArray(monitors.connectionId, connectionIds),
            eq(monitors.paused, false),
            fragment === undefined
              ? undefined
              : sql`${monitors.target} @> ${JSON.stringify(fragment)}::jsonb`,
          ),
        );
      return rows.map((row) => row.id);
    },

    /** Records a provider webhook's id; false when it was already recorded (a retried delivery). */
    async recordWebhook(event: typeof webhookEvents.$inferInsert): Promise<boolean> {
      const rows = await db
        .insert(webhookEvents)
        .values(event)
        .onConflictDoNothing()
        .returning({ id: webhookEvents.eventId });
      return rows.length > 0;
    },

    async deleteWebhooksBefore(before: Date): Promise<void> {
      await db.delete(webhookEvents).where(sql`${webhookEvents.receivedAt} < ${at(before)}`);
    },

    async attachMonitor(
      userId: string,
      monitorId: string,
      connectionId: string,
      now: Date,
    ): Promise<boolean> {
      const rows = await db
        .update(monitors)
        .set({
          connectionId,
          target: sql`jsonb_set(${monitors.target}, '{connectionId}', to_jsonb(${connectionId}::text))`,
          nextCheckAt: now,
          updatedAt: now,
        })
        .where(and(eq(monitors.userId, userId), eq(monitors.id, monitorId)))
        .returning({ id: monitors.id });
      return rows.length > 0;
    },
  };
}
export type ConnectionRepository = ReturnType<typeof createConnectionRepository>;
