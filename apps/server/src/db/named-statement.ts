import { PGlite, parse, protocol } from '@electric-sql/pglite';
import type { Query } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from './database.ts';
import { pgText } from './pg-text.ts';

/** How a named statement's rows come back: as objects (the driver's default) or as arrays. */
export interface NamedOptions {
  rowMode?: 'array';
}

/**
 * The types drizzle's drivers answer as PostgreSQL's text (timestamps, dates, intervals, and arrays of them and
 * of numerics), so that a statement answers the same named or through drizzle.
 */
const leftAsText = (text: string) => text;
const LEFT_AS_TEXT: Record<number, typeof leftAsText> = Object.fromEntries(
  [1082, 1114, 1184, 1186, 1115, 1182, 1185, 1187, 1231].map((oid) => [oid, leftAsText]),
);
const poolTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    LEFT_AS_TEXT[oid] ?? pg.types.getTypeParser(oid, format as 'text'),
};

export type RunNamed = <Row>(name: string, query: Query, options?: NamedOptions) => Promise<Row[]>;

const runners = new WeakMap<PGlite | pg.Pool, RunNamed>();

/**
 * Runs the hottest statements parsed once per database session, under a name, instead of parsed, analysed and
 * sent afresh each time: on PostgreSQL through node-postgres's named statements (each pooled connection prepares
 * it on first use), on PGlite as a statement kept in its one session, each run one Bind, Describe, Execute and Sync
 * handed to it at once (its `query` hands over six messages one by one, parsing the text each time). The check
 * engine's claim and write cost a tenth less CPU so on PostgreSQL and a sixth less on PGlite (bench/README.md,
 * "Scheduled checks", thirteenth session). A name stands for one text: two texts under one name throw.
 *
 * Undefined for a transaction's `db` (only the database's own client is known here): run those through drizzle.
 */
export function namedRunner(db: Db): RunNamed | undefined {
  const client = (db as { $client?: unknown }).$client;
  if (!(client instanceof PGlite || client instanceof pg.Pool)) return undefined;
  let runner = runners.get(client);
  if (!runner)
    runners.set(client, (runner = client instanceof PGlite ? pgliteRunner(client) : poolRunner(client)));
  return runner;
}

function poolRunner(pool: pg.Pool): RunNamed {
  return async <Row>(name: string, query: Query, options: NamedOptions = {}) => {
    const result = await pool.query({
      name,
      text: query.sql,
      values: query.params,
      types: poolTypes,
      ...(options.rowMode ? { rowMode: options.rowMode } : {}),
    });
    return result.rows as Row[];
  };
}

/** PostgreSQL's "prepared statement does not exist": the session lost it (DEALLOCATE, DISCARD ALL). */
const UNDEFINED_STATEMENT = '26000';

function pgliteRunner(lite: PGlite): RunNamed {
  /** The statements its one session holds: name → text. */
  const known = new Map<string, string>();
  const { serialize } = protocol;

  /** Parses the statement into the session under `name`. */
  async function prepare(name: string, query: Query) {
    await lite.execProtocolStream(
      concat([serialize.parse({ name, text: query.sql, types: [] }), serialize.sync()]),
    );
    known.set(name, query.sql);
  }

  async function run(name: string, query: Query, options: NamedOptions) {
    const messages = await lite.execProtocolStream(
      concat([
        serialize.bind({ statement: name, values: query.params.map(pgText) }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    return parse.parseResults(messages, lite.parsers, { ...options, parsers: LEFT_AS_TEXT })[0]?.rows ?? [];
  }

  // As PGlite's own `query`: after any transaction in progress, one exchange at a time.
  return async <Row>(name: string, query: Query, options: NamedOptions = {}) =>
    (await lite._runExclusiveTransaction(() =>
      lite._runExclusiveQuery(async () => {
        const text = known.get(name);
        if (text === undefined) await prepare(name, query);
        else if (text !== query.sql) throw new Error(`Statement ${name} was prepared with another text`);
        try {
          return await run(name, query, options);
        } catch (error) {
          if ((error as { code?: string }).code !== UNDEFINED_STATEMENT) throw error;
          await prepare(name, query);
          return run(name, query, options);
        }
      }),
    )) as Row[];
}

function concat(parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}
