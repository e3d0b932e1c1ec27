import { and, asc, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { billingAccounts, planOrders, stripeEvents, users } from '../../db/schema.ts';

export type PlanOrderRow = typeof planOrders.$inferSelect;
export type BillingAccountRow = typeof billingAccounts.$inferSelect;
export type StripeEventRow = typeof stripeEvents.$inferSelect;

export type BillingAccountPatch = Partial<
  Omit<BillingAccountRow, 'userId' | 'customerId' | 'createdAt' | 'updatedAt'>
>;

/** Plan orders, the person's Stripe customer and subscription, and the Stripe events received. */
export function createBillingRepository(db: Db) {
  return {
    /** Holds the person's row until the transaction ends, so their orders and plan change one at a time. */
    async lockUser(userId: string): Promise<boolean> {
      const rows = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      return rows.length > 0;
    },

    async insertOrder(order: typeof planOrders.$inferInsert): Promise<PlanOrderRow> {
      const [row] = await db.insert(planOrders).values(order).returning();
      return row!;
    },

    async findOrder(id: string): Promise<PlanOrderRow | undefined> {
      const [row] = await db.select().from(planOrders).where(eq(planOrders.id, id));
      return row;
    },

    /** A pending order of the same plan and period made since `since`: a double click or a retry reuses it. */
    async reusableOrder(
      userId: string,
      plan: string,
      period: string,
      since: Date,
    ): Promise<PlanOrderRow | undefined> {
      const [row] = await db
        .select()
        .from(planOrders)
        .where(
          and(
            eq(planOrders.userId, userId),
            eq(planOrders.plan, plan),
            eq(planOrders.period, period),
            eq(planOrders.status, 'pending'),
            gt(planOrders.createdAt, since),
          ),
        )
        .orderBy(desc(planOrders.createdAt))
        .limit(1);
      return row;
    },

    /** Records the Checkout Session of an order that has none yet (a racing twin got the same one). */
    async setCheckout(id: string, session: { id: string; url: string }, now: Date): Promise<void> {
      await db
        .update(planOrders)
        .set({ checkoutSessionId: session.id, checkoutUrl: session.url, updatedAt: now })
        .where(and(eq(planOrders.id, id), isNull(planOrders.checkoutSessionId)));
    },

    async updateOrder(
      id: string,
      patch: Partial<
        Pick<
          PlanOrderRow,
          'status' | 'failureReason' | 'failureMessage' | 'subscriptionId' | 'activatedAt' | 'checkoutUrl'
        >
      >,
      now: Date,
    ): Promise<void> {
      await db
        .update(planOrders)
        .set({ ...patch, updatedAt: now })
        .where(eq(planOrders.id, id));
    },

    async findAccount(userId: string): Promise<BillingAccountRow | undefined> {
      const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.userId, userId));
      return row;
    },

    async findAccountByCustomer(customerId: string): Promise<BillingAccountRow | undefined> {
      const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.customerId, customerId));
      return row;
    },

    /** The person's Stripe customer, unless one was recorded first (then that one is kept and returned). */
    async insertAccount(userId: string, customerId: string, now: Date): Promise<BillingAccountRow> {
      await db
        .insert(billingAccounts)
        .values({ userId, customerId, createdAt: now, updatedAt: now })
        .onConflictDoNothing();
      const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.userId, userId));
      return row!;
    },

    async updateAccount(userId: string, patch: BillingAccountPatch, now: Date): Promise<void> {
      await db
        .update(billingAccounts)
        .set({ ...patch, updatedAt: now })
        .where(eq(billingAccounts.userId, userId));
    },

    /** Records a verified event; false when its id was received before (a retry or a replay). */
    async insertEvent(event: { id: string; type: string; payload: unknown; now: Date }): Promise<boolean> {
      const rows = await db
        .insert(stripeEvents)
        .values({ id: event.id, type: event.type, payload: event.payload, receivedAt: event.now })
        .onConflictDoNothing()
        .returning({ id: stripeEvents.id });
      return rows.length > 0;
    },

    /** The event, locked until the transaction ends so two workers never apply it together. */
    async lockEvent(id: string): Promise<StripeEventRow | undefined> {
      const [row] = await db.select().from(stripeEvents).where(eq(stripeEvents.id, id)).for('update');
      return row;
    },

    async markApplied(id: string, outcome: string, now: Date): Promise<void> {
      await db.update(stripeEvents).set({ appliedAt: now, outcome }).where(eq(stripeEvents.id, id));
    },

    /** Events received before `before` and not applied yet: a lost job or a dead worker left them. */
    async unapplied(before: Date, limit: number): Promise<string[]> {
      const rows = await db
        .select({ id: stripeEvents.id })
        .from(stripeEvents)
        .where(and(isNull(stripeEvents.appliedAt), lt(stripeEvents.receivedAt, before)))
        .orderBy(asc(stripeEvents.receivedAt))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    async deleteAppliedBefore(before: Date): Promise<void> {
      await db
        .delete(stripeEvents)
        .where(and(sql`${stripeEvents.appliedAt} is not null`, lt(stripeEvents.receivedAt, before)));
    },
  };
}
export type BillingRepository = ReturnType<typeof createBillingRepository>;
