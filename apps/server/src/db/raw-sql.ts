import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './database.ts';
import { namedRunner } from './named-statement.ts';

const dialect = new PgDialect();

/**
 * The rows of a raw statement. Raw answers differ by driver (timestamps, bigints), so raw queries cast every
 * column to int, float8 or text. With a `name`, a hot statement whose text never changes is kept parsed in the
 * database session under it (db/named-statement.ts), except inside a transaction.
 */
export async function rowsOf<T>(db: Db, query: SQL, name?: string): Promise<T[]> {
  const named = name === undefined ? undefined : namedRunner(db);
  if (named) return named<T>(name!, dialect.sqlToQuery(query));
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A Date as a timestamptz parameter. */
export const at = (date: Date): SQL => sql`${date.toISOString()}::timestamptz`;
