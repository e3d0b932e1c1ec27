import { Column, fillPlaceholders, is, type Query, type SQL } from 'drizzle-orm';
import type { Db } from './database.ts';
import { namedRunner } from './named-statement.ts';

const asArrays = { rowMode: 'array' as const };

/**
 * A statement run by the driver itself, its rows as arrays and its timestamps as PostgreSQL's text (as drizzle's
 * drivers give them), kept parsed under `name` (db/named-statement.ts). For the hottest reads: a page of 20
 * monitors costs the API process ~0.1 ms less CPU than through drizzle's row mapping, which looks up each cell's
 * decoder anew (bench/README.md, "API with 100,000 monitors stored"). `query` is a drizzle query's `toSQL()`, its
 * placeholders filled at each call from the fields of `values` that name them. Not inside a transaction: it runs
 * on the database's own client.
 */
export function arrayRows(db: Db, name: string, query: Query): (values: object) => Promise<unknown[][]> {
  const named = namedRunner(db);
  if (!named) throw new Error(`${name} runs on the database's own client, not in a transaction`);
  return (values) =>
    named<unknown[]>(
      name,
      { sql: query.sql, params: fillPlaceholders(query.params, values as Record<string, unknown>) },
      asArrays,
    );
}

type Decode = (value: unknown) => unknown;
const asIs: Decode = (value) => value;

/**
 * Turns the first cells of an `arrayRows` row into the object a drizzle select of `fields` answers, each column
 * decoded as drizzle would (timestamps to Date, from PostgreSQL's text); SQL fields are taken as the driver parsed
 * them. The decoders are found once, here.
 */
export function rowDecoder<T extends Record<string, Column | SQL>>(
  fields: T,
): (cells: unknown[]) => { [K in keyof T]: unknown } {
  const keys = Object.keys(fields);
  const decoders: Decode[] = keys.map((key) => {
    const field = fields[key]!;
    if (!is(field, Column)) return asIs;
    return (value) => (value === null ? null : field.mapFromDriverValue(value));
  });
  return (cells) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) row[keys[i]!] = decoders[i]!(cells[i]);
    return row as { [K in keyof T]: unknown };
  };
}
