import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases } from '../test/databases.ts';
import type { Database, Db } from './database.ts';
import { rowsOf } from './raw-sql.ts';

describe('openDatabase() on PostgreSQL', () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ database, drop } = await databases.find((db) => db.name === 'PostgreSQL')!.create());
  });
  afterAll(() => drop());

  it('a transaction whose connection the server ends fails, and the process and the pool carry on', async () => {
    const { db } = database;
    const ended = db.transaction(async (tx) => {
      const [own] = await rowsOf<{ pid: number }>(tx as unknown as Db, sql`select pg_backend_pid() as pid`);
      // Another connection ends this one, as a PostgreSQL restart ends every connection.
      await rowsOf(db, sql`select pg_terminate_backend(${own!.pid})`);
      await rowsOf(tx as unknown as Db, sql`select pg_sleep(1)`);
    });
    await expect(ended).rejects.toThrow();
    await expect(database.ping()).resolves.toBeUndefined();
  });
});
