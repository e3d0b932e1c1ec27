import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { serverSecrets } from '../../db/schema.ts';

export function createServerSecretRepository(db: Db) {
  return {
    /**
     * The secret called `name`, made from `create()` by whichever process asks first: the insert does nothing
     * when another process got there before, and the value is read back, so every process shares one.
     */
    async getOrCreate(name: string, create: () => string, now: Date): Promise<string> {
      await db
        .insert(serverSecrets)
        .values({ name, value: create(), createdAt: now })
        .onConflictDoNothing({ target: serverSecrets.name });
      const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
      return row!.value;
    },
  };
}
export type ServerSecretRepository = ReturnType<typeof createServerSecretRepository>;
