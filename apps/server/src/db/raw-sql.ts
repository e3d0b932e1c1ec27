import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './database.ts';

/**
 * The rows of a raw statement. Raw answers differ by driver (timestamps, bigints), so raw queries cast every
 * column to int, float8 or text.
 */
export async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A Date as a timestamptz parameter. */
export const at = (date: Date): SQL => sql`${date.toISOString()}::timestamptz`;
